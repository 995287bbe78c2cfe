import Foundation
import Synchronization
import Testing
@testable import LanesSigning

/// Lanes' OpenSSL wrappers from several threads at once, as the daemon and the parallel test run
/// use them: each call makes its own OpenSSL objects, so the results match a lone call's. A bounded
/// number of rounds, quick in a normal build; `make test-sanitize` (both sanitizers) is where a
/// shared object or a use after free would show.
@Suite("OpenSSL from several threads", .timeLimit(.minutes(10)))
struct OpenSSLConcurrencyTests {
    static let threads = 6
    static let rounds = 5

    /// One round: the facts every thread must agree on.
    static func round() throws -> [String] {
        let identity = try PKCS12File.read(path: Fixture.p12("dist-legacy-rc2-3des"), password: Fixture.password("dist-legacy-rc2-3des"))
        let reencoded = try PKCS12File.read(bytes: identity.tripleDESPKCS12(password: "round-pass"), password: "round-pass", source: "memory")
        let profile = try ProvisioningProfileReader.read(path: Fixture.profile("Brewer_Staging"), trust: TrustStore(pemFiles: [Fixture.trustRoot]))
        let pem = try Certificate(pem: Array(FileManager.default.contents(atPath: Fixture.certificate("dist.crt"))!))
        let key = try identity.encryptedPrivateKeyPEM(password: "round-pass")
        try PrivateKeyPEM.verify(key, password: "round-pass", certificate: identity.certificate, context: identity.context, source: "memory")
        return [identity.certificate.sha1, reencoded.certificate.sha1, pem.sha1, profile.uuid, "\(profile.signature.isVerified)",
                MessageDigest.hex(identity.certificate.der, .sha256)]
    }

    @Test func everyThreadGetsWhatALoneCallGets() throws {
        let expected = try Self.round()
        let results = Mutex<[Result<[String], any Error>]>([])
        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            for _ in 0..<Self.rounds {
                let outcome = Result { try Self.round() }
                results.withLock { $0.append(outcome) }
            }
        }
        let all = results.withLock { $0 }
        #expect(all.count == Self.threads * Self.rounds)
        for outcome in all {
            #expect(try outcome.get() == expected)
        }
    }
}
