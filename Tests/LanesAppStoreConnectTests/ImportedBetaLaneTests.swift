import Foundation
import LanesTestSupport
import Testing
import LanesHTTP

/// Issue 25's end-to-end criterion: a Fastfile with match, gym, pilot, an error block and ENV secrets,
/// imported by `lanes import fastlane`, runs its beta lane to success on Linux: match reads a git storage
/// encrypted as fastlane writes it, gym runs the stand-in xcodebuild, pilot uploads to the local App Store Connect.
extension LocalAppStoreConnectTests {
    @Suite(.timeLimit(.minutes(10)), .tags(.live)) struct ImportedBetaLaneTests {
        let server: LocalAppStoreConnect
        let lanes = LanesCommandLine()

        init() async throws { server = try await LocalAppStoreConnect.shared.value.get() }

        static let root = LanesCommandLine.repositoryRoot
        static let signing = root.appendingPathComponent("Tests/LanesSigningTests/Fixtures").path
        static let matchFormat = root.appendingPathComponent("Tests/LanesMatchTests/match_format.py").path
        static let standIn = LanesCommandLine.fixtures.appendingPathComponent("xcodebuild-standin").path
        static let ipa = root.appendingPathComponent("Tests/LanesBuildTests/Fixtures/ipa/Brewer-Staging.ipa").path
        static let swiftDirectory = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .first { FileManager.default.isExecutableFile(atPath: "\($0)/swiftc") }.map(String.init) ?? "/usr/bin"

        static let fastfile = """
            default_platform(:ios)

            platform :ios do
              desc "Sign, build and upload a beta to TestFlight"
              lane :beta do
                app_store_connect_api_key(key_id: ENV["ASC_KEY_ID"], issuer_id: ENV["ASC_ISSUER_ID"], key_content: ENV["ASC_KEY_CONTENT"])
                match(type: "appstore", readonly: true, git_url: ENV["MATCH_GIT_URL"])
                gym(scheme: "Brewer", project: "Brewer.xcodeproj", export_method: "app-store", output_directory: "out")
                pilot(skip_waiting_for_build_processing: true, changelog: "Beta #{ENV['BUILD_NUMBER']}", wait_processing_interval: 0)
              end

              error do |lane, exception|
                UI.error("Lane #{lane} failed: #{exception.message}")
              end
            end
            """

        func run(_ arguments: [String]) async throws {
            let result = try await Program.streams(arguments)
            guard result.status == 0 else { throw LocalAppStoreConnect.StartFailure(description: "\(arguments.prefix(3)) failed: \(result.error)") }
        }

        /// A match git storage for works.sth.brewer (appstore), every file encrypted by match_format.py.
        func matchStorage(in work: URL, password: String) async throws -> String {
            let clear = work.appendingPathComponent("clear").path
            let checkout = work.appendingPathComponent("checkout").path
            let scratch = work.appendingPathComponent("scratch").path
            for folder in ["\(clear)/certs/distribution", "\(clear)/profiles/appstore", scratch, checkout] {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            try await run(["openssl", "pkcs12", "-in", "\(Self.signing)/p12/dist-emptypass-aes.p12", "-nocerts", "-nodes", "-passin", "pass:",
                     "-out", "\(clear)/certs/distribution/DISTID0001.p12"])
            try FileManager.default.copyItem(atPath: "\(Self.signing)/certs/dist.der", toPath: "\(clear)/certs/distribution/DISTID0001.cer")
            try await run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(scratch)/signer.key",
                     "-out", "\(scratch)/signer.crt", "-subj", "/CN=Match Test Profile Signing", "-days", "30"])
            let plist = try String(contentsOfFile: "\(Self.signing)/profiles/Brewer_Staging.plist", encoding: .utf8)
                .replacingOccurrences(of: "ABCDE12345.works.sth.brewer.staging", with: "ABCDE12345.works.sth.brewer")
                .replacingOccurrences(of: "<string>Brewer_Staging</string>", with: "<string>match AppStore works.sth.brewer</string>")
            try plist.write(toFile: "\(scratch)/profile.plist", atomically: true, encoding: .utf8)
            try await run(["openssl", "cms", "-sign", "-nodetach", "-binary", "-outform", "DER", "-md", "sha256", "-signer", "\(scratch)/signer.crt",
                     "-inkey", "\(scratch)/signer.key", "-in", "\(scratch)/profile.plist",
                     "-out", "\(clear)/profiles/appstore/AppStore_works.sth.brewer.mobileprovision"])
            for path in ["certs/distribution/DISTID0001.cer", "certs/distribution/DISTID0001.p12", "profiles/appstore/AppStore_works.sth.brewer.mobileprovision"] {
                try FileManager.default.createDirectory(atPath: ("\(checkout)/\(path)" as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                // The password goes through the environment, never argv.
                let output = try await Program.tool(["python3", Self.matchFormat, "encrypt-v2", "\(clear)/\(path)", "\(checkout)/\(path)"],
                                         environment: ["MATCH_PASSWORD": password])
                try #require(FileManager.default.fileExists(atPath: "\(checkout)/\(path)"), "\(output)")
            }
            let remote = work.appendingPathComponent("remote.git").path
            try await run(["git", "init", "-q", "--bare", remote])
            try await run(["git", "init", "-q", "-b", "master", checkout])
            try await run(["git", "-C", checkout, "add", "-A"])
            try await run(["git", "-C", checkout, "-c", "user.name=fastlane", "-c", "user.email=ci@example.com", "commit", "-q", "-m", "[fastlane] appstore"])
            try await run(["git", "-C", checkout, "push", "-q", remote, "HEAD:refs/heads/master"])
            return remote
        }

        @Test func theImportedBetaLaneSignsBuildsAndUploadsToTestFlight() async throws {
            let work = LanesCommandLine.temporaryDirectory("import-beta")
            defer { try? FileManager.default.removeItem(at: work) }
            let project = work.appendingPathComponent("brewer")
            try FileManager.default.createDirectory(at: project.appendingPathComponent("fastlane"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Self.root.appendingPathComponent("Tests/LanesXcodeTests/Fixtures/Brewer.xcodeproj"),
                                             to: project.appendingPathComponent("Brewer.xcodeproj"))
            try Self.fastfile.write(to: project.appendingPathComponent("fastlane/Fastfile"), atomically: true, encoding: .utf8)
            try "app_identifier(\"works.sth.brewer\")\nteam_id(\"ABCDE12345\")\n"
                .write(to: project.appendingPathComponent("fastlane/Appfile"), atomically: true, encoding: .utf8)
            let password = "Canary-Match-Pass-25"
            let remote = try await matchStorage(in: work, password: password)

            let imported = try await lanes.run(["import", "fastlane"], in: project)
            #expect(imported.status == 0, "\(imported.output)")
            let lanefile = (try? String(contentsOf: project.appendingPathComponent("Lanefile.swift"), encoding: .utf8)) ?? ""
            #expect(lanefile.contains("skipWaiting: true") && lanefile.contains("OnError"), "\(lanefile)")
            let help = try await lanes.run(["help", "beta"], in: project)
            for name in ["ASC_KEY_CONTENT", "ASC_KEY_ID", "MATCH_GIT_URL"] { #expect(help.output.contains(name), "\(name) not in\n\(help.output)") }

            try await server.reset(["apps": [["id": "1234567890", "attributes": ["name": "Brewer", "bundleId": "works.sth.brewer", "sku": "BREWER",
                                                                           "primaryLocale": "en-US"]]], "processingPolls": 1])
            let calls = work.appendingPathComponent("xcodebuild-calls.txt")
            let beta = try await lanes.run(["beta"], in: project, extraEnvironment: [
                "PATH": "\(Self.standIn):\(Self.swiftDirectory):/usr/bin:/bin", "XCODEBUILD_RECORD": calls.path, "XCODEBUILD_IPA": Self.ipa,
                "ASC_KEY_ID": LocalAppStoreConnect.keyID, "ASC_ISSUER_ID": LocalAppStoreConnect.issuer, "ASC_KEY_CONTENT": server.keyPEM,
                "MATCH_GIT_URL": remote, "MATCH_PASSWORD": password, "BUILD_NUMBER": "7", "LANES_ASC_API_URL": server.base,
            ])
            #expect(beta.status == 0, "\(beta.output)")
            #expect(beta.output.contains("lane beta succeeded"), "\(beta.output)")
            #expect(!beta.output.contains("Lane beta failed"), "\(beta.output)")

            // match: the certificate went into the lane's keychain, removed when the lane ended; the profile stays installed.
            #expect(beta.output.contains("imported 'iPhone Distribution: Example Corp (ABCDE12345)'"), "\(beta.output)")
            let keychains = project.appendingPathComponent(".lanes/keychains").path
            #expect(((try? FileManager.default.contentsOfDirectory(atPath: keychains)) ?? []).isEmpty)
            #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent(".lanes/profiles/7a1d0e4c-2b7e-4e8f-9c11-5d3a2b1c0f42.mobileprovision").path))

            // gym: the stand-in xcodebuild archived and exported.
            let recorded = (try? String(contentsOf: calls, encoding: .utf8)) ?? ""
            #expect(recorded.contains("archive\n"), "\(recorded)")
            #expect(recorded.contains("-exportArchive"), "\(recorded)")
            #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent("out/Brewer.ipa").path))

            // pilot: the build upload was committed and What to Test set from the changelog.
            let log = try await server.log()
            let serverErrors = try await server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
            let events = log["log"] as? [[String: Any]] ?? []
            #expect(events.contains { $0["event"] as? String == "committed" }, "\(events)")
            #expect(events.contains { $0["path"] as? String == "/v1/buildUploads" && $0["method"] as? String == "POST" })
            let localizations = log["localizations"] as? [[String: Any]] ?? []
            #expect((localizations.first?["attributes"] as? [String: Any])?["whatsNew"] as? String == "Beta 7", "\(localizations)")

            // No secret in what lanes printed.
            #expect(!beta.output.contains(password))
            for line in server.keyPEM.split(separator: "\n") where !line.hasPrefix("-----") {
                #expect(!beta.output.contains(line), "a line of the private key was printed")
            }
            #expect(!beta.output.contains("eyJ"), "a JWT was printed")
        }
    }
}
