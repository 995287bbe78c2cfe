import ArgumentParser
import Foundation
import Lanes
import LanesCodegen
import LanesPlatform

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
        let packageSteps = try PackageSteps.load(ProjectHandoff(environment: ProcessInfo.processInfo.environment))
        var steps = StepCatalog.builtIn
        if let id = step {
            if StepCatalog.step(id: id) == nil, let packaged = packageSteps.step(id: id) {
                output.write(json ? JSONValue.array([packaged.json]).serialized + "\n" : packaged.page)
                return
            }
            guard let type = StepCatalog.step(id: id) else {
                throw ValidationError("no step named '\(id)'; `lanes actions` lists them")
            }
            steps = [type]
        }
        if json {
            var entries = StepReference.json(steps)
            if step == nil, case .array(let builtIn) = entries { entries = .array(builtIn + packageSteps.steps.map(\.json)) }
            output.write(entries.serialized + "\n")
        } else if markdown {
            output.write(StepReference.markdown(steps) + (step == nil ? packageSteps.markdown : ""))
        } else if let type = steps.first, step != nil {
            output.write(StepReference.page(for: type.info))
        } else {
            output.write(StepReference.overview(steps) + packageSteps.overview)
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
        if let type = StepCatalog.step(id: step) {
            await SingleStepRun.main(type, arguments: options, invokedAs: step)
        }
        // A package's step: its Lanefile's runner has it (the driver compiled it for this).
        let handoff = ProjectHandoff(environment: ProcessInfo.processInfo.environment)
        guard let handoff, let runner = handoff.runner, try PackageSteps.load(handoff).step(id: step) != nil else {
            throw ValidationError("no step named '\(step)'; `lanes actions` lists them")
        }
        // The runner's streams are this tool's; its exit status becomes this tool's.
        var child = ChildProcess([runner, PackageStepRequest.run, step, "--project-dir", FilePath.directory(of: handoff.lanefile)] + options)
        child.ownProcessGroup = false  // Ctrl-C at the terminal reaches it directly
        let started: HostChild
        do { started = try SystemHost().launch(child) } catch { throw LanesError(.environment, error.description) }
        throw ExitCode(await started.status().shellStatus)
    }
}
