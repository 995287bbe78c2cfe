import Foundation
import LanesMatch
import LanesSigning
import LanesTestSupport
import Testing

/// The file format against an independent implementation (match_format.py, `cryptography`).
@Suite("fastlane match format", .timeLimit(.minutes(10)))
struct MatchFormatTests {
    @Test func whatLanesEncryptsPythonDecryptsToTheSameBytes() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let seed = UInt64.random(in: 0...UInt64.max)
        print("MatchFormatTests seed \(seed)")
        var generator = SplitMix64(seed: seed)
        for size in [0, 1, 15, 16, 17, 1000, 4099] {
            let clear = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let password = "pässword \(size)"
            let stored = try await MatchEncryption.encrypt(clear, password: password)
            // Ruby's Base64.encode64: lines of 60 characters, each ending in a newline.
            let lines = String(decoding: stored, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.last == "")
            #expect(lines.dropLast().allSatisfy { $0.count <= 60 })
            #expect(lines.dropLast(2).allSatisfy { $0.count == 60 })
            let path = temp.path + "/file\(size).cer"
            try Data(stored).write(to: URL(fileURLWithPath: path))
            #expect(try MatchFixture.pythonDecrypt(path, password: password) == clear)
            #expect(try MatchFixture.pythonDecrypt(path, password: password + "x") == nil)
        }
    }

    @Test func freshSaltPerFile() async throws {
        let first = try await MatchEncryption.encrypt([1, 2, 3], password: "p")
        let second = try await MatchEncryption.encrypt([1, 2, 3], password: "p")
        #expect(first != second)
    }

    @Test func readsWhatPythonWritesInEveryVersion() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let certificate = try MatchFixture.bytes("\(MatchFixture.signing)/certs/dist.der")
        try Data(certificate).write(to: URL(fileURLWithPath: temp.path + "/clear.cer"))
        for variant in [["encrypt-v2"], ["encrypt-v1", "md5"], ["encrypt-v1", "sha256"]] {
            let out = temp.path + "/\(variant.joined()).cer"
            _ = try await Program.tool(["python3", MatchFixture.python] + variant + [temp.path + "/clear.cer", out], environment: ["MATCH_PASSWORD": "team secret"])
            let stored = try MatchFixture.bytes(out)
            let result = try MatchEncryption.decrypt(stored, password: "team secret", file: out) { MatchReader.plausible($0, extension: "cer") }
            #expect(result?.clear == certificate, "\(variant)")
            #expect(result?.version == (variant.count == 1 ? .v2 : .v1))
            let wrong = try MatchEncryption.decrypt(stored, password: "team secreT", file: out) { MatchReader.plausible($0, extension: "cer") }
            #expect(wrong == nil, "\(variant) with a wrong password")
        }
    }

    /// v1 has no integrity check: a padding that happens to be right is not enough, the bytes must
    /// be what the extension says.
    @Test func v1GarbageIsRejectedByItsExtension() throws {
        let stored = try MatchEncryption.encryptV1(Array("not a certificate at all".utf8), password: "p", salt: [1, 2, 3, 4, 5, 6, 7, 8], digest: .md5)
        let asText = try MatchEncryption.decrypt(stored, password: "p", file: "x.txt") { _ in true }
        #expect(asText?.clear == Array("not a certificate at all".utf8))
        let asCertificate = try MatchEncryption.decrypt(stored, password: "p", file: "x.cer") { MatchReader.plausible($0, extension: "cer") }
        #expect(asCertificate == nil)
    }

    @Test func truncatedAndForeignFilesNameTheFile() async throws {
        let stored = try await MatchEncryption.encrypt(Array(repeating: 7, count: 100), password: "p")
        let raw = Array(Data(base64Encoded: Data(stored), options: .ignoreUnknownCharacters)!)
        let truncated = Array(Data(raw.prefix(30)).base64EncodedString().utf8)
        #expect(throws: MatchError.damaged(file: "certs/x.cer", problem: "30 bytes, shorter than the v2 header")) {
            try MatchEncryption.decrypt(truncated, password: "p", file: "certs/x.cer") { _ in true }
        }
        // Cut inside the ciphertext: the GCM tag no longer matches.
        let cut = Array(Data(raw.prefix(100)).base64EncodedString().utf8)
        #expect(try MatchEncryption.decrypt(cut, password: "p", file: "certs/x.cer") { _ in true } == nil)
        #expect(throws: MatchError.self) { try MatchEncryption.decrypt(Array("%%%".utf8), password: "p", file: "a.p12") { _ in true } }
        let v1Cut = Array(Data(Array("Salted__".utf8) + Array(repeating: 1, count: 8 + 20)).base64EncodedString().utf8)
        #expect(throws: MatchError.self) { try MatchEncryption.decrypt(v1Cut, password: "p", file: "a.p12") { _ in true } }
    }

    @Test func layoutAndEnvironmentNamesFollowFastlane() {
        #expect(MatchLayout.profilePath(type: .appstore, appIdentifier: "a.b", platform: .ios) == "profiles/appstore/AppStore_a.b.mobileprovision")
        #expect(MatchLayout.profilePath(type: .adhoc, appIdentifier: "a.b", platform: .tvos) == "profiles/adhoc/AdHoc_a.b_tvos.mobileprovision")
        #expect(MatchLayout.profilePath(type: .developerID, appIdentifier: "a.b", platform: .macos) == "profiles/developer_id/Direct_a.b.provisionprofile")
        #expect(MatchLayout.profilePath(type: .enterprise, appIdentifier: "a.b", platform: .catalyst) == "profiles/enterprise/InHouse_a.b_catalyst.provisionprofile")
        #expect(MatchLayout.profilePath(type: .developerIDInstaller, appIdentifier: "a.b", platform: .macos) == nil)
        #expect(MatchType.adhoc.certificateFolder == "distribution")
        #expect(MatchType.developerID.certificateFolder == "developer_id_application")
        let names = MatchEnvironmentNames.all(appIdentifier: "a.b", type: .appstore, platform: .ios, uuid: "U", teamID: "T",
                                              profileName: "N", profilePath: "/p", certificateName: "C")
        #expect(names == ["sigh_a.b_appstore": "U", "sigh_a.b_appstore_team-id": "T", "sigh_a.b_appstore_profile-name": "N",
                          "sigh_a.b_appstore_profile-path": "/p", "sigh_a.b_appstore_certificate-name": "C"])
        #expect(MatchEnvironmentNames.base(appIdentifier: "a.b", type: .development, platform: .tvos) == "sigh_a.b_development_tvos")
    }
}
