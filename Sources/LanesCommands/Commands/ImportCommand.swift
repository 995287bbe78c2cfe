import ArgumentParser
import Foundation
import Lanes
import LanesImport
import LanesPlatform

/// `lanes import fastlane`: a team's Fastfile (Ruby or Swift) and the files beside it as a Lanefile
/// that compiles, with a report of every action call and what needs a human.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn another tool's configuration into a Lanefile.",
        subcommands: [ImportFastlaneCommand.self])
}

struct ImportFastlaneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fastlane",
        abstract: "Write a Lanefile.swift from fastlane/Fastfile (or Fastfile.swift) and a migration report.",
        discussion: """
            Reads the Appfile, Matchfile, Gymfile, Scanfile, Deliverfile and Pluginfile beside the Fastfile. \
            Actions lanes has a step for become step calls; the rest are kept as `fastlane run` or marked TODO(import). \
            The Lanefile is then type-checked (never run) with lanes' own compiler; errors name the Fastfile line.
            """)

    @Argument(help: "The project folder (with fastlane/), the fastlane folder or the Fastfile.")
    var path = "."

    @Option(help: "Where to write the Lanefile (default: Lanefile.swift in the project folder).")
    var output: String?

    @Option(help: "Write the report to this file instead of printing it.")
    var report: String?

    @Flag(help: "The report as JSON (an `actions` list of {lane, action, line, outcome}).")
    var json = false

    @Flag(help: "Replace an existing Lanefile.")
    var force = false

    @Flag(name: .customLong("no-compile"), help: "Do not type-check the written Lanefile.")
    var noCompile = false

    func run() throws {
        let reportPath = report.map { $0.hasPrefix("/") ? $0 : FilePath.currentDirectory() + "/" + $0 }
        let outcome = try FastlaneImport(path: path, output: output, force: force, compile: !noCompile,
                                         ignoring: reportPath.map { [$0] } ?? []).perform()
        let text = json ? outcome.report.json : outcome.report.markdown
        if let report {
            do {
                try AtomicFile.write(text, to: report)
            } catch {
                throw LanesError(.configuration, "cannot write the report \(report): \(error)")
            }
            print("wrote \(outcome.lanefile) and the report \(report): \(outcome.summary)")
        } else {
            print(text, terminator: "")
            if !json { print("wrote \(outcome.lanefile): \(outcome.summary)") }
        }
        if !outcome.report.lostLanes.isEmpty {
            throw LanesError(.internal, "the Lanefile lacks lanes the Fastfile defines: \(outcome.report.lostLanes.joined(separator: ", ")) (a bug of the importer)",
                             hint: "please report it with the Fastfile; the report lists what was imported")
        }
        if outcome.report.compiled == false {
            if outcome.compilerPrintedNothing {
                // No error to list: the compiler ended without one (it crashed, or was killed).
                throw LanesError(.compilation, "the type-check of \(outcome.lanefile) failed without an error message (the compiler crashed?)",
                                 hint: "run the import again; `lanes list` compiles the Lanefile and shows the compiler's own output")
            }
            throw LanesError(.compilation, "\(outcome.lanefile) does not compile yet (\(outcome.report.compilerErrors.count) errors, listed with their Fastfile lines in the report)")
        }
    }
}

/// The import's steps, shared by `lanes import fastlane` and `lanes init --import`: read, refuse to
/// overwrite, write atomically, compile through the `lanes` driver.
struct FastlaneImport {
    let path: String
    let output: String?
    let force: Bool
    let compile: Bool
    /// Files the import writes besides the Lanefile (the report), added to `.gitignore` when in the project.
    var ignoring: [String] = []

    struct Outcome {
        let lanefile: String
        let report: ImportReport
        /// The type-check failed without printing anything: the compiler crashed or was killed.
        var compilerPrintedNothing = false

        var summary: String {
            let total = report.actions.count
            var text = "\(total) action calls, \(report.count(.step)) steps, \(report.count(.stepWithDroppedOptions)) steps with dropped options, \(report.count(.implicit)) implicit, "
                + "\(report.count(.fastlane)) through fastlane, \(report.count(.todo)) TODO"
            if let compiled = report.compiled { text += compiled ? "; it compiles" : "; it does not compile" }
            return text
        }
    }

    func perform() throws -> Outcome {
        let folder: String
        do {
            folder = try FastlaneImporter.fastlaneFolder(for: path).folder
        } catch {
            throw LanesError(.usage, "\(error)", hint: "run it in the project folder, or name the folder: lanes import fastlane PATH")
        }
        var result: ImportResult
        do {
            result = try FastlaneImporter.importFolder(path)
        } catch {
            throw LanesError(.configuration, "\(error)")
        }
        // The Lanefile goes beside the fastlane folder: actions' paths are relative to it.
        let name = FilePath.name(of: folder)
        let project = name == "fastlane" || name == ".fastlane" ? FilePath.directory(of: folder) : folder
        let destination = output ?? (project + "/Lanefile.swift")
        if FilePath.exists(destination), !force {
            throw LanesError(.configuration, "\(destination) already exists", hint: "pass --force to replace it, or --output to write elsewhere")
        }
        do {
            try AtomicFile.write(result.lanefile, to: destination)
        } catch {
            throw LanesError(.configuration, "cannot write \(destination): \(error)")
        }
        // `.lanes/` (run logs, keychains) and the report stay out of git: a step that commits
        // (commit_version_bump) refuses a tree with untracked files it did not write.
        let gitignore = project + "/.gitignore"
        let projectPath = FilePath.realPath(project) ?? project
        let ignored = ignoring.compactMap { path -> String? in
            let resolved = (FilePath.realPath(FilePath.directory(of: path)) ?? FilePath.directory(of: path)) + "/" + FilePath.name(of: path)
            return resolved.hasPrefix(projectPath + "/") ? "/" + String(resolved.dropFirst(projectPath.count + 1)) : nil
        }
        do {
            if let merged = GitIgnoreEntries.merged(into: FilePath.exists(gitignore) ? try FilePath.read(gitignore) : nil, adding: ignored) {
                try AtomicFile.write(merged, to: gitignore)
            }
        } catch {
            throw LanesError(.configuration, "cannot update \(gitignore): \(error)")
        }
        var compilerPrintedNothing = false
        if compile {
            let check = try Self.compile(destination)
            result.report.compiled = check.status == 0
            if check.status != 0 {
                result.report.compilerErrors = result.mapCompilerOutput(check.output, lanefileName: FilePath.name(of: destination))
                compilerPrintedNothing = check.output.allSatisfy(\.isWhitespace)
                if compilerPrintedNothing {
                    result.report.notes.append("The type-check ended with status \(check.status) and no error (the compiler crashed, or was killed); "
                                               + "run the import again, or `lanes list` to see the compiler's own output.")
                }
            }
        }
        return Outcome(lanefile: destination, report: result.report, compilerPrintedNothing: compilerPrintedNothing)
    }

    /// Type-checks the written Lanefile (`LanefileTypeCheck`): nothing of it runs, and the compiler
    /// gets none of the user's variables but those it needs.
    static func compile(_ lanefile: String) throws -> (status: Int32, output: String) {
        let outcome = try LanefileTypeCheck.check(lanefile)
        return (outcome.status, outcome.output)
    }
}
