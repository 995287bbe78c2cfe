internal import LanesPlatform

/// An access key pair, from the environment or a named profile of `~/.aws/credentials`.
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

    /// `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`/`AWS_SESSION_TOKEN` when set; otherwise the profile
    /// `profile` (or `AWS_PROFILE`, or "default") of `AWS_SHARED_CREDENTIALS_FILE` or `~/.aws/credentials`.
    public static func resolve(environment: [String: String], profile: String? = nil) throws(UploadError) -> S3Credentials {
        let profileName = profile ?? environment["AWS_PROFILE"]
        if profile == nil, let key = environment["AWS_ACCESS_KEY_ID"], !key.isEmpty {
            guard let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty else {
                throw .missingVariable("AWS_SECRET_ACCESS_KEY", for: "s3", detail: "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not")
            }
            let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
            return S3Credentials(accessKeyID: key, secretAccessKey: secret, sessionToken: token)
        }
        let file = environment["AWS_SHARED_CREDENTIALS_FILE"] ?? ((environment["HOME"] ?? "") + "/.aws/credentials")
        let name = profileName ?? "default"
        guard let text = try? FilePath.read(file) else {
            throw .missingVariable("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE)", for: "s3",
                                   detail: "no credentials: the variables are not set and \(file) cannot be read")
        }
        guard let values = parseProfile(name, in: text) else {
            throw UploadError(.configuration, "s3: profile \(name) is not in \(file)", hint: "check AWS_PROFILE or --profile")
        }
        let place = "profile \(name) in \(file)"
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
