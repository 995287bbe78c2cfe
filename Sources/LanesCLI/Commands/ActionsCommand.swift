import ArgumentParser
import Lanes
import LanesCodegen

/// `lanes actions [STEP] [--json | --markdown]`: the built-in steps' own documentation.
struct ActionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "actions", abstract: "List the built-in steps, or document one.")

    @Argument(help: "A step id, such as sh or import_certificate.")
    var step: String?

    @Flag(help: "Every step (or the one named) as JSON: id, summary, category, options, result, examples.")
    var json = false

    @Flag(help: "The step reference in Markdown (docs/steps.md).")
    var markdown = false

    @Flag(help: "What lanes does for each fastlane action (with --json: the table an importer reads).")
    var fastlane = false

    func validate() throws {
        if json && markdown { throw ValidationError("--json and --markdown exclude each other") }
        if fastlane && step != nil { throw ValidationError("--fastlane lists every fastlane action; give no step") }
    }

    func run() throws {
        let output = TextOutput.standardOutput(Redactor())
        if fastlane {
            output.write(json ? FastlaneMigration.json().serialized + "\n"
                              : markdown ? FastlaneMigration.markdown() : FastlaneMigration.overview())
            return
        }
        var steps = StepCatalog.builtIn
        if let id = step {
            guard let type = StepCatalog.step(id: id) else {
                throw ValidationError("no step named '\(id)'; `lanes actions` lists them")
            }
            steps = [type]
        }
        if json {
            output.write(StepReference.json(steps).serialized + "\n")
        } else if markdown {
            output.write(StepReference.markdown(steps))
        } else if let type = steps.first, step != nil {
            output.write(StepReference.page(for: type.info))
        } else {
            output.write(StepReference.overview(steps))
        }
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
