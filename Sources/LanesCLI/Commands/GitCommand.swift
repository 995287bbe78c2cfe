import Lanes
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LanesGit
import LanesPlatform

/// `lanes git`: repository facts as lanes sees them through libgit2.
struct GitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "git",
        abstract: "Show what lanes' git steps see in a repository.",
        subcommands: [GitInfoCommand.self]
    )
}

/// `lanes git info [--json] [--path DIR]`: branch, commit, build number, last tag, cleanliness.
struct GitInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print the branch, HEAD commit, commit count, last tag and working-tree status.",
        discussion: "The commit count is null in a shallow clone, which cannot count. "
            + "clean is false when there are staged, unstaged or untracked (non-ignored) files."
    )

    @Flag(name: .long, help: "Print JSON (sorted keys; absent values are null).")
    var json = false

    @Option(name: .long, help: "A directory inside the repository (default: the current directory).")
    var path: String = "."

    func run() throws {
        let info: RepositoryInfo
        do {
            info = try Repository(discoveringFrom: path).info()
        } catch let error as GitError {
            throw LanesError(error.lanesKind, "lanes git info: \(error.message)", hint: error.hint)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(info), as: UTF8.self))
        } else {
            // Branch and tag names, remotes and messages come from the repository: shown, not obeyed.
            print(TerminalText.visible(Self.text(info), keepingLineBreaks: true))
        }
    }

    static func text(_ info: RepositoryInfo) -> String {
        var lines = [
            "repository: \(info.root)",
            "branch:     \(info.branch ?? "(detached HEAD)")",
            "commit:     \(info.commit?.hex ?? "(no commits yet)")",
            "commits:    \(info.commitCount.map(String.init) ?? (info.shallow ? "unknown (shallow clone)" : "0"))",
            "last tag:   \(info.lastTag ?? "(none)")",
            "remote:     \(info.remoteURL ?? "(no origin)")",
            "status:     \(info.clean ? "clean" : "\(info.changedFiles.count) changed path\(info.changedFiles.count == 1 ? "" : "s")")",
        ]
        lines += info.changedFiles.map { "  \($0)" }
        return lines.joined(separator: "\n")
    }
}
