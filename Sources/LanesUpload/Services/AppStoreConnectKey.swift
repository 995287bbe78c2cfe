#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesHTTP

/// An App Store Connect API key, from its parts. Which parts comes from the step layer (the
/// `app_store_connect_api_key` step's declared options and their environment variables, fastlane's
/// `APP_STORE_CONNECT_API_KEY_*` names); this type never reads the environment.
public struct AppStoreConnectKey: Sendable {
    public let keyID: String
    public let issuerID: String
    /// An Apple Developer Enterprise Program team's key. As in fastlane, its tokens are for
    /// `apple-developer-enterprise-v1` and its API is `api.enterprise.developer.apple.com`.
    public let inHouse: Bool
    let privateKey: String

    /// The PEM text and any other shape it arrived in (base64): every one goes to the redactor.
    public var secrets: [String] { [privateKey] + extraSecrets }
    private let extraSecrets: [String]

    public enum Variable {
        public static let keyID = "APP_STORE_CONNECT_API_KEY_KEY_ID"
        public static let issuerID = "APP_STORE_CONNECT_API_KEY_ISSUER_ID"
        public static let key = "APP_STORE_CONNECT_API_KEY_KEY"
        public static let keyFilepath = "APP_STORE_CONNECT_API_KEY_KEY_FILEPATH"
        public static let isBase64 = "APP_STORE_CONNECT_API_KEY_IS_KEY_CONTENT_BASE64"
        public static let inHouse = "APP_STORE_CONNECT_API_KEY_IN_HOUSE"
    }

    /// A key from its parts. `keyContent` is the .p8's PEM text, or its base64 when `isBase64`.
    public init(keyID: String, issuerID: String, keyContent: String, isBase64: Bool = false, inHouse: Bool = false,
                source: String = Variable.key) throws(UploadError) {
        guard !keyID.isEmpty else { throw .missingVariable(Variable.keyID, for: "App Store Connect", detail: "the API key id is empty") }
        guard !issuerID.isEmpty else { throw .missingVariable(Variable.issuerID, for: "App Store Connect", detail: "the issuer id is empty") }
        var pem = keyContent
        var extra: [String] = []
        let trimmed = String(keyContent.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        // CI secret stores hold the .p8 as base64; a value that is not PEM is tried as base64 too.
        if isBase64 || !trimmed.contains("-----BEGIN") {
            let compact = trimmed.filter { !$0.isWhitespace }
            guard let data = Data(base64Encoded: compact), let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN") else {
                throw UploadError(.configuration, "App Store Connect: \(source) is neither a PEM private key nor the base64 of one",
                                  hint: "set \(source) to the AuthKey_\(keyID).p8 contents (or their base64 with \(Variable.isBase64)=true)")
            }
            extra = [keyContent, compact]
            pem = text
        }
        self.keyID = keyID
        self.issuerID = issuerID
        self.inHouse = inHouse
        self.privateKey = pem
        self.extraSecrets = extra
    }

    /// A key whose .p8 file is at `path`.
    public init(keyID: String, issuerID: String, keyFilepath path: String, inHouse: Bool = false, source: String = Variable.keyFilepath) throws(UploadError) {
        guard let text = try? LanesPlatformFile.read(path) else {
            throw UploadError(.environment, "App Store Connect: \(source) names \(path), which cannot be read", hint: "check \(source)")
        }
        try self.init(keyID: keyID, issuerID: issuerID, keyContent: text, inHouse: inHouse, source: source)
    }

    /// The .p8's PEM text, for writing the file xcodebuild's `-authenticationKeyPath` reads (0600,
    /// removed when the lane ends). A secret: it is in `secrets`.
    public var privateKeyPEM: String { privateKey }

    /// Apple's limit is 20 minutes.
    public static let lifetime = 20 * 60

    /// The JWT's `aud`: enterprise keys are for Apple's enterprise API.
    public var audience: String { inHouse ? "apple-developer-enterprise-v1" : "appstoreconnect-v1" }

    /// A signed ES256 token valid from `now` (Unix seconds) for `lifetime` seconds. A secret.
    public func token(now: Int) throws(UploadError) -> String {
        try JWTSigner(algorithm: .es256, privateKeyPEM: privateKey, source: "\(Variable.key) (key \(keyID))")
            .token(header: ["kid": keyID], claims: [
                "iss": .string(issuerID), "iat": .int(now), "exp": .int(now + Self.lifetime), "aud": .string(audience),
            ])
    }
}

/// Printed or dumped (an error's interpolation, `dump`, a debugger), a key shows its id and issuer,
/// never the private key.
extension AppStoreConnectKey: CustomStringConvertible, CustomReflectable {
    public var description: String { "App Store Connect key \(keyID) (issuer \(issuerID))" }
    public var customMirror: Mirror { Mirror(self, children: ["keyID": keyID, "issuerID": issuerID, "inHouse": inHouse]) }
}
