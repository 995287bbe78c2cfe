import Foundation
import LanesTestSupport
import Testing

/// Issue 37's criteria, through `lanes` as a team runs it: a lane builds a real bundle with the
/// stand-in gradlew, uploads it to the local Google Play in one edit (beta, 20% rollout, release
/// notes) and reads the track's version codes back; a cancelled upload leaves no open edit; a
/// Fastfile's `platform :android` lanes import into lanes using these steps. No key, token or
/// password shows in any output or file.
extension LocalGooglePlayTests {
    @Suite struct PlayStoreLaneTests {
        let server: LocalGooglePlay
        let lanes = LanesCommandLine()

        init() async throws { server = try await LocalGooglePlay.started() }

        static let lanefile = """
            import Lanes

            let lanes = Lanefile {
                Lane("playBeta", "Build the bundle and ship it to the beta track") {
                    let built = try await gradle(task: "bundle", buildType: "Release", projectDir: "android")
                    print("built: \\(built.aabPaths.count) bundle(s)")
                    try await uploadToPlayStore(track: "beta", rollout: 0.2,
                                                releaseNotes: ["en-US": "Faster brewing", "de-DE": "Schneller brauen"])
                    let codes = try await googlePlayTrackVersionCodes(packageName: "com.example.brewer", track: "beta")
                    print("beta version codes: \\(codes)")
                }
                Lane("bigUpload", "Upload a bundle the test cancels") {
                    try await uploadToPlayStore(aab: "big.aab", track: "internal", chunkSizeMiB: 1)
                }
            }
            """

        /// A project with the stand-in gradlew under android/ and the Lanefile.
        func project() throws -> URL {
            let project = LanesCommandLine.temporaryDirectory("play-lane")
            try FileManager.default.createDirectory(at: project.appendingPathComponent("android"), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: project.appendingPathComponent("android/gradlew").path, withDestinationPath: LocalGooglePlay.gradlew)
            try Self.lanefile.write(to: project.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
            return project
        }

        var environment: [String: String] {
            ["SUPPLY_JSON_KEY": server.keyPath, "LANES_GOOGLE_PLAY_API_URL": server.base]
        }

        /// Every file lanes left in the project (logs, events, state) and its output hold no secret.
        func expectNoSecret(in output: String, project: URL) async throws {
            let secrets = try await server.secrets()
            var texts = [output]
            let walker = FileManager.default.enumerator(atPath: project.path)
            while let relative = walker?.nextObject() as? String {
                let path = project.appendingPathComponent(relative).path
                guard !relative.hasPrefix("android/app/build"), let data = FileManager.default.contents(atPath: path) else { continue }
                texts.append(String(decoding: data, as: UTF8.self))
            }
            for secret in secrets where !secret.isEmpty {
                #expect(!texts.contains { $0.contains(secret) }, "a secret (\(secret.prefix(12))...) was written")
            }
            #expect(!texts.contains { $0.contains("eyJ") }, "a JWT was written")
            #expect(!texts.contains { $0.contains("upload_id=") }, "an upload session URL was written")
        }

        @Test func theBetaLaneBuildsUploadsAndReadsTheTrackInOneCommittedEdit() async throws {
            try await server.reset(["packages": ["com.example.brewer": ["tracks": ["production": [["name": "1.3.0", "versionCodes": ["41"], "status": "completed"]]],
                                                                  "versionCodes": [41]]]])
            let project = try project()
            defer { try? FileManager.default.removeItem(at: project) }
            let result = try await lanes.run(["playBeta"], in: project, extraEnvironment: environment)
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("beta version codes: [42]"), "\(result.output)")
            #expect(try await server.errors() == [])

            let commits = try await server.commits()
            #expect(commits.count == 1, "\(commits)")
            let tracks = commits.first?["tracks"] as? [String: [[String: Any]]] ?? [:]
            let release = try #require(tracks["beta"]?.first, "\(tracks)")
            #expect(tracks["beta"]?.count == 1)
            #expect(release["versionCodes"] as? [String] == ["42"])
            #expect(release["status"] as? String == "inProgress")
            #expect(release["userFraction"] as? Double == 0.2)
            #expect(release["name"] as? String == "1.4.0")
            let notes = (release["releaseNotes"] as? [[String: String]] ?? []).reduce(into: [String: String]()) { $0[$1["language"] ?? ""] = $1["text"] }
            #expect(notes == ["en-US": "Faster brewing", "de-DE": "Schneller brauen"])
            #expect(tracks["production"]?.first?["versionCodes"] as? [String] == ["41"], "the production track changed")
            // One edit for the upload, committed; the one version codes were read through, deleted.
            let edits = try await server.edits().values.map { $0["state"] as? String ?? "" }.sorted()
            #expect(edits == ["committed", "deleted"], "\(edits)")
            try await expectNoSecret(in: result.output, project: project)
        }

        @Test func aCancelledUploadLeavesNoOpenEdit() async throws {
            try await server.reset(["chunkDelay": 0.05])
            let project = try project()
            defer { try? FileManager.default.removeItem(at: project) }
            try await AndroidTools.build(["bundleRelease"], in: project.appendingPathComponent("android").path, environment: ["GRADLEW_SPARSE_BYTES": String(64 << 20)])
            try FileManager.default.moveItem(at: project.appendingPathComponent("android/app/build/outputs/bundle/release/app-release.aab"),
                                             to: project.appendingPathComponent("big.aab"))
            let running = try lanes.start(["bigUpload"], in: project, extraEnvironment: environment)
            #expect(await server.sawResumableUpload(looks: 1_200, every: .milliseconds(100)), "the upload never started")
            running.send(SIGTERM)
            let result = await running.finish()
            #expect(result.status == 130, "\(result.output)")
            let edits = try await server.edits()
            #expect(!edits.isEmpty)
            #expect(edits.values.allSatisfy { $0["state"] as? String == "deleted" }, "an edit stayed open: \(edits)")
            #expect(try await server.commits().isEmpty)
            try await expectNoSecret(in: result.output, project: project)
        }

        @Test func anEditLeftOpenByAKilledRunIsDeletedByTheNextGooglePlayStep() async throws {
            try await server.reset(["chunkDelay": 0.05])
            let project = try project()
            defer { try? FileManager.default.removeItem(at: project) }
            try await AndroidTools.build(["bundleRelease"], in: project.appendingPathComponent("android").path, environment: ["GRADLEW_SPARSE_BYTES": String(64 << 20)])
            try FileManager.default.moveItem(at: project.appendingPathComponent("android/app/build/outputs/bundle/release/app-release.aab"),
                                             to: project.appendingPathComponent("big.aab"))
            let running = try lanes.start(["bigUpload"], in: project, extraEnvironment: environment)
            #expect(await server.sawResumableUpload(looks: 1_200, every: .milliseconds(100)), "the upload never started")
            running.send(SIGKILL)
            _ = await running.finish()
            let open = try await server.edits().filter { $0.value["state"] as? String == "open" }.map(\.key)
            #expect(open.count == 1, "kill -9 left \(open)")
            let next = try await lanes.run(["run", "google_play_track_version_codes", "package_name:com.example.brewer", "track:internal"],
                                     in: project, extraEnvironment: environment)
            #expect(next.status == 0, "\(next.output)")
            #expect(next.output.contains("left open by a run that was killed") && next.output.contains(open.first ?? "?"), "\(next.output)")
            #expect(try await server.edits().values.allSatisfy { $0["state"] as? String != "open" }, "an edit stayed open")
        }

        static let fastfile = """
            default_platform(:android)

            platform :android do
              desc "Ship a beta to Google Play"
              lane :beta do
                gradle(task: "bundle", build_type: "Release", project_dir: "android/")
                supply(track: "beta", rollout: 0.5, json_key: ENV["PLAY_KEY"], skip_upload_metadata: true)
                google_play_track_version_codes(package_name: "com.example.brewer", track: "beta", json_key: ENV["PLAY_KEY"])
              end
            end
            """

        @Test func anImportedAndroidLaneShipsToTheLocalGooglePlay() async throws {
            try await server.reset([:])
            let project = try project()
            defer { try? FileManager.default.removeItem(at: project) }
            try FileManager.default.removeItem(at: project.appendingPathComponent("Lanefile.swift"))
            try FileManager.default.createDirectory(at: project.appendingPathComponent("fastlane"), withIntermediateDirectories: true)
            try Self.fastfile.write(to: project.appendingPathComponent("fastlane/Fastfile"), atomically: true, encoding: .utf8)
            let imported = try await lanes.run(["import", "fastlane"], in: project)
            #expect(imported.status == 0, "\(imported.output)")
            let lanefile = (try? String(contentsOf: project.appendingPathComponent("Lanefile.swift"), encoding: .utf8)) ?? ""
            #expect(lanefile.contains("uploadToPlayStore(") || lanefile.contains("supply("), "\(lanefile)")
            #expect(lanefile.contains("googlePlayTrackVersionCodes("), "\(lanefile)")
            let beta = try await lanes.run(["beta"], in: project, extraEnvironment: ["PLAY_KEY": server.keyPath, "LANES_GOOGLE_PLAY_API_URL": server.base])
            #expect(beta.status == 0, "\(beta.output)\n\(lanefile)")
            #expect(try await server.errors() == [])
            let release = (try await server.commits().first?["tracks"] as? [String: [[String: Any]]])?["beta"]?.first
            #expect(release?["userFraction"] as? Double == 0.5, "\(String(describing: release))")
            try await expectNoSecret(in: beta.output, project: project)
        }
    }
}
