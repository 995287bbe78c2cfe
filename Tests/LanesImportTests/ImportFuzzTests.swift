import Foundation
@testable import LanesImport
import LanesTestSupport
import Testing

/// Mutated Fastfiles never crash or hang the importer, and always give a Lanefile and a report.
/// The seed is printed; `LANES_IMPORT_FUZZ_SEED=N swift test --filter ImportFuzzTests` replays a run.
@Suite(.timeLimit(.minutes(3))) struct ImportFuzzTests {
    static let seeds = [
        """
        default_platform(:ios)
        platform :ios do
          before_all { |lane, options| setup_ci if ENV["CI"] }
          desc "Beta"
          lane :beta do |options|
            match(type: "appstore", readonly: is_ci, app_identifier: ["com.example.app", "com.example.app.widget"],)
            version = get_version_number(xcodeproj: "App.xcodeproj")
            increment_build_number(build_number: latest_testflight_build_number + 1)
            gym(scheme: "App", export_method: "app-store", export_options: { provisioningProfiles: { "com.example.app" => "match AppStore com.example.app" } })
            pilot(changelog: <<~NOTES, skip_waiting_for_build_processing: true)
              Version #{version} (#{options[:build] || "local"})
            NOTES
            case options[:channel]
            when "slack" then slack(message: "Done #{lane_context[SharedValues::IPA_OUTPUT_PATH]}")
            else UI.message 'no channel'
            end
            sh "git tag v#{version} && git push --tags" unless options.fetch(:dry_run, false)
          end
          error do |lane, exception|
            UI.error("#{lane}: #{exception.message}")
          end
        end
        """,
        """
        require 'json'
        PROJECT = "App.xcodeproj"
        def bump(kind = "patch")
          increment_version_number(bump_type: kind, xcodeproj: PROJECT)
        end
        lane :release do
          ensure_git_branch(branch: 'main')
          [1, 2].each { |n| puts n }
          %w[a b].each do |flavor|
            scan(scheme: "App-#{flavor}", devices: ['iPhone 15'])
          end
          begin
            bump
          rescue => e
            UI.user_error!("failed: #{e}")
          ensure
            reset_git_repo(force: true)
          end
          tag = `git describe`.strip
          ENV['X'] ||= "y"
          x = y = 3
          puts(x ? "a" : :b)
        end
        """,
        """
        class Fastfile: LaneFile {
            func betaLane(withOptions options: [String: String]?) {
                desc("Beta")
                buildApp(scheme: "App", exportMethod: "ad-hoc")
                if let v = options?["version"], !v.isEmpty { incrementVersionNumber(versionNumber: v) }
                uploadToTestflight(username: environmentVariable(get: "USER"))
            }
        }
        """,
    ]

    static let fragments = ["do", "end", "(", ")", "{", "}", "[", "]", "\"", "'", "#{", "|", ",", ":", "::", "=>", "\n", " if ", "<<~X\n",
                            "%w[", "`", "/", "?", "\\", "=begin\n", "def ", "lane :x do\n", "ENV[", "options[:", "\u{0}", "é", "\u{FEFF}"]

    /// One mutation: delete, duplicate or insert a slice, or splice in a fragment.
    static func mutate(_ text: String, using generator: inout SplitMix64) -> String {
        var bytes = Array(text.utf8)
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            let at = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...12, using: &generator)))
            case 1: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + Int.random(in: 1...40, using: &generator))], at: at)
            case 2: bytes.insert(contentsOf: Array(fragments.randomElement(using: &generator)!.utf8), at: at)
            default: if !bytes.isEmpty { bytes[at] = UInt8.random(in: 0...255, using: &generator) }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func mutatedFastfilesAlwaysGiveALanefileAndAReport() {
        let seed = ProcessInfo.processInfo.environment["LANES_IMPORT_FUZZ_SEED"].flatMap(UInt64.init)
            ?? UInt64.random(in: 1...UInt64.max)
        print("ImportFuzzTests seed \(seed) (replay with LANES_IMPORT_FUZZ_SEED=\(seed))")
        var generator = SplitMix64(seed: seed)
        let started = ContinuousClock.now
        var runs = 0
        // At least 50 cases whatever the load; beyond that bounded in count and in time, so a loaded
        // machine runs fewer of the extra cases rather than longer. No assertion on the time.
        while runs < 3_000, runs < 50 || ContinuousClock.now - started < .seconds(3) {
            var text = Self.seeds.randomElement(using: &generator)!
            for _ in 0..<Int.random(in: 1...3, using: &generator) { text = Self.mutate(text, using: &generator) }
            let result = text.contains("LaneFile") ? FastlaneImporter.importSwift(text) : FastlaneImporter.importRuby(text)
            guard result.lanefile.contains("let lanes = Lanefile {"), result.lanefile.hasPrefix("// Imported from"),
                  !result.report.markdown.isEmpty, !result.report.json.isEmpty else {
                Issue.record("seed \(seed), run \(runs): no Lanefile or report for\n\(text)")
                return
            }
            runs += 1
        }
        print("ImportFuzzTests: \(runs) mutated Fastfiles imported (seed \(seed))")
    }

    @Test func deepNestingIsReportedNotAStackOverflow() {
        let text = "lane :x do\n" + String(repeating: "puts(", count: 5_000) + String(repeating: ")", count: 5_000) + "\nend\n"
            + String(repeating: "[", count: 20_000)
        let result = FastlaneImporter.importRuby(text)
        #expect(result.lanefile.contains("let lanes = Lanefile {"))
        #expect(!result.report.todos.isEmpty)
    }
}
