import ArgumentParser
import Lanes
import LanesPlatform
internal import Mustache

/// `lanes init`: writes a starter Lanefile, `.env.example` and CI snippets from `templates/`.
struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Create Lanefile.swift, .env.example and CI snippets in this folder.")

    @Option(help: "The project's name (default: this folder's name).")
    var name: String?

    @Option(name: .customLong("app-id"), help: "The production bundle identifier.")
    var appIdentifier: String?

    @Flag(help: "Overwrite files that already exist.")
    var force = false

    /// Template file → where it goes in the project.
    static let files: [(template: String, destination: String)] = [
        ("Lanefile.swift.mustache", "Lanefile.swift"),
        ("env.example.mustache", ".env.example"),
        ("jenkins-shell-step.sh.mustache", "ci/jenkins-shell-step.sh"),
        ("github-actions.yml.mustache", ".github/workflows/lanes.yml"),
    ]

    func run() async throws {
        let directory = FilePath.currentDirectory()
        let installation = try Installation.locate(environment: ProcessEnvironment.current())
        let projectName = name ?? FilePath.name(of: directory).filter { $0.isLetter || $0.isNumber }
        let values: [String: String] = [
            "projectName": projectName.isEmpty ? "App" : projectName,
            "appIdentifier": appIdentifier ?? "com.example.\(projectName.lowercased())",
        ]
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
            rendered.append((directory + "/" + file.destination, template.render(values)))
        }
        let output = TextOutput.standardOutput(Redactor())
        for (path, text) in rendered {
            try FilePath.makeDirectories(FilePath.directory(of: path))
            try AtomicFile.write(text, to: path, permissions: path.hasSuffix(".sh") ? 0o755 : nil)
            output.writeLine("created \(path.dropFirst(directory.count + 1))")
        }
        output.writeLine("Next: cp .env.example .env, fill it in, then `lanes list` and `lanes developerRelease`.")
    }
}
