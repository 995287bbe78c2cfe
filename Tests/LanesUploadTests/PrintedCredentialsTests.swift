import Foundation
@testable import LanesUpload
import Testing
@testable import LanesHTTP

/// A value that holds a secret can still be interpolated into an error or dumped while debugging:
/// what it prints must never carry the secret.
@Suite struct PrintedCredentialsTests {
    static func everyShape(of value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return ["\(value)", String(reflecting: value), dumped]
    }

    @Test func s3CredentialsPrintTheirKeyIdAndSourceOnly() {
        let credentials = S3Credentials(accessKeyID: "AKIAPRINTED", secretAccessKey: "s3-secret-never-printed", sessionToken: "token-never-printed")
        for text in Self.everyShape(of: credentials) {
            #expect(text.contains("AKIAPRINTED"), "\(text)")
            #expect(!text.contains("s3-secret-never-printed") && !text.contains("token-never-printed"), "\(text)")
        }
    }

    @Test func anAppStoreConnectKeyPrintsItsIdNotItsPrivateKey() throws {
        let pem = "-----BEGIN PRIVATE KEY-----\nPRIVATEBODYNEVERPRINTED\n-----END PRIVATE KEY-----\n"
        for key in [try AppStoreConnectKey(keyID: "KEYID12345", issuerID: "issuer", keyContent: pem),
                    try AppStoreConnectKey(keyID: "KEYID12345", issuerID: "issuer", keyContent: Data(pem.utf8).base64EncodedString(), isBase64: true)] {
            for text in Self.everyShape(of: key) {
                #expect(text.contains("KEYID12345"), "\(text)")
                #expect(!text.contains("PRIVATEBODYNEVERPRINTED") && !text.contains(Data(pem.utf8).base64EncodedString()), "\(text)")
            }
        }
    }

    @Test func aProxyPrintsItsHostNotItsCredentials() throws {
        let proxy = try ProxyServer(parsing: "http://builder:proxy-pass-never-printed@proxy.example:3128", variable: "HTTPS_PROXY")
        for text in Self.everyShape(of: proxy) {
            #expect(text.contains("proxy.example"), "\(text)")
            #expect(!text.contains("proxy-pass-never-printed") && !text.contains("Basic "), "\(text)")
        }
    }
}
