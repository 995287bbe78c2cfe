import ArgumentParser
import Lanes

/// `lanes actions [STEP]`: the built-in steps' own documentation.
struct ActionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "actions", abstract: "List the built-in steps, or document one.")

    @Argument(help: "A step id, such as sh or import_certificate.")
    var step: String?

    func run() throws {
        let output = TextOutput.standardOutput(Redactor())
        guard let id = step else {
            output.write(StepDocumentation.overview(StepCatalog.builtIn))
            return
        }
        guard let type = StepCatalog.step(id: id) else {
            throw ValidationError("no step named '\(id)'; `lanes actions` lists them")
        }
        output.write(StepDocumentation.page(for: type.info))
    }
}

/// `lanes run STEP key:value ...`: runs one built-in step from the command line, like `fastlane run`.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run one built-in step: lanes run STEP key:value ...")

    @Argument(help: "The step id.")
    var step: String

    @Argument(parsing: .captureForPassthrough, help: "key:value options, and --env NAME, --json, --junit PATH.")
    var options: [String] = []

    func run() async throws {
        guard let type = StepCatalog.step(id: step) else {
            throw ValidationError("no step named '\(step)'; `lanes actions` lists them")
        }
        await SingleStepRun.main(type, arguments: options)
    }
}
