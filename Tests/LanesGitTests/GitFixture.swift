import Foundation
import LanesTestSupport
import Testing

/// A throwaway directory holding git repositories built with the `git` command line, so the
/// code under test (libgit2) is checked against what real git produces.
final class GitFixture {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("lanes-git-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    func path(_ relative: String) -> String {
        root.appendingPathComponent(relative).path
    }

    /// A fresh repository on branch `main` with an identity configured (libgit2 reads it to tag).
    @discardableResult
    func makeRepository(_ name: String = "repo") async throws -> String {
        let directory = path(name)
        try await git(["init", "-q", "-b", "main", directory], in: root.path)
        try await git(["config", "user.name", "Fixture Author"], in: directory)
        try await git(["config", "user.email", "author@example.com"], in: directory)
        return directory
    }

    /// Writes `contents` to `file` (creating directories) in `repository`.
    func write(_ file: String, _ contents: String = "content\n", in repository: String) throws {
        let url = URL(fileURLWithPath: repository).appendingPathComponent(file)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
    }

    func exists(_ file: String, in repository: String) -> Bool {
        FileManager.default.fileExists(atPath: URL(fileURLWithPath: repository).appendingPathComponent(file).path)
    }

    func read(_ file: String, in repository: String) throws -> String {
        try String(contentsOf: URL(fileURLWithPath: repository).appendingPathComponent(file), encoding: .utf8)
    }

    /// Writes a file and commits it; returns the new commit's object name.
    @discardableResult
    func commit(_ message: String, file: String? = nil, contents: String? = nil, in repository: String,
                date: String = "2024-03-01T12:00:00+01:00") async throws -> String {
        let file = file ?? "file-\(UUID().uuidString.prefix(8)).txt"
        try write(file, contents ?? "\(message)\n", in: repository)
        try await git(["add", "--", file], in: repository)
        try await git(["commit", "-q", "-m", message], in: repository,
                environment: ["GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date])
        return try await git(["rev-parse", "HEAD"], in: repository)
    }

    /// Runs git and returns its trimmed standard output; fails the test on a non-zero exit.
    @discardableResult
    /// `input`: a file whose bytes are git's standard input.
    func git(_ arguments: [String], in directory: String, environment: [String: String] = [:], input: String? = nil) async throws -> String {
        var variables = ProcessInfo.processInfo.environment
        variables["GIT_CONFIG_NOSYSTEM"] = "1"
        variables["GIT_CONFIG_GLOBAL"] = "/dev/null"
        variables["GIT_AUTHOR_NAME"] = "Fixture Author"
        variables["GIT_AUTHOR_EMAIL"] = "author@example.com"
        variables["GIT_COMMITTER_NAME"] = "Fixture Author"
        variables["GIT_COMMITTER_EMAIL"] = "author@example.com"
        variables.merge(environment) { $1 }
        let stdin = try input.map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: $0))) }
        let result = try await Program.run(["/usr/bin/git", "-c", "protocol.file.allow=always", "-c", "init.defaultBranch=main"] + arguments,
                                           in: directory, environment: variables, input: stdin)
        guard result.status == 0 else {
            throw FixtureError(message: "git \(arguments.joined(separator: " ")) failed: \(result.standardError)")
        }
        var text = result.standardOutput
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
