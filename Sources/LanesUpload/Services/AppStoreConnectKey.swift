/// An App Store Connect API key: `ASC_KEY_ID`, `ASC_ISSUER_ID`, and `ASC_PRIVATE_KEY` (the .p8
/// file's path, or its PEM text).
public struct AppStoreConnectKey: Sendable {
    public let keyID: String
    public let issuerID: String
    let privateKey: String

    public var secrets: [String] { [privateKey] }

    public static func resolve(environment: [String: String]) throws(UploadError) -> AppStoreConnectKey {
        guard let keyID = environment["ASC_KEY_ID"], !keyID.isEmpty else {
            throw .missingVariable("ASC_KEY_ID", for: "testflight", detail: "no App Store Connect API key id")
        }
        guard let issuer = environment["ASC_ISSUER_ID"], !issuer.isEmpty else {
            throw .missingVariable("ASC_ISSUER_ID", for: "testflight", detail: "no App Store Connect issuer id")
        }
        guard let (key, _) = try PathOrValue.read("ASC_PRIVATE_KEY", from: environment, for: "testflight",
                                                  looksLikeContent: { $0.contains("-----BEGIN") }) else {
            throw .missingVariable("ASC_PRIVATE_KEY (the AuthKey_XXXX.p8 path or its contents)", for: "testflight", detail: "no private key")
        }
        return AppStoreConnectKey(keyID: keyID, issuerID: issuer, privateKey: key)
    }

    /// Apple's limit is 20 minutes; a fresh token is made for every call, so a short life costs nothing.
    static let lifetime = 20 * 60

    func token(now: Int) throws(UploadError) -> String {
        try JWTSigner(algorithm: .es256, privateKeyPEM: privateKey, source: "ASC_PRIVATE_KEY")
            .token(header: ["kid": keyID], claims: [
                "iss": .string(issuerID), "iat": .int(now), "exp": .int(now + Self.lifetime), "aud": .string("appstoreconnect-v1"),
            ])
    }
}
