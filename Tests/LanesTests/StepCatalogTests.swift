import Testing
@testable import Lanes

/// Every built-in step's examples are valid calls of that step, so the documentation cannot drift.
@Suite struct StepCatalogTests {
    @Test func idsAreUniqueAndSnakeCase() {
        let ids = StepCatalog.builtIn.map { $0.info.id }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" }, "\(id)")
        }
    }

    @Test(arguments: StepCatalog.builtIn.map { StepID(type: $0) })
    func examplesValidateAgainstTheStep(step: StepID) throws {
        let info = step.type.info
        #expect(!info.examples.isEmpty, "\(info.id) documents at least one example")
        for example in info.examples {
            let variables = Dictionary(uniqueKeysWithValues: example.environment.map { ($0, "example-value") })
            let values = OptionValues(given: try OptionValues.parse(example.commandLine),
                                      environment: Environment(variables: variables))
            try values.validate(against: info.options, for: info.id)
            _ = try step.type.init(options: values)
        }
    }

    @Test func secretOptionsHaveAnEnvironmentVariable() {
        for step in StepCatalog.builtIn {
            for option in step.info.options where option.isSecret {
                #expect(option.environmentVariable != nil, "\(step.info.id).\(option.name)")
            }
        }
    }
}

/// A step type as a test argument, named by its id in the test output.
struct StepID: Sendable, CustomTestStringConvertible {
    let type: any Step.Type
    var testDescription: String { type.info.id }
}
