// Prints how long the signing operations take: reading each PKCS#12 encoding (the legacy one
// pays for the RC2/3DES provider), decoding and verifying a profile, importing into a file keychain.
// Run in release: `make bench-signing` (swift run -c release SigningBench).
import Foundation
import LanesSigning

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Tests/LanesSigningTests/Fixtures").path

func measure(_ label: String, iterations: Int, _ body: () throws -> Void) rethrows {
    try body() // warm-up
    let clock = ContinuousClock()
    let elapsed = try clock.measure { for _ in 0..<iterations { try body() } }
    let perCall = elapsed / iterations
    let micros = Double(perCall.components.attoseconds) / 1e12 + Double(perCall.components.seconds) * 1e6
    print("\(label.padding(toLength: 44, withPad: " ", startingAt: 0)) \(String(format: "%9.1f", micros)) µs/op  (\(iterations) ops)")
}

let encodings = [("dist-openssl3-default-aes", "brewer-aes-pass"), ("dist-legacy-rc2-3des", "brewer-legacy-pass"),
                 ("dist-3des-sha1", "brewer-3des-pass"), ("dist-nopass-unencrypted", ""), ("dist-with-chain", "brewer-chain-pass")]
for (name, password) in encodings {
    try measure("PKCS12File.read \(name)", iterations: 50) {
        _ = try PKCS12File.read(path: "\(fixtures)/p12/\(name).p12", password: password)
    }
}
measure("PKCS12File.read wrong password (AES)", iterations: 50) {
    _ = try? PKCS12File.read(path: "\(fixtures)/p12/dist-openssl3-default-aes.p12", password: "wrong")
}
let trust = TrustStore(pemFiles: ["\(fixtures)/certs/test-root.crt"])
try measure("ProvisioningProfileReader.read (no trust)", iterations: 200) {
    _ = try ProvisioningProfileReader.read(path: "\(fixtures)/profiles/Brewer_Staging.mobileprovision")
}
try measure("ProvisioningProfileReader.read (trust root)", iterations: 200) {
    _ = try ProvisioningProfileReader.read(path: "\(fixtures)/profiles/Brewer_Staging.mobileprovision", trust: trust)
}
let identity = try PKCS12File.read(path: "\(fixtures)/p12/dist-3des-sha1.p12", password: "brewer-3des-pass")
try measure("SigningIdentity.tripleDESPKCS12", iterations: 50) { _ = try identity.tripleDESPKCS12(password: "one-time") }
let directory = NSTemporaryDirectory() + "lanes-bench-\(UUID().uuidString)"
let keychain = try FileKeychain(name: "bench", in: directory, password: "bench-pass")
try await keychain.create()
let clock = ContinuousClock()
let start = clock.now
for _ in 0..<20 { _ = try await keychain.importIdentity(identity) }
let elapsed = clock.now - start
let micros = (Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6) / 20
print("\("FileKeychain.importIdentity".padding(toLength: 44, withPad: " ", startingAt: 0)) \(String(format: "%9.1f", micros)) µs/op  (20 ops)")
try await keychain.delete()
try? FileManager.default.removeItem(atPath: directory)
