import Foundation
import Lanes
import LanesMatch
import LanesPlatform
import LanesTestSupport
import Synchronization

/// A fastlane match storage made in the suite: certificates and keys from the signing fixtures,
/// profiles signed with a throwaway OpenSSL signer, every file encrypted by match_format.py (an
/// implementation of fastlane's format independent of lanes).
struct MatchFixture {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
    static let signing = URL(fileURLWithPath: testsDirectory).deletingLastPathComponent().appendingPathComponent("LanesSigningTests/Fixtures").path
    static let python = "\(testsDirectory)/match_format.py"
    /// The primary identity of the signing fixtures (FIXTURES.md).
    static let distSHA1 = "5F24FB844528D512C166665C383E203C5FA8ACFB"
    static let distName = "iPhone Distribution: Example Corp (ABCDE12345)"

    let temp: TemporaryDirectory
    let password = "brewer match pass ✓"
    /// Clear files, as fastlane's storage holds them once decrypted.
    let clear: String
    /// The encrypted storage, laid out as fastlane writes it.
    let storage: String

    struct ProfileSpec {
        let storedPath: String
        let appIdentifier: String
        let uuid: String
        let encryption: String  // v2, md5, sha256
    }

    static let profiles = [
        ProfileSpec(storedPath: "profiles/appstore/AppStore_works.sth.brewer.mobileprovision", appIdentifier: "works.sth.brewer",
                    uuid: "11111111-2222-4333-8444-555555555555", encryption: "v2"),
        ProfileSpec(storedPath: "profiles/appstore/AppStore_works.sth.brewer.staging.mobileprovision", appIdentifier: "works.sth.brewer.staging",
                    uuid: "7a1d0e4c-2b7e-4e8f-9c11-5d3a2b1c0f42", encryption: "sha256"),
        ProfileSpec(storedPath: "profiles/appstore/AppStore_works.sth.brewer.tv_tvos.mobileprovision", appIdentifier: "works.sth.brewer.tv",
                    uuid: "aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee", encryption: "md5"),
    ]

    /// - Parameter keyAsPKCS12: store the key as fastlane's `match import` does (the user's
    ///   PKCS#12 file, empty password) instead of `fastlane cert`'s PEM key.
    init(keyAsPKCS12: Bool = false) async throws {
        temp = try TemporaryDirectory()
        clear = temp.path + "/clear"
        storage = temp.path + "/storage"
        let work = temp.path + "/work"
        for folder in [clear, storage, work] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }

        // The certificate's key as PEM, from the empty-password PKCS#12 fixture.
        try await Self.run(["openssl", "pkcs12", "-in", "\(Self.signing)/p12/dist-emptypass-aes.p12", "-nocerts", "-nodes",
                      "-passin", "pass:", "-out", "\(work)/dist.key.pem"])
        let key = keyAsPKCS12 ? try Self.bytes("\(Self.signing)/p12/dist-emptypass-aes.p12") : try Self.bytes("\(work)/dist.key.pem")
        try put("certs/distribution/DISTID0001.cer", try Self.bytes("\(Self.signing)/certs/dist.der"))
        try put("certs/distribution/DISTID0001.p12", key)
        // An expired certificate beside the valid one, sorted after it as fastlane's `paths.last` would pick.
        try put("certs/distribution/ZEXPIRED01.cer", try Self.bytes("\(Self.signing)/certs/expired.der"))
        try put("certs/distribution/ZEXPIRED01.p12", try Self.bytes("\(work)/dist.key.pem"))

        // A throwaway profile signer, and profiles that list the valid certificate.
        try await Self.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(work)/signer.key",
                      "-out", "\(work)/signer.crt", "-subj", "/CN=Match Test Profile Signing", "-days", "30"])
        let template = try String(contentsOfFile: "\(Self.signing)/profiles/Brewer_Staging.plist", encoding: .utf8)
        for (index, profile) in Self.profiles.enumerated() {
            let plist = template
                .replacingOccurrences(of: "ABCDE12345.works.sth.brewer.staging", with: "ABCDE12345.\(profile.appIdentifier)")
                .replacingOccurrences(of: "<string>Brewer_Staging</string>", with: "<string>match AppStore \(profile.appIdentifier)</string>")
                .replacingOccurrences(of: "7a1d0e4c-2b7e-4e8f-9c11-5d3a2b1c0f42", with: profile.uuid)
            let plistPath = "\(work)/profile\(index).plist"
            try plist.write(toFile: plistPath, atomically: true, encoding: .utf8)
            try await Self.run(["openssl", "cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-md", "sha256",
                          "-signer", "\(work)/signer.crt", "-inkey", "\(work)/signer.key", "-in", plistPath,
                          "-out", "\(work)/profile\(index).mobileprovision"])
            try put(profile.storedPath, try Self.bytes("\(work)/profile\(index).mobileprovision"))
        }
        try "2.220.0".write(toFile: "\(storage)/match_version.txt", atomically: true, encoding: .utf8)

        // Encrypt as fastlane would: v2 mostly, v1 with both digests for some files.
        let v1 = ["certs/distribution/ZEXPIRED01.cer": "md5", "certs/distribution/ZEXPIRED01.p12": "sha256"]
            .merging(Self.profiles.filter { $0.encryption != "v2" }.map { ($0.storedPath, $0.encryption) }) { $1 }
        for path in try FileManager.default.subpathsOfDirectory(atPath: clear).sorted()
        where !Self.isDirectory("\(clear)/\(path)") {
            try FileManager.default.createDirectory(atPath: ("\(storage)/\(path)" as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            if let digest = v1[path] {
                try await encrypt(["encrypt-v1", digest, "\(clear)/\(path)", "\(storage)/\(path)"])
            } else {
                try await encrypt(["encrypt-v2", "\(clear)/\(path)", "\(storage)/\(path)"])
            }
        }
    }

    private func put(_ path: String, _ bytes: [UInt8]) throws {
        let full = "\(clear)/\(path)"
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: full))
    }

    private func encrypt(_ arguments: [String]) async throws {
        _ = try await Program.tool(["python3", Self.python] + arguments, environment: ["MATCH_PASSWORD": password])
    }

    /// Decrypts a stored file with the Python implementation; nil when the password does not fit.
    static func pythonDecrypt(_ path: String, password: String) throws -> [UInt8]? {
        // posix_spawn and waitpid (see MatchTestServers): Foundation's Process could wait forever.
        let output = path + ".clear-\(UUID().uuidString.prefix(8))"
        defer { try? FileManager.default.removeItem(atPath: output) }
        var child = ChildProcess(["python3", python, "decrypt", path],
                                 environment: ProcessInfo.processInfo.environment.merging(["MATCH_PASSWORD": password]) { $1 })
        child.standardOutput = .appending(path: output, mode: 0o600)
        let status = ChildProcess.wait(try child.start())
        if status.exitCode == 3 { return nil }
        guard status.exitCode == 0 else { throw FixtureError("match_format.py decrypt \(path) ended \(status)") }
        return try bytes(output)
    }

    /// A bare git repository whose branch `branch` holds the storage (made with the git CLI, as a
    /// team's repository would be).
    func gitRepository(branch: String) async throws -> String {
        let remote = temp.path + "/remote.git"
        let checkout = temp.path + "/checkout"
        try await Self.run(["git", "init", "-q", "--bare", remote])
        try await Self.run(["git", "init", "-q", "-b", "master", checkout])
        try await Self.run(["cp", "-R", storage + "/.", checkout])
        let identity = ["-c", "user.name=fastlane", "-c", "user.email=ci@example.com"]
        try await Self.run(["git", "-C", checkout, "add", "-A"])
        try await Self.run(["git", "-C", checkout] + identity + ["commit", "-q", "-m", "[fastlane] Updated appstore and platform ios"])
        try await Self.run(["git", "-C", checkout, "push", "-q", remote, "HEAD:refs/heads/\(branch)"])
        return remote
    }

    static func run(_ arguments: [String]) async throws {
        let result = try await Program.streams(arguments)
        guard result.status == 0 else { throw FixtureError("\(arguments.prefix(3).joined(separator: " ")) failed: \(result.error)") }
    }

    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A lane context over a temporary state directory with the given environment, its log captured.
struct MatchHarness {
    let temp: TemporaryDirectory
    let context: StepContext

    init(environment: [String: String], project: String) throws {
        temp = try TemporaryDirectory()
        let redactor = Redactor()
        context = StepContext(environment: Environment(variables: environment, redactor: redactor), projectDirectory: project,
                              stateDirectory: temp.path + "/state", log: StepLog(redactor: redactor) { _ in },
                              cleanups: CleanupStack(), processes: NoProcesses())
    }

    var logged: [String] { context.log.lastLines }
    var stateDirectory: String { context.stateDirectory }
}

struct NoProcesses: ProcessRunning {
    func run(_ request: ProcessRequest, onLine: @escaping @Sendable (String) -> Void) async throws -> ProcessOutcome {
        throw FixtureError("the match steps start no process (the keychain is a file); asked for \(request.arguments.first ?? "?")")
    }
}

/// Every regular file under `root` whose bytes contain `needle`.
func files(under root: String, containing needle: String) -> [String] {
    guard let paths = FileManager.default.subpaths(atPath: root) else { return [] }
    let pattern = Data(needle.utf8)
    return paths.filter { path in
        guard let data = FileManager.default.contents(atPath: "\(root)/\(path)") else { return false }
        return data.range(of: pattern) != nil
    }
}
