import LanesHTTP
/// Facts about the build an artifact came from, kept with it where the destination allows
/// (the local store's manifest; S3 and HTTP ignore them).
public struct ArtifactMetadata: Sendable, Hashable, Codable {
    public var lane: String?
    public var configuration: String?
    public var commit: String?

    public init(lane: String? = nil, configuration: String? = nil, commit: String? = nil) {
        self.lane = lane
        self.configuration = configuration
        self.commit = commit
    }
}

/// What an upload produced, for the command's output and the step's result.
public struct UploadReceipt: Sendable, Hashable, Codable {
    /// The destination as given (never with credentials: they never appear in a destination).
    public let destination: String
    /// Where the artifact now is: a path, a URL, s3://bucket/key, a release or build-upload id.
    public let location: String
    public let size: Int64
    /// Hex SHA-256 of the artifact, when the destination computed it.
    public let sha256: String?
    /// Destination-specific facts: "etag", "parts", "resumedParts", "release", "manifest", "state"...
    public let details: [String: String]

    public init(destination: String, location: String, size: Int64, sha256: String?, details: [String: String] = [:]) {
        self.destination = destination
        self.location = location
        self.size = size
        self.sha256 = sha256
        self.details = details
    }
}

/// Something that takes a file and keeps it somewhere. One per kind of destination.
public protocol ArtifactDestination: Sendable {
    func upload(file path: String, metadata: ArtifactMetadata, progress: any ProgressReporter) throws(UploadError) -> UploadReceipt
}
