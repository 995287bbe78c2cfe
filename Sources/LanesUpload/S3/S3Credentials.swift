internal import LanesPlatform

/// An access key pair, as `S3CredentialChain` found it (the environment, a profile, STS, a
/// container or instance metadata service).
/// The secret and the token are secrets: `secrets` lists them for the redactor.
public struct S3Credentials: Sendable {
    public let accessKeyID: String
    let secretAccessKey: String
    let sessionToken: String?
    /// Where they came from, to name in errors: "AWS_SECRET_ACCESS_KEY" or "profile ci in ~/.aws/credentials".
    public let source: String
    let secretVariable: String
    let keyVariable: String

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil, source: String = "the environment",
                keyVariable: String = "AWS_ACCESS_KEY_ID", secretVariable: String = "AWS_SECRET_ACCESS_KEY") {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.source = source
        self.keyVariable = keyVariable
        self.secretVariable = secretVariable
    }

    /// Values that must never be printed.
    public var secrets: [String] { [secretAccessKey] + (sessionToken.map { [$0] } ?? []) }

    /// The credentials `S3CredentialChain` finds, with its defaults (a client of its own, nothing
    /// registered): for callers that register `secrets` themselves.
    public static func resolve(environment: [String: String], profile: String? = nil) throws(UploadError) -> S3Credentials {
        try S3CredentialChain(environment: environment).resolve(profile: profile)
    }

    /// The keys of a profile section (`aws_access_key_id`, `aws_secret_access_key`, `aws_session_token`).
    static func fromProfile(_ values: [String: String], place: String) throws(UploadError) -> S3Credentials {
        guard let key = values["aws_access_key_id"], let secret = values["aws_secret_access_key"] else {
            throw UploadError(.configuration, "s3: \(place) lacks aws_access_key_id or aws_secret_access_key")
        }
        return S3Credentials(accessKeyID: key, secretAccessKey: secret, sessionToken: values["aws_session_token"], source: place,
                             keyVariable: "aws_access_key_id of \(place)", secretVariable: "aws_secret_access_key of \(place)")
    }

    /// The `key = value` lines of section `[name]` of an INI file.
    static func parseProfile(_ name: String, in text: String) -> [String: String]? {
        var current: String?
        var found: [String: String]?
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = String(rawLine).trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                current = String(line.dropFirst().dropLast()).trimmingSpaces
                if current == name && found == nil { found = [:] }
                continue
            }
            guard current == name, let equals = line.firstIndex(of: "=") else { continue }
            found?[String(line[..<equals]).trimmingSpaces.lowercased()] = String(line[line.index(after: equals)...]).trimmingSpaces
        }
        return found
    }
}

/// Printed or dumped, credentials show their key id and source, never the secret or the token.
extension S3Credentials: CustomStringConvertible, CustomReflectable {
    public var description: String { "access key \(accessKeyID) from \(source)" }
    public var customMirror: Mirror { Mirror(self, children: ["accessKeyID": accessKeyID, "source": source]) }
}
