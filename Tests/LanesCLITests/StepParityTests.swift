import Foundation
import Lanes
import LanesTestSupport
import Testing

/// The two ways to call a step, a Lanefile function and `lanes run`, share one declaration and one
/// resolver; these tests drive both through the real `lanes` and compare what arrives.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct StepParityTests {
    let lanes = LanesCommandLine()

    /// Every `swift:` example of every step, compiled together in one Lanefile (one compile).
    @Test func everySwiftExampleCompiles() async throws {
        let directory = LanesCommandLine.temporaryDirectory("examples")
        var source = "import Lanes\n\n"
        for (index, step) in StepCatalog.builtIn.enumerated() {
            for (number, example) in step.info.examples.enumerated() {
                source += "// \(step.definition.id), example \(number + 1)\n"
                source += "func example\(index)_\(number)() async throws {\n\(example.swift)\n}\n\n"
            }
        }
        source += "let lanes = Lanefile { Lane(\"none\", \"The examples only have to compile\") {} }\n"
        try source.write(to: directory.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
        let result = try await lanes.run(["list"], in: directory)
        #expect(result.status == 0, "the documented examples do not compile:\n\(result.output)")
    }

    /// For every step with environment-backed options: the same variables, a Lanefile call that
    /// leaves those options out, and `lanes run` without them: the `--json` step events must show
    /// the same values, taken from the same variables.
    @Test(arguments: StepCatalog.builtIn.filter { $0.info.options.contains { $0.environmentVariable != nil } }.map { StepID(type: $0) })
    func environmentFallbacksArriveTheSameWayFromBothPaths(step: StepID) async throws {
        let info = step.type.info
        let environment = Dictionary(uniqueKeysWithValues: info.options.compactMap { option in
            option.environmentVariable.map { ($0, Self.sampleText(for: option)) }
        })
        let required = info.options.filter { $0.environmentVariable == nil && $0.isRequired }

        let directory = LanesCommandLine.temporaryDirectory("parity-\(info.id)")
        let arguments = required.map { option in
            option.spelling == .labeled ? "\(option.swiftName): \(Self.swiftLiteral(for: option))" : Self.swiftLiteral(for: option)
        }
        let lanefile = """
            import Lanes
            let lanes = Lanefile {
                Lane("parity", "Calls \(info.id) with only what the environment cannot give") {
                    _ = try await \(info.definition.functionName)(\(arguments.joined(separator: ", ")))
                }
            }
            """
        try lanefile.write(to: directory.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
        let fromLanefile = try await lanes.run(["parity", "--json"], in: directory, extraEnvironment: environment)
        let fromCommandLine = try await lanes.run(["run", info.id, "--json"] + required.map { "\($0.name):\(Self.sampleText(for: $0))" },
                                            in: directory, extraEnvironment: environment)

        let lanefileOptions = try #require(Self.stepOptions(fromLanefile.standardOutput), "\(fromLanefile.output)")
        let commandLineOptions = try #require(Self.stepOptions(fromCommandLine.standardOutput), "\(fromCommandLine.output)")
        for option in info.options {
            guard let variable = option.environmentVariable else { continue }
            // Declared secrets, and variables whose names look secret (APP_STORE_CONNECT_API_KEY_ID), show masked.
            let masked = option.isSecret || SecretNames(variables: [:]).isSecret(variable)
            let expected = masked ? Redactor.mask : Self.sampleText(for: option)
            #expect(lanefileOptions[option.name] == ["value": expected, "source": "$\(variable)"], "\(info.id).\(option.name) from a Lanefile")
            #expect(commandLineOptions[option.name] == lanefileOptions[option.name], "\(info.id).\(option.name) from lanes run")
        }
        for secret in info.options.filter(\.isSecret) {
            #expect(!fromLanefile.output.contains(Self.sampleText(for: secret)) && !fromCommandLine.output.contains(Self.sampleText(for: secret)))
        }
    }

    /// The option values of the first `step_started` event.
    static func stepOptions(_ jsonLines: String) -> [String: [String: String]]? {
        for line in jsonLines.split(separator: "\n") {
            guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  event["event"] as? String == "step_started" else { continue }
            return event["options"] as? [String: [String: String]]
        }
        return nil
    }

    /// A value of the option's type that no default equals, as option text.
    static func sampleText(for option: OptionInfo) -> String {
        switch option.typeName {
        case "Int": "7"
        case "Bool": option.defaultText == "true" ? "false" : "true"
        case "Secret": "parity-secret-\(option.name)-value"
        case "[String]": "true"
        case "KEY=VALUE;...": "PARITY=1"
        case let name where name.contains("|"): String(name.split(separator: "|").last!)
        default: "parity-\(option.name)"
        }
    }

    static func swiftLiteral(for option: OptionInfo) -> String {
        switch option.swiftType {
        case "[String]" where option.spelling == .variadic: "\"\(sampleText(for: option))\""
        case "[String]": "[\"\(sampleText(for: option))\"]"
        case "BuildSettingAssignments": "[\"PARITY\": \"1\"]"
        default: "\"\(sampleText(for: option))\""
        }
    }
}

/// A step type as a test argument, named by its id in the test output.
struct StepID: Sendable, CustomTestStringConvertible {
    let type: any Step.Type
    var testDescription: String { type.definition.id }
}
