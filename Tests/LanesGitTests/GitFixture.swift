import Foundation
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
    func makeRepository(_ name: String = "repo") throws -> String {
        let directory = path(name)
        try git(["init", "-q", "-b", "main", directory], in: root.path)
        try git(["config", "user.name", "Fixture Author"], in: directory)
        try git(["config", "user.email", "author@example.com"], in: directory)
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
                date: String = "2024-03-01T12:00:00+01:00") throws -> String {
        let file = file ?? "file-\(UUID().uuidString.prefix(8)).txt"
        try write(file, contents ?? "\(message)\n", in: repository)
        try git(["add", "--", file], in: repository)
        try git(["commit", "-q", "-m", message], in: repository,
                environment: ["GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date])
        return try git(["rev-parse", "HEAD"], in: repository)
    }

    /// Runs git and returns its trimmed standard output; fails the test on a non-zero exit.
    @discardableResult
    func git(_ arguments: [String], in directory: String, environment: [String: String] = [:], input: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = ["-c", "protocol.file.allow=always", "-c", "init.defaultBranch=main"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var variables = ProcessInfo.processInfo.environment
        variables["GIT_CONFIG_NOSYSTEM"] = "1"
        variables["GIT_CONFIG_GLOBAL"] = "/dev/null"
        variables["GIT_AUTHOR_NAME"] = "Fixture Author"
        variables["GIT_AUTHOR_EMAIL"] = "author@example.com"
        variables["GIT_COMMITTER_NAME"] = "Fixture Author"
        variables["GIT_COMMITTER_EMAIL"] = "author@example.com"
        variables.merge(environment) { $1 }
        process.environment = variables
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        if let input { process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: input)) }
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FixtureError(message: "git \(arguments.joined(separator: " ")) failed: \(String(decoding: errorData, as: UTF8.self))")
        }
        var text = String(decoding: data, as: UTF8.self)
        while text.last?.isNewline == true { text.removeLast() }
        return text
    }
}

struct FixtureError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
