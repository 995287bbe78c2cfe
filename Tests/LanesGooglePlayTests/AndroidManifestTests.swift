import Foundation
import LanesTestSupport
import Testing
@testable import LanesBuild

/// Lanes reads the package, version code and version name of an .apk (binary XML, compiled by aapt)
/// and an .aab (aapt2's protobuf XML, encoded by protoc) itself; `aapt dump badging` is the reference.
@Suite(.timeLimit(.minutes(10)), .enabled(if: AndroidTools.available, "needs aapt, protoc, zipalign and apksigner (make test installs them)"))
struct AndroidManifestTests {
    @Test func theAPKAndTheBundleReadAsAaptReadsTheAPK() async throws {
        let project = LanesCommandLine.temporaryDirectory("android-manifest")
        defer { try? FileManager.default.removeItem(at: project) }
        let code = Int.random(in: 1...2_000_000_000), name = "2.\(Int.random(in: 0...99)).\(Int.random(in: 0...9))-rc"
        try await AndroidTools.build(["bundleRelease", "assembleRelease"], in: project.path,
                               properties: ["versionCode": String(code), "versionName": name, "applicationId": "org.example.kettle"])
        let apk = project.appendingPathComponent("app/build/outputs/apk/release/app-release-unsigned.apk").path
        let aab = project.appendingPathComponent("app/build/outputs/bundle/release/app-release.aab").path
        let reference = try await AndroidTools.badging(apk)
        #expect(reference["versionCode"] == String(code), "\(reference)")

        let fromAPK = try AndroidArtifactReader.read(path: apk)
        #expect(fromAPK.kind == .apk)
        #expect(fromAPK.packageName == reference["name"])
        #expect(String(fromAPK.versionCode) == reference["versionCode"])
        #expect(fromAPK.versionName == reference["versionName"])
        #expect(fromAPK.minSdkVersion.map(String.init) == reference["sdkVersion"])

        let fromBundle = try AndroidArtifactReader.read(path: aab)
        #expect(fromBundle == AndroidManifestFacts(kind: .aab, packageName: fromAPK.packageName, versionCode: fromAPK.versionCode,
                                                   versionName: fromAPK.versionName, minSdkVersion: fromAPK.minSdkVersion))
    }

    @Test func aZipWithoutAManifestIsRefusedNamingIt() async throws {
        let folder = LanesCommandLine.temporaryDirectory("android-not")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("notes.aab").path
        try "hello".write(toFile: folder.appendingPathComponent("notes.txt").path, atomically: true, encoding: .utf8)
        _ = try await Program.streams(["zip", "-j", "-q", path, folder.appendingPathComponent("notes.txt").path])
        #expect {
            _ = try AndroidArtifactReader.read(path: path)
        } throws: { error in
            "\(error)".contains("notes.aab") && "\(error)".contains("AndroidManifest.xml")
        }
    }

    /// Damaged manifests (truncated, bytes changed) are refused or read, never read past their end.
    @Test func damagedManifestsNeverCrashTheReaders() async throws {
        let project = LanesCommandLine.temporaryDirectory("android-fuzz")
        defer { try? FileManager.default.removeItem(at: project) }
        try await AndroidTools.build(["bundleRelease", "assembleRelease"], in: project.path)
        let binary = try Array(ZipArchive(path: project.appendingPathComponent("app/build/outputs/apk/release/app-release-unsigned.apk").path)
            .contentsOfEntry(named: "AndroidManifest.xml"))
        let proto = try Array(ZipArchive(path: project.appendingPathComponent("app/build/outputs/bundle/release/app-release.aab").path)
            .contentsOfEntry(named: "base/manifest/AndroidManifest.xml"))
        let seed = UInt64.random(in: 0...UInt64.max)
        print("AndroidManifestTests seed \(seed)")
        var random = SplitMix64(seed: seed)
        for round in 0..<400 {
            for original in [binary, proto] {
                var bytes = original
                if round % 3 == 0 {
                    bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)))
                } else {
                    for _ in 0..<Int.random(in: 1...8, using: &random) {
                        bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                    }
                }
                if original == binary { _ = try? BinaryXML.root(bytes, path: "fuzz.apk") } else { _ = try? ProtoXML.root(bytes, path: "fuzz.aab") }
            }
        }
    }
}

extension ZipArchive {
    func contentsOfEntry(named name: String) throws -> [UInt8] {
        guard let entry = entries.first(where: { $0.name == name }) else { throw BuildError.archive(path: path, problem: "no \(name)") }
        return try contents(of: entry)
    }
}
