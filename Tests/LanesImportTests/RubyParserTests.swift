@testable import LanesImport
import Testing

@Suite(.timeLimit(.minutes(3))) struct RubyParserTests {
    @Test func laneWithKeywordArgumentsAcrossLinesIsOneCall() {
        let statements = RubyParser.parse("""
            lane :beta do |options|
              gym(
                scheme: "App",
                export_method: "ad-hoc",
              )
            end
            """)
        guard case .call(let lane)? = statements.first, let block = lane.block, case .call(let gym)? = block.body.first else {
            Issue.record("not a lane with a call: \(statements)")
            return
        }
        #expect(lane.name == "lane")
        #expect(block.parameters == ["options"])
        #expect(gym.name == "gym")
        #expect(gym.keyword("scheme")?.symbolText == "App")
        #expect(gym.keyword("export_method")?.symbolText == "ad-hoc")
        #expect(gym.position == SourcePosition(line: 2, column: 3))
    }

    @Test func keywordBlockParametersKeepTheirDefaults() {
        let statements = RubyParser.parse("""
            lane :release do |skip_confirm: false, version: nil, track: "beta", retries: 3, base:, limit: ENV["LIMIT"]|
              UI.message(track)
            end
            """)
        guard case .call(let lane)? = statements.first, let block = lane.block else {
            Issue.record("not a lane: \(statements)")
            return
        }
        #expect(block.parameters == ["skip_confirm", "version", "track", "retries", "base", "limit"])
        #expect(block.keywords.map(\.name) == ["skip_confirm", "version", "track", "retries", "base", "limit"])
        guard block.keywords.count == 6 else { return }
        if case .bool(false, _)? = block.keywords[0].defaultValue {} else { Issue.record("\(block.keywords[0])") }
        if case .nilValue? = block.keywords[1].defaultValue {} else { Issue.record("\(block.keywords[1])") }
        #expect(block.keywords[2].defaultValue?.symbolText == "beta")
        if case .integer("3", _)? = block.keywords[3].defaultValue {} else { Issue.record("\(block.keywords[3])") }
        #expect(block.keywords[4].defaultValue == nil)
        // A default longer than one value is not kept (the lane option is not declared; its uses stay TODOs).
        if case .unreadable? = block.keywords[5].defaultValue {} else { Issue.record("\(block.keywords[5])") }
        #expect(block.body.count == 1)
    }

    @Test func heredocsInterpolationAndWhatCannotBeReadKeepTheirPositions() {
        let statements = RubyParser.parse("""
            import "../shared/Fastfile"
            class Helper
              def self.x; end
            end
            lane :notes do
              pilot(changelog: <<~TEXT, distribute_external: true)
                Build #{ENV["BUILD_NUMBER"]}
                  indented
              TEXT
            end
            """)
        #expect(statements.count == 3)
        guard case .call(let importCall) = statements[0], case .unreadable(let text, _, let position) = statements[1],
              case .call(let lane) = statements[2], case .call(let pilot)? = lane.block?.body.first else {
            Issue.record("unexpected tree: \(statements)")
            return
        }
        #expect(importCall.name == "import" && importCall.arguments.first?.symbolText == "../shared/Fastfile")
        #expect(text == "class Helper\n  def self.x; end\nend")
        #expect(position == SourcePosition(line: 2, column: 1))
        #expect(pilot.position == SourcePosition(line: 6, column: 3))
        guard case .string(let parts, _)? = pilot.keyword("changelog"), parts.count == 3,
              case .text("Build ") = parts[0], case .code(.index(.constant("ENV", _), _, let envPosition)) = parts[1],
              case .text("\n  indented\n") = parts[2] else {
            Issue.record("heredoc not read: \(String(describing: pilot.keyword("changelog")))")
            return
        }
        #expect(envPosition.line == 7)
        #expect(pilot.keyword("distribute_external").map { if case .bool(true, _) = $0 { true } else { false } } == true)
    }
}
