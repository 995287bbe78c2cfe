#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesHTTP

/// A Google service account key, from `FIREBASE_SERVICE_ACCOUNT` (a path, or the JSON itself) or
/// `GOOGLE_APPLICATION_CREDENTIALS` (a path).
public struct GoogleServiceAccount: Sendable {
    public let clientEmail: String
    let privateKey: String
    let privateKeyID: String?
    let tokenURI: String?
    /// The variable it came from, named in errors.
    public let variable: String
    private let inlineJSON: String?

    struct File: Decodable {
        let type: String?
        let client_email: String?
        let private_key: String?
        let private_key_id: String?
        let token_uri: String?
    }

    public var secrets: [String] { [privateKey] + (inlineJSON.map { [$0] } ?? []) }

    public static func resolve(environment: [String: String]) throws(UploadError) -> GoogleServiceAccount {
        for variable in ["FIREBASE_SERVICE_ACCOUNT", "GOOGLE_APPLICATION_CREDENTIALS"] {
            guard let (text, inline) = try PathOrValue.read(variable, from: environment, for: "firebase",
                                                           looksLikeContent: { $0.trimmingSpaces.hasPrefix("{") }) else { continue }
            guard let file = try? JSONDecoder().decode(File.self, from: Data(text.utf8)) else {
                throw UploadError(.configuration, "firebase: \(variable) is not a service-account JSON key", hint: "check \(variable)")
            }
            guard file.type == nil || file.type == "service_account", let email = file.client_email, let key = file.private_key else {
                throw UploadError(.configuration, "firebase: \(variable) lacks client_email or private_key (is it a service-account key?)",
                                  hint: "download a key for a service account with the Firebase App Distribution Admin role")
            }
            return GoogleServiceAccount(clientEmail: email, privateKey: key, privateKeyID: file.private_key_id, tokenURI: file.token_uri,
                                        variable: variable, inlineJSON: inline ? text : nil)
        }
        throw .missingVariable("FIREBASE_SERVICE_ACCOUNT (a key file's path or its JSON) or GOOGLE_APPLICATION_CREDENTIALS",
                               for: "firebase", detail: "no service account")
    }

    /// An RS256-signed assertion for the OAuth 2.0 JWT-bearer grant, valid one hour.
    func assertion(audience: String, scope: String, now: Int) throws(UploadError) -> String {
        let signer = JWTSigner(algorithm: .rs256, privateKeyPEM: privateKey, source: variable)
        return try signer.token(header: privateKeyID.map { ["kid": $0] } ?? [:], claims: [
            "iss": .string(clientEmail), "scope": .string(scope), "aud": .string(audience),
            "iat": .int(now), "exp": .int(now + 3600),
        ])
    }
}
