import ArgumentParser
import Lanes
import LanesPlatform
internal import Mustache

/// `lanes init`: writes a Lanefile that fits the Xcode project in this folder (its app target,
/// schemes, configurations and bundle identifiers), `.env.example`, CI snippets, and the `.gitignore`
/// lines that keep secrets and lanes' state out of the repository.
struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create Lanefile.swift, .env.example and CI snippets in this folder.",
        discussion: "Reads the *.xcworkspace or *.xcodeproj here for the app target, schemes, configurations and bundle identifiers.")

    @Option(help: "The app's name when the folder has no Xcode project (default: this folder's name).")
    var name: String?

    @Option(name: .customLong("app-id"), help: "The production bundle identifier (default: the app target's).")
    var appIdentifier: String?

    @Flag(help: "Overwrite files that already exist.")
    var force = false

    @Flag(name: .customLong("import"), help: "With a fastlane/ folder here: write the Lanefile from its Fastfile (lanes import fastlane) instead of the template.")
    var importFastlane = false

    @Flag(name: .customLong("template"), help: "With a fastlane/ folder here: write the template Lanefile without asking.")
    var template = false

    /// Template file → where it goes in the project.
    static let files: [(template: String, destination: String)] = [
        ("Lanefile.swift.mustache", "Lanefile.swift"),
        ("env.example.mustache", ".env.example"),
        ("jenkins-shell-step.sh.mustache", "ci/jenkins-shell-step.sh"),
        ("github-actions.yml.mustache", ".github/workflows/lanes.yml"),
    ]

    func run() async throws {
        let directory = FilePath.currentDirectory()
        if try offerFastlaneImport(in: directory) { return }
        let installation = try Installation.locate(environment: ProcessEnvironment.current())
        let output = TextOutput.standardOutput(Redactor())
        let values: InitValues
        if let survey = try XcodeProjectSurvey.survey(directory: directory) {
            values = InitValues(survey: survey, appIdentifier: appIdentifier)
            output.writeLine("found \(survey.workspace.map { "\($0) and " } ?? "")\(survey.project): app target \(survey.appTarget), "
                + "configurations \(survey.configurations.joined(separator: ", "))")
        } else {
            values = InitValues(name: name ?? FilePath.name(of: directory), appIdentifier: appIdentifier)
            output.writeLine("no Xcode project here: names come from \(name == nil ? "the folder" : "--name")")
        }
        let existing = Self.files.map { directory + "/" + $0.destination }.filter(FilePath.exists)
        if !existing.isEmpty, !force {
            throw LanesError(.configuration, "would overwrite \(existing.joined(separator: ", "))",
                             hint: "pass --force to replace them")
        }
        // Render everything first, so a bad template leaves the folder untouched.
        var rendered: [(String, String)] = []
        for file in Self.files {
            let path = installation.templatesDirectory + "/" + file.template
            let template = try MustacheTemplate(string: try FilePath.read(path))
            rendered.append((directory + "/" + file.destination, template.render(values.templateValues)))
        }
        let gitignore = directory + "/.gitignore"
        if let merged = GitIgnoreEntries.merged(into: FilePath.exists(gitignore) ? try FilePath.read(gitignore) : nil) {
            rendered.append((gitignore, merged))
        }
        for (path, text) in rendered {
            try FilePath.makeDirectories(FilePath.directory(of: path))
            try AtomicFile.write(text, to: path, permissions: path.hasSuffix(".sh") ? 0o755 : nil)
            output.writeLine("\(path == gitignore ? "updated" : "created") \(path.dropFirst(directory.count + 1))")
        }
        output.writeLine("Next: cp .env.example .env, fill it in, then `lanes list` and `lanes developerRelease`.")
    }

    /// A project with fastlane gets the offer to import its Fastfile: `--import` (or yes at the
    /// terminal) imports, `--template` (or no, or no terminal) writes the template as before.
    /// Returns whether the import ran.
    private func offerFastlaneImport(in directory: String) throws -> Bool {
        guard !template, let fastfile = ["fastlane/Fastfile", "fastlane/Fastfile.swift", ".fastlane/Fastfile"]
            .first(where: { FilePath.exists(directory + "/" + $0) }) else { return false }
        var accepted = importFastlane
        if !accepted {
            print("This project has \(fastfile). Import it into Lanefile.swift (lanes import fastlane) instead of the template? [Y/n] ",
                  terminator: "")
            if isatty(0) == 1, let answer = readLine() {
                accepted = answer.isEmpty || answer.lowercased().hasPrefix("y")
            } else {
                // No one to ask (CI, a script): importing is what a project with fastlane needs; --template says otherwise.
                print("\nnot a terminal: importing \(fastfile) (pass --template for the template instead)")
                accepted = true
            }
        }
        guard accepted else { return false }
        let report = directory + "/lanes-import.md"
        let outcome = try FastlaneImport(path: directory, output: nil, force: force, compile: true, ignoring: [report]).perform()
        try AtomicFile.write(outcome.report.markdown, to: report)
        print("wrote \(outcome.lanefile) and lanes-import.md: \(outcome.summary)")
        if !outcome.report.lostLanes.isEmpty {
            throw LanesError(.internal, "the Lanefile lacks lanes the Fastfile defines: \(outcome.report.lostLanes.joined(separator: ", ")) (a bug of the importer)",
                             hint: "please report it with the Fastfile; lanes-import.md lists what was imported")
        }
        if outcome.report.compiled == false {
            throw LanesError(.compilation, "\(outcome.lanefile) does not compile yet; lanes-import.md lists the errors with their Fastfile lines")
        }
        return true
    }
}
