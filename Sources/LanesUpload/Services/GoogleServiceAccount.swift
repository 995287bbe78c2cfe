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
    /// Where the key's signed assertion is exchanged for an access token (`token_uri`).
    public let tokenURI: String?
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
            return try decode(text, variable: variable, inline: inline, for: "firebase",
                              hint: "download a key for a service account with the Firebase App Distribution Admin role")
        }
        throw .missingVariable("FIREBASE_SERVICE_ACCOUNT (a key file's path or its JSON) or GOOGLE_APPLICATION_CREDENTIALS",
                               for: "firebase", detail: "no service account")
    }

    /// A service-account JSON key's fields; `variable` names where it came from (an option and its
    /// environment variable) in errors, `inline` says the text is the value itself (then a secret too).
    public static func decode(_ text: String, variable: String, inline: Bool, for destination: String,
                              hint: String) throws(UploadError) -> GoogleServiceAccount {
        guard let file = try? JSONDecoder().decode(File.self, from: Data(text.utf8)) else {
            throw UploadError(.configuration, "\(destination): \(variable) is not a service-account JSON key", hint: "check \(variable)")
        }
        guard file.type == nil || file.type == "service_account" else {
            throw UploadError(.configuration, "\(destination): \(variable) is a key of type \(file.type ?? ""), not a service account's",
                              hint: "lanes signs in with a service account's JSON key (type service_account): \(hint)")
        }
        guard let email = file.client_email, let key = file.private_key else {
            throw UploadError(.configuration, "\(destination): \(variable) lacks client_email or private_key (is it a service-account key?)", hint: hint)
        }
        return GoogleServiceAccount(clientEmail: email, privateKey: key, privateKeyID: file.private_key_id, tokenURI: file.token_uri,
                                    variable: variable, inlineJSON: inline ? text : nil)
    }

    /// An RS256-signed assertion for the OAuth 2.0 JWT-bearer grant, valid one hour.
    public func assertion(audience: String, scope: String, now: Int) throws(UploadError) -> String {
        let signer = JWTSigner(algorithm: .rs256, privateKeyPEM: privateKey, source: variable)
        return try signer.token(header: privateKeyID.map { ["kid": $0] } ?? [:], claims: [
            "iss": .string(clientEmail), "scope": .string(scope), "aud": .string(audience),
            "iat": .int(now), "exp": .int(now + 3600),
        ])
    }
}
