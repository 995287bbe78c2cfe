@testable import LanesImport
import Testing

/// Issue 34: an imported lane does what the Fastfile did or stops where it cannot: every
/// untranslated statement stops the lane at its place, every lane is kept under its own name, and
/// no credential is copied.
@Suite struct ImportBehaviourTests {
    @Test func everyUntranslatedStatementStopsTheLaneAtItsPlace() {
        let result = FastlaneImporter.importRuby("""
            lane :beta do
              gym(scheme: "App")
              files.each_slice(2) { |pair| puts pair }
              slack(message: "success")
            end
            """)
        let lines = result.lanefile.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let stop = lines.firstIndex { $0.hasPrefix("try importTODO(line: 3, ") }
        let slack = lines.firstIndex { $0.contains("slack") && !$0.hasPrefix("//") }
        #expect(stop != nil, "\(result.lanefile)")
        if let stop, let slack { #expect(stop < slack) }
        #expect(result.lanefile.contains("func importTODO(line: Int, _ reason: String) throws {"))
    }

    @Test func everyLaneIsKeptUnderItsOwnName() {
        let result = FastlaneImporter.importRuby("""
            lane :"hotfix-start" do
              puts "start"
            end
            lane :beta do
              puts 1
            end
            lane :beta do
              puts 2
            end
            """)
        #expect(result.report.lanes.map(\.name) == ["hotfix_start", "beta", "beta_"])
        #expect(result.report.lostLanes == [])
        #expect(result.report.notes.contains { $0.contains("`hotfix-start` is the lane `hotfix_start` (`lanes hotfix-start` runs it too)") })
    }

    @Test func aLaneTheParserLosesIsReported() {
        // Counted line by line, apart from the parser: a lane inside `=begin`/`=end` is a comment.
        #expect(LaneCensus.rubyLanes(in: "lane :a do\nend\n=begin\nlane :b do\nend\n=end\nprivate_lane(:'c-d') do\nend\n") == ["a", "c-d"])
        #expect(LaneCensus.swiftLanes(in: "class Fastfile: LaneFile {\n    func betaLane() {}\n    func helper() {}\n}\n") == ["beta"])
        let entry = ImportReport.LaneEntry(name: "beta", fastlaneName: "ios beta", environment: [], secrets: [], options: [])
        #expect(LaneCensus.lost(["beta", "release"], imported: [entry]) == ["release"])
    }

    @Test func credentialsInLocalsConstantsAndLaneCallsAreSecrets() {
        let result = FastlaneImporter.importRuby("""
            HOOK = "https://hooks.slack.com/services/T0/B0/abcdefgh"
            API_TOKEN = "plain-looking-value"
            lane :notify do |options|
              password = "hunter2-hunter2"
              slack(message: "hi", slack_url: HOOK)
              sh "echo #{password}"
            end
            lane :release do
              notify(token: "abc-123-xyz", channel: "#ios")
              puts "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
            end
            """)
        for value in ["hooks.slack.com", "plain-looking-value", "hunter2-hunter2", "abc-123-xyz", "ghp_0123456789"] {
            #expect(!result.lanefile.contains(value), "\(value) copied into\n\(result.lanefile)")
            #expect(!result.report.json.contains(value))
        }
        let names = Set(result.report.secretsToCreate.map(\.name))
        #expect(names.isSuperset(of: ["SLACK_URL", "API_TOKEN", "PASSWORD", "TOKEN", "GITHUB_TOKEN"]), "\(names)")
        #expect(result.lanefile.contains(#"var HOOK: String { get throws { try secret("SLACK_URL").value } }"#))
        #expect(result.lanefile.contains("\"#ios\""))
    }

    @Test func aStepThatLostOptionsSaysWhich() {
        let result = FastlaneImporter.importRuby("""
            lane :beta do
              gym(scheme: "App", no_such_option: true)
            end
            """)
        let entry = result.report.actions.first { $0.action == "gym" }
        #expect(entry?.outcome == .stepWithDroppedOptions)
        #expect(entry?.detail.contains("without no_such_option") == true)
        #expect(result.report.markdown.contains("1 became steps with dropped options"))
    }

    @Test func swiftFastfileLanesInExtensionsAndSelfCallsAreRead() {
        let result = FastlaneImporter.importSwift("""
            import Foundation
            class Fastfile: LaneFile {
                typealias Options = [String: String]
            }
            extension Fastfile {
                func releaseLane(options: Options) {
                    desc("Release")
                    self.testLane()
                }
            }
            extension Fastfile {
                func testLane() {
                    scan(scheme: "App")
                }
            }
            extension Dictionary where Key == String {
                func helper() -> Int { 1 }
            }
            """)
        #expect(result.report.lanes.map(\.name) == ["release", "test"])
        #expect(result.report.lostLanes == [])
        #expect(result.lanefile.contains(#"try await callLane("test")"#))
    }
}
