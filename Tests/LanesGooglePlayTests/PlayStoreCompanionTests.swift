import LanesPlatform
import Foundation
import LanesTestSupport
import Testing

/// supply's metadata layout both ways, internal app sharing, the key check, release names and
/// promotion, through `lanes run` against the local Google Play; sign_apk with Debian's zipalign
/// and apksigner, its passwords never on any command line.
extension LocalGooglePlayTests {
    @Suite struct PlayStoreCompanionTests {
        let server: LocalGooglePlay
        let lanes = LanesCommandLine()

        init() async throws { server = try await LocalGooglePlay.started() }

        var environment: [String: String] { ["SUPPLY_JSON_KEY": server.keyPath, "LANES_GOOGLE_PLAY_API_URL": server.base] }

        func write(_ text: String, to path: URL) throws {
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: path, atomically: true, encoding: .utf8)
        }

        /// A PNG of a few bytes, whatever its content: Google Play's stand-in keeps what it gets.
        func png(_ path: URL, seed: UInt8) throws {
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, seed, seed &+ 1]).write(to: path)
        }

        @Test func metadataUploadsInTheSameEditAndDownloadsBackIntoSuppliesLayout() async throws {
            try await server.reset([:])
            let project = LanesCommandLine.temporaryDirectory("play-metadata")
            defer { try? FileManager.default.removeItem(at: project) }
            try await AndroidTools.build(["bundleRelease"], in: project.path, properties: ["versionCode": "42"])
            let metadata = project.appendingPathComponent("fastlane/metadata/android")
            try write("Brewer", to: metadata.appendingPathComponent("en-US/title.txt"))
            try write("Coffee, timed", to: metadata.appendingPathComponent("en-US/short_description.txt"))
            try write("Brewer times your pour-over.", to: metadata.appendingPathComponent("en-US/full_description.txt"))
            try write("Kaffee nach Plan", to: metadata.appendingPathComponent("de-DE/title.txt"))
            try write("Steadier timer", to: metadata.appendingPathComponent("en-US/changelogs/42.txt"))
            try write("Ruhigerer Timer", to: metadata.appendingPathComponent("de-DE/changelogs/default.txt"))
            try png(metadata.appendingPathComponent("en-US/images/icon.png"), seed: 1)
            try png(metadata.appendingPathComponent("en-US/images/phoneScreenshots/1_en-US.png"), seed: 2)
            try png(metadata.appendingPathComponent("en-US/images/phoneScreenshots/2_en-US.png"), seed: 3)

            let upload = try await lanes.run(["run", "upload_to_play_store", "track:internal", "aab:app/build/outputs/bundle/release/app-release.aab"], in: project, extraEnvironment: environment)
            #expect(upload.status == 0, "\(upload.output)")
            #expect(try await server.errors() == [])
            let commit = try #require(try await server.commits().first)
            let listings = commit["listings"] as? [String: [String: String]] ?? [:]
            #expect(listings["en-US"]?["title"] == "Brewer" && listings["en-US"]?["shortDescription"] == "Coffee, timed", "\(listings)")
            #expect(listings["de-DE"]?["title"] == "Kaffee nach Plan")
            let release = (commit["tracks"] as? [String: [[String: Any]]])?["internal"]?.first ?? [:]
            let notes = (release["releaseNotes"] as? [[String: String]] ?? []).reduce(into: [String: String]()) { $0[$1["language"] ?? ""] = $1["text"] }
            #expect(notes == ["en-US": "Steadier timer", "de-DE": "Ruhigerer Timer"], "\(release)")
            #expect(release["status"] as? String == "completed")
            let changed = commit["changed"] as? [String] ?? []
            #expect(changed.contains("image en-US/icon") && changed.filter { $0 == "image en-US/phoneScreenshots" }.count == 2, "\(changed)")

            // download_from_play_store writes the same layout back (into a new folder).
            let download = try await lanes.run(["run", "download_from_play_store", "package_name:com.example.brewer", "track:internal",
                                          "metadata_path:downloaded"], in: project, extraEnvironment: environment)
            #expect(download.status == 0, "\(download.output)")
            let downloaded = project.appendingPathComponent("downloaded")
            #expect(try String(contentsOf: downloaded.appendingPathComponent("en-US/title.txt"), encoding: .utf8) == "Brewer")
            #expect(try String(contentsOf: downloaded.appendingPathComponent("de-DE/changelogs/42.txt"), encoding: .utf8) == "Ruhigerer Timer")
            #expect(FileManager.default.fileExists(atPath: downloaded.appendingPathComponent("en-US/images/icon.png").path))
            #expect(FileManager.default.fileExists(atPath: downloaded.appendingPathComponent("en-US/images/phoneScreenshots/2_en-US.png").path))
            #expect(!((try? FileManager.default.contentsOfDirectory(atPath: project.path)) ?? []).contains { $0.contains(".partial-") })
            // The edit it read through is gone; nothing else was committed.
            #expect(try await server.commits().count == 1)
            #expect(try await server.edits().values.filter { $0["state"] as? String == "open" }.isEmpty)
        }

        @Test func internalSharingReturnsTheDownloadURLAndTheKeyCheckSignsIn() async throws {
            try await server.reset([:])
            let project = LanesCommandLine.temporaryDirectory("play-sharing")
            defer { try? FileManager.default.removeItem(at: project) }
            try await AndroidTools.build(["assembleRelease"], in: project.path, properties: ["versionCode": "51"])
            let shared = try await lanes.run(["run", "upload_to_play_store_internal_app_sharing", "apk:app/build/outputs/apk/release/app-release-unsigned.apk"],
                                       in: project, extraEnvironment: environment)
            #expect(shared.status == 0, "\(shared.output)")
            #expect(shared.output.contains("https://play.google.com/apps/test/com.example.brewer/51"), "\(shared.output)")
            let check = try await lanes.run(["run", "validate_play_store_json_key"], in: project, extraEnvironment: environment)
            #expect(check.status == 0 && check.output.contains("lanes-release@example-project.iam.gserviceaccount.com"), "\(check.output)")
            #expect(try await server.errors() == [])

            // A key that is not the service account's own: Google refuses it, the lane fails naming the option.
            let forged = project.appendingPathComponent("forged.json")
            let other = try await Program.streams(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]).output
            var key = try JSONSerialization.jsonObject(with: Data(server.keyJSON.utf8)) as? [String: Any] ?? [:]
            key["private_key"] = other
            try JSONSerialization.data(withJSONObject: key).write(to: forged)
            let refused = try await lanes.run(["run", "validate_play_store_json_key", "json_key:forged.json"], in: project, extraEnvironment: environment)
            #expect(refused.status != 0)
            #expect(refused.output.contains("json_key (SUPPLY_JSON_KEY)") && refused.output.contains("refused"), "\(refused.output)")
            for line in other.split(separator: "\n") where !line.hasPrefix("-----") { #expect(!refused.output.contains(line)) }
        }

        @Test func aReleaseIsPromotedAndItsNamesRead() async throws {
            try await server.reset(["packages": ["com.example.brewer": [
                "tracks": ["beta": [["name": "1.3.0", "versionCodes": ["40"], "status": "completed"]]], "versionCodes": [40]]]])
            let project = LanesCommandLine.temporaryDirectory("play-promote")
            defer { try? FileManager.default.removeItem(at: project) }
            let promoted = try await lanes.run(["run", "upload_to_play_store", "package_name:com.example.brewer", "track:beta",
                                          "track_promote_to:production", "rollout:0.1", "skip_upload_metadata:true"], in: project, extraEnvironment: environment)
            #expect(promoted.status == 0, "\(promoted.output)")
            let production = (try await server.commits().first?["tracks"] as? [String: [[String: Any]]])?["production"]?.first ?? [:]
            #expect(production["versionCodes"] as? [String] == ["40"] && production["status"] as? String == "inProgress"
                    && production["userFraction"] as? Double == 0.1, "\(production)")
            let names = try await lanes.run(["run", "google_play_track_release_names", "package_name:com.example.brewer", "track:production"],
                                      in: project, extraEnvironment: environment)
            #expect(names.status == 0 && names.output.contains("1.3.0"), "\(names.output)")
            #expect(try await server.errors() == [])
        }

        @Test func signAPKAlignsSignsAndVerifiesWithThePasswordsOffEveryCommandLine() async throws {
            let project = LanesCommandLine.temporaryDirectory("sign-apk")
            defer { try? FileManager.default.removeItem(at: project) }
            try await AndroidTools.build(["assembleRelease"], in: project.path)
            let storePassword = "Store-\(UInt32.random(in: 100_000...999_999))", keyPassword = "Key-\(UInt32.random(in: 100_000...999_999))"
            let keystore = project.appendingPathComponent("release.p12").path
            _ = try await Program.tool(["keytool", "-genkeypair", "-keystore", keystore, "-storetype", "PKCS12", "-alias", "release", "-keyalg", "RSA",
                             "-keysize", "2048", "-validity", "30", "-dname", "CN=Brewer Release", "-storepass:env", "STORE", "-keypass:env", "STORE"],
                            environment: ["STORE": storePassword])
            #expect(FileManager.default.fileExists(atPath: keystore))
            // apksigner and zipalign run through wrappers that record their command lines.
            let wrappers = project.appendingPathComponent("wrappers")
            try FileManager.default.createDirectory(at: wrappers, withIntermediateDirectories: true)
            for tool in ["apksigner", "zipalign"] {
                let path = wrappers.appendingPathComponent(tool).path
                try AtomicFile.write("#!/bin/sh\nprintf '%s\\n' \"$@\" >> \"\(project.path)/argv.txt\"\nexec /usr/bin/\(tool) \"$@\"\n", to: path,
                                     permissions: 0o755)
            }
            let path = "\(wrappers.path):\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")"
            // A PKCS#12 keystore keeps one password for the store and its key: SIGN_APK_KEYPASS is its too.
            let signed = try await lanes.run(["run", "sign_apk", "apk_path:app/build/outputs/apk/release/app-release-unsigned.apk",
                                        "keystore_path:release.p12", "alias:release"], in: project,
                                       extraEnvironment: ["PATH": path, "SIGN_APK_STOREPASS": storePassword, "SIGN_APK_KEYPASS": storePassword])
            #expect(signed.status == 0, "\(signed.output)")
            let output = project.appendingPathComponent("app/build/outputs/apk/release/app-release-signed.apk").path
            let verify = try await Program.streams(["apksigner", "verify", "--print-certs", output])
            #expect(verify.status == 0 && verify.output.contains("CN=Brewer Release"), "\(verify.output)\(verify.error)")
            #expect(try await Program.streams(["zipalign", "-c", "-p", "4", output]).status == 0, "not aligned")
            let argv = (try? String(contentsOfFile: project.appendingPathComponent("argv.txt").path, encoding: .utf8)) ?? ""
            #expect(argv.contains("env:LANES_APKSIGNER_STORE_PASS"), "\(argv)")
            #expect(!argv.contains(storePassword) && !signed.output.contains(storePassword))
            let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: project.appendingPathComponent("app/build/outputs/apk/release").path)) ?? []
            #expect(!leftovers.contains { $0.contains(".lanes-") }, "\(leftovers)")

            // A wrong password fails the step and leaves no signed APK behind.
            try FileManager.default.removeItem(atPath: output)
            let wrong = try await lanes.run(["run", "sign_apk", "apk_path:app/build/outputs/apk/release/app-release-unsigned.apk",
                                       "keystore_path:release.p12", "alias:release"], in: project,
                                      extraEnvironment: ["PATH": path, "SIGN_APK_STOREPASS": keyPassword])
            #expect(wrong.status != 0, "\(wrong.output)")
            #expect(!FileManager.default.fileExists(atPath: output))
            #expect(!wrong.output.contains(keyPassword))
        }
    }
}
