import LanesUpload
import LanesHTTP
internal import LanesPlatform

/// What App Store Connect's build-upload flow left: the `buildUploads` resource and the file's checksum.
public struct BuildUploadResult: Sendable {
    public let uploadID: String
    public let md5: String
    public let size: Int64
    public let parts: Int
}

/// A reserved asset's attributes: where its bytes go.
struct ReservedAsset: Decodable, Sendable {
    let uploadOperations: [AssetUploadOperation]?
}

/// A build upload's `state` and a screenshot's `assetDeliveryState`: Apple's state and its reasons.
struct AssetState: Decodable, Sendable {
    struct Detail: Decodable, Sendable { let code: String?; let description: String? }
    let state: String?
    let errors: [Detail]?

    /// "CODE: description; ..." for an error message.
    var reasons: String {
        (errors ?? []).map { [$0.code, $0.description].compactMap { $0 }.joined(separator: ": ") }.joined(separator: "; ")
    }
}

struct BuildUploadAttributes: Decodable, Sendable {
    let state: AssetState?
}

extension AppStoreConnectClient {
    /// App Store Connect's build-upload API, as `upload_to_testflight` and `upload_to_app_store` use it:
    /// create a `buildUploads` resource, reserve a `buildUploadFiles` resource whose `uploadOperations`
    /// say which byte range goes where, send each range, and commit with the MD5 checksum. The
    /// processing that follows is `waitForBuild`'s (cancellable); this returns once committed.
    public func uploadBuild(appID: String, file path: String, version: String, buildNumber: String, platform: AppStorePlatform,
                            progress: any ProgressReporter = SilentProgress(), concurrency: Int = 4) async throws -> BuildUploadResult {
        let (checksum, size) = try AssetUpload.md5(of: path)
        let name = String(path.split(separator: "/").last ?? Substring(path))
        struct UploadAttributes: Encodable, Sendable { let cfBundleShortVersionString: String; let cfBundleVersion: String; let platform: String }
        let created = try await send("POST", "/v1/buildUploads", body: Request(
            type: "buildUploads", attributes: UploadAttributes(cfBundleShortVersionString: version, cfBundleVersion: buildNumber, platform: platform.rawValue),
            relationships: ["app": ToOne(data: Linkage(type: "apps", id: appID))]), answer: Document<Resource<NoAttributes>>.self)
        guard let uploadID = created?.data.id else { throw UploadError(.transfer, "App Store Connect: POST /v1/buildUploads answered no id") }

        struct FileAttributes: Encodable, Sendable { let assetType: String; let fileName: String; let fileSize: Int64; let uti: String }
        let reserved = try await send("POST", "/v1/buildUploadFiles", body: Request(
            type: "buildUploadFiles", attributes: FileAttributes(assetType: "ASSET", fileName: name, fileSize: size,
                                                                 uti: name.hasSuffix(".pkg") ? "com.apple.pkg" : "com.apple.ipa"),
            relationships: ["buildUpload": ToOne(data: Linkage(type: "buildUploads", id: uploadID))]), answer: Document<Resource<ReservedAsset>>.self)
        guard let file = reserved?.data else { throw UploadError(.transfer, "App Store Connect: POST /v1/buildUploadFiles answered no file") }
        let operations = file.attributes?.uploadOperations ?? []
        try await sendParts(operations, path: path, size: size, what: "build \(version) (\(buildNumber))", progress: progress, concurrency: concurrency)

        struct Checksum: Encodable, Sendable { let hash: String; let algorithm: String }
        struct Checksums: Encodable, Sendable { let file: Checksum }
        struct Commit: Encodable, Sendable { let sourceFileChecksums: Checksums; let uploaded: Bool }
        try await send("PATCH", "/v1/buildUploadFiles/\(file.id)", body: Request(
            type: "buildUploadFiles", id: file.id,
            attributes: Commit(sourceFileChecksums: Checksums(file: Checksum(hash: checksum, algorithm: "MD5")), uploaded: true)))
        return BuildUploadResult(uploadID: uploadID, md5: checksum, size: size, parts: operations.count)
    }

    /// The build upload's state, failing with Apple's reasons when it is FAILED.
    func buildUploadState(_ uploadID: String, version: String, buildNumber: String) async throws -> String? {
        let upload = try await get("/v1/buildUploads/\(uploadID)", as: Document<Resource<BuildUploadAttributes>>.self)
        let state = upload.data.attributes?.state
        if let state, state.state == "FAILED" {
            throw UploadError(.transfer, "App Store Connect rejected build \(version) (\(buildNumber)): \(state.reasons)")
        }
        return state?.state
    }

    /// Sends an asset's parts on threads of their own (the transfers block); cancelling the task
    /// closes their connections.
    func sendParts(_ operations: [AssetUploadOperation], path: String, size: Int64, what: String,
                   progress: any ProgressReporter, concurrency: Int = 4) async throws {
        // Parts are PUTs: the HTTP client's own retries (its one rule) apply, on the API client's cancellation.
        let http = HTTPClient(timeouts: self.http.timeouts, cancellation: self.http.cancellation), registerSecret = self.registerSecret
        try await BlockingThread.run(onCancel: { http.cancellation.cancel() }) {
            try AssetUpload.send(operations, path: path, size: size, http: http, concurrency: concurrency, what: what,
                                 registerSecret: registerSecret, progress: progress)
        }
    }
}
