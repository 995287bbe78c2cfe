import Foundation
import Lanes
import LanesCodegen
import LanesTestSupport
import Synchronization
import Testing
@testable import LanesRuntime

/// The catalog is complete and every description derived from it is current, so the Lanefile API,
/// `lanes run`, `lanes actions` and docs/steps.md cannot drift from the step declarations.
@Suite(.timeLimit(.minutes(3))) struct StepCatalogTests {
    static let root = LanesCommandLine.repositoryRoot

    @Test func idsAreUniqueAndSnakeCase() {
        let ids = StepCatalog.builtIn.map { $0.definition.id }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" }, "\(id)")
        }
    }

    /// The `Lanes` module was compiled from the catalog as it is: the list `make generate` wrote
    /// beside the step functions names the catalog's steps in its order (a step added to or removed
    /// from the catalog without `make generate` fails here and in the text comparison below).
    @Test func theGeneratedListIsTheCatalog() {
        let names = { (steps: [any Step.Type]) in steps.map { String(reflecting: $0) } }
        #expect(StepCatalog.builtIn.count >= 16)
        #expect(names(StepCatalog.generated) == names(StepCatalog.builtIn), "run `make generate` and commit the result")
    }

    @Test(arguments: StepCatalog.builtIn.map { StepID(type: $0) })
    func commandLineExamplesResolve(step: StepID) throws {
        let info = step.type.info
        #expect(!info.examples.isEmpty, "\(info.id) documents at least one example")
        for example in info.examples {
            let variables = Dictionary(uniqueKeysWithValues: example.environment.map { ($0, "example-value") })
            let environment = Environment(variables: variables)
            let given = try OptionValues.parse(example.commandLine)
            try OptionValues(given: given, environment: environment).validate(against: info.options, for: info.id)
            _ = try step.type.resolve(StepArguments(text: given), environment: environment)
        }
    }

    @Test(arguments: StepCatalog.builtIn.map { StepID(type: $0) })
    func everyOptionIsDescribed(step: StepID) {
        for option in step.type.info.options {
            #expect(!option.swiftName.isEmpty && !option.summary.isEmpty, "\(step.type.definition.id).\(option.name)")
            if option.isSecret { #expect(option.environmentVariable != nil, "\(step.type.definition.id).\(option.name)") }
        }
    }

    @Test func theGeneratedLanefileFunctionsAreCurrent() throws {
        let committed = try String(contentsOf: Self.root.appendingPathComponent(LanefileFunctions.path), encoding: .utf8)
        #expect(committed == LanefileFunctions.source(for: StepCatalog.builtIn), "run `make generate` and commit the result")
    }

    @Test func theStepReferenceIsCurrent() throws {
        let committed = try String(contentsOf: Self.root.appendingPathComponent(StepReference.markdownPath), encoding: .utf8)
        #expect(committed == StepReference.markdown(StepCatalog.builtIn), "run `make generate` and commit the result")
    }

    @Test func aMissingRequiredOptionNamesItsVariable() {
        #expect {
            try ImportCertificate.resolve(["certificate_path": "dist.p12"])
        } throws: { error in
            let text = "\(error)"
            return (error as? ValidationErrors)?.kind == .environment
                && text.contains("missing required option 'keychain_name' (or environment variable KEYCHAIN_NAME)")
        }
    }

    @Test func anExplicitArgumentWinsOverTheEnvironmentWhichWinsOverTheDefault() throws {
        let environment = Environment(variables: ["LANES_KEEP_KEYCHAIN": "true", "KEYCHAIN_NAME": "from-env"])
        let fromEnvironment = try ImportCertificate.resolve(["certificate_path": "x.p12"], environment: environment)
        #expect(fromEnvironment.keychainName == "from-env" && fromEnvironment.keepKeychain && fromEnvironment.expiryWarningDays == 30)
        let explicit = try ImportCertificate.resolve(["certificate_path": "x.p12", "keychain_name": "given", "keep_keychain": false],
                                                     environment: environment)
        #expect(explicit.keychainName == "given" && !explicit.keepKeychain)
    }

    @Test func exportMethodsPrintTheirPlistSpelling() {
        #expect("\(ExportMethod.adHoc)" == "ad-hoc")
        #expect("\(ExportMethod.appStore)" == "app-store")
    }

    @Test func resultsRenderForPeopleNotAsDebugDumps() {
        #expect(StepResultRendering.render(Optional("main")).lines == ["main"])
        #expect(StepResultRendering.render(Optional<String>.none).lines == ["(none)"])
        #expect(StepResultRendering.render(42).json.serialized == "42")
    }
}

/// A step type as a test argument, named by its id in the test output.
struct StepID: Sendable, CustomTestStringConvertible {
    let type: any Step.Type
    var testDescription: String { type.definition.id }
}

/// A step that counts how often it is built, to show what reads only its definition.
private struct CountedStep: Step {
    static let instances = Atomic<Int>(0)
    static let definition = StepDefinition(id: "counted_step", summary: "Counts how often it is built", category: .shell, examples: [])
    @StepOption("label", "A label") var label: String?
    init() { Self.instances.add(1, ordering: .relaxed) }
    func run(in context: StepContext) async throws {}
}

@Suite struct StepOverviewTests {
    /// `lanes actions` lists the steps from their definitions alone: no step is built to reflect over
    /// its options (that was most of what the command cost to start).
    @Test func theOverviewBuildsNoStep() {
        let before = CountedStep.instances.load(ordering: .relaxed)
        let text = StepReference.overview([CountedStep.self])
        #expect(text.contains("counted_step  Counts how often it is built"), "\(text)")
        #expect(CountedStep.instances.load(ordering: .relaxed) == before)
        _ = CountedStep.info  // what the overview read before, and what builds one
        #expect(CountedStep.instances.load(ordering: .relaxed) > before)
    }
}
