import Foundation
import Testing
@testable import LanesRuntime

/// Issue 21: a secret printed base64-encoded (at any alignment), percent-encoded or JSON-escaped
/// is masked as the plain value is.
@Suite(.timeLimit(.minutes(3))) struct EncodedSecretShapesTests {
    static let secret = "p@ss w0rd/\"quoted\"+ü-2026"

    /// Whether any 8-character window of a shape of the secret survives in `shown`.
    static func leaks(_ shape: String, in shown: String) -> Bool {
        let characters = Array(shape)
        guard characters.count >= 8 else { return shown.contains(shape) }
        return (0...(characters.count - 8)).contains { shown.contains(String(characters[$0..<$0 + 8])) }
    }

    @Test(arguments: 0..<3)
    func base64AtEveryAlignmentIsMasked(prefixLength: Int) {
        let redactor = Redactor(secrets: [Self.secret])
        let prefix = String(repeating: "x", count: prefixLength)
        let encoded = Data((prefix + Self.secret + "tail").utf8).base64EncodedString()
        let shown = redactor.redact("blob: " + encoded)
        #expect(shown.contains(Redactor.mask), "\(shown)")
        // The encoding of the secret's whole groups is gone; only the stream's edges may remain.
        let middle = String(Data(Self.secret.utf8).dropFirst(3).prefix(12).base64EncodedString())
        #expect(!Self.leaks(Data((prefix + Self.secret).utf8).base64EncodedString().dropFirst(8).prefix(16).description, in: shown),
                "\(shown) (middle \(middle))")
        let urlSafe = encoded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        #expect(redactor.redact(urlSafe).contains(Redactor.mask))
    }

    @Test func percentEncodedFormsAreMasked() throws {
        let redactor = Redactor(secrets: [Self.secret])
        let upper = try #require(Self.secret.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")))
        for form in [upper, upper.lowercased(), upper.replacingOccurrences(of: "%20", with: "+")] {
            let shown = redactor.redact("https://host/cb?token=\(form)&x=1")
            #expect(shown == "https://host/cb?token=\(Redactor.mask)&x=1", "\(form) → \(shown)")
        }
    }

    @Test func jsonEscapedFormsAreMasked() throws {
        let pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n"
        let redactor = Redactor(secrets: [Self.secret, pem])
        for value in [Self.secret, pem] {
            let data = try JSONSerialization.data(withJSONObject: ["value": value])
            let json = String(decoding: data, as: UTF8.self)
            let shown = redactor.redact(json)
            #expect(shown == "{\"value\":\"\(Redactor.mask)\"}", "\(json) → \(shown)")
        }
    }

    @Test func shortSecretsGetNoEncodedShapes() {
        let redactor = Redactor(secrets: ["abc"])
        #expect(redactor.redact("YWJj and abc") == "YWJj and ********")
    }
}
