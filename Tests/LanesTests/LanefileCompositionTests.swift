import Testing
@testable import LanesRuntime

/// A Lanefile's package steps and shared lanes: registration, inclusion of another Lanefile (what a
/// package exports), and step ids that would clash.
@Suite(.timeLimit(.minutes(3))) struct LanefileCompositionTests {
    struct Upload: Step {
        static let definition = StepDefinition(id: "composition_upload", summary: "Uploads", category: .upload, examples: [])
        @StepOption("token", "A token", env: "COMPOSITION_TOKEN", secret: true) var token: String?
        init() {}
        func run(in context: StepContext) async throws {}
    }

    struct ShadowsSh: Step {
        static let definition = StepDefinition(id: "sh", summary: "Clashes with lanes' own", category: .shell, examples: [])
        init() {}
        func run(in context: StepContext) async throws {}
    }

    @Test func anIncludedLanefileBringsItsLanesHooksAndStepsOnce() throws {
        let shared = Lanefile(steps: [Upload.self]) {
            Lane("shared_release", "From a package") {}
            BeforeEach { _ in }
        }
        let lanefile = Lanefile(steps: [Upload.self]) {
            shared
            Lane("local", "Own lane") {}
        }
        #expect(lanefile.lanes.map(\.name) == ["shared_release", "local"])
        #expect(lanefile.beforeEach.count == 1)
        #expect(lanefile.steps.count == 1)
        #expect(lanefile.step(id: "composition_upload") != nil)
        try lanefile.validate()
        let json = lanefile.packageStepsJSON().serialized
        #expect(json.contains(#""package":"LanesTests""#), "\(json)")
        #expect(json.contains(#""secret":true"#))
    }

    @Test func aStepIdThatIsAlreadyTakenStopsTheLanefileNamingBothAndTheLine() {
        let line = #line + 1
        let lanefile = Lanefile(steps: [ShadowsSh.self]) { Lane("a", "A") {} }
        #expect(throws: (any Error).self) { try lanefile.validate() }
        let problems = lanefile.stepProblems()
        #expect(problems.count == 1)
        #expect(problems.first?.contains("line \(line)") == true, "\(problems)")
        #expect(problems.first?.contains("lanes and the package module LanesTests") == true, "\(problems)")
        #expect((try? lanefile.validate()) == nil)
    }
}
