internal import LanesPlatform
import LanesHTTP

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
    /// When temporary credentials stop working (seconds since the epoch); nil for long-term keys.
    public let expiration: Int?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil, source: String = "the environment",
                keyVariable: String = "AWS_ACCESS_KEY_ID", secretVariable: String = "AWS_SECRET_ACCESS_KEY", expiration: Int? = nil) {
        self.expiration = expiration
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

    /// Seconds since the epoch of an ISO 8601 time as AWS writes `Expiration`
    /// (`2026-11-25T10:00:00Z`, with optional fractional seconds and a `±HH:MM` offset).
    static func epochSeconds(iso8601 text: String) -> Int? {
        let bytes = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[from..<from + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard bytes.count >= 19, bytes[4] == 45, bytes[7] == 45, bytes[10] == 84 || bytes[10] == 116 || bytes[10] == 32,
              bytes[13] == 58, bytes[16] == 58,
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var index = 19
        if index < bytes.count, bytes[index] == 46 {  // fractional seconds: ignored
            index += 1
            while index < bytes.count, (48...57).contains(bytes[index]) { index += 1 }
        }
        var offset = 0
        if index < bytes.count, bytes[index] == 90 || bytes[index] == 122 {
            index += 1
        } else if index < bytes.count, bytes[index] == 43 || bytes[index] == 45 {
            guard let hours = number(index + 1, 2), let minutes = number(index + 4, 2), bytes.count > index + 3, bytes[index + 3] == 58 else { return nil }
            offset = (hours * 3600 + minutes * 60) * (bytes[index] == 45 ? -1 : 1)
            index += 6
        }
        guard index == bytes.count else { return nil }
        let days = Int(CivilDate(year: Int64(year), month: month, day: day).dayNumber)
        return days * 86_400 + hour * 3600 + minute * 60 + second - offset
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
