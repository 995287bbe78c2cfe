@testable import LanesImport
import Testing

@Suite struct RubyParserTests {
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
}
