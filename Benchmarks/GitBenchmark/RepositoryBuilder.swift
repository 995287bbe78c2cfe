import Foundation

/// Builds the benchmark repository once: 100,000 commits written through `git fast-import`
/// (seconds, where committing one by one would take hours), with a few thousand source files,
/// merges every hundred commits and a tag every thousand, then a checked-out working tree with
/// a handful of edits, untracked files and an ignored build directory.
struct RepositoryBuilder {
    let directory: URL
    let commits: Int
    let files: Int

    /// Marks a finished build, so an interrupted one is redone rather than measured.
    private var marker: URL { directory.appendingPathComponent(".git/lanes-benchmark-complete") }

    var isBuilt: Bool { FileManager.default.fileExists(atPath: marker.path) }

    func build() throws {
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Git.run(["init", "-q", "-b", "main", directory.path])
        let stream = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-fast-import-\(getpid())")
        defer { try? FileManager.default.removeItem(at: stream) }
        try writeImportStream(to: stream)
        try Git.run(["fast-import", "--quiet"], in: directory, input: stream)
        try Git.run(["repack", "-a", "-d", "-q"], in: directory)
        try Git.run(["checkout", "-q", "-f", "main"], in: directory)
        try dirtyTheWorkingTree()
        // Let the index's timestamp fall behind the files' so neither tool sees racily clean entries.
        sleep(2)
        try Git.run(["update-index", "-q", "--refresh"], in: directory)
        _ = FileManager.default.createFile(atPath: marker.path, contents: Data())
    }

    /// The fast-import stream: one commit adding every file, then commits that each change one
    /// file, a merged side commit every 100 and a lightweight tag every 1,000.
    private func writeImportStream(to url: URL) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var buffer = ""
        func emit(_ text: String) throws {
            buffer += text
            if buffer.utf8.count > 1 << 20 {
                try handle.write(contentsOf: Data(buffer.utf8))
                buffer = ""
            }
        }
        func data(_ text: String) -> String { "data \(text.utf8.count)\n\(text)\n" }
        let authors = ["Ada Lovelace <ada@example.com>", "Grace Hopper <grace@example.com>",
                       "Linus Example <linus@example.com>", "Zoë Müller <zoe@example.com>"]
        let start = 1_500_000_000
        var mark = 0
        var mainTip = 0
        var made = 0
        var time = start

        func header(_ ref: String, message: String) throws {
            mark += 1
            made += 1
            time += 600
            let author = authors[made % authors.count]
            try emit("commit \(ref)\nmark :\(mark)\nauthor \(author) \(time) +0000\ncommitter \(author) \(time) +0000\n")
            try emit(data(message))
        }

        try header("refs/heads/main", message: "Initial project")
        for index in 0..<files {
            try emit("M 100644 inline \(path(of: index))\n" + data(contents(of: index, revision: 0)))
        }
        mainTip = mark
        while made < commits {
            let changed = made % files
            if made % 100 == 50, made + 2 <= commits {
                try header("refs/heads/feature", message: "Feature work \(made)")
                try emit("from :\(mainTip)\n")
                try emit("M 100644 inline \(path(of: changed))\n" + data(contents(of: changed, revision: made)))
                let side = mark
                try header("refs/heads/main", message: "Merge branch 'feature' (\(made))")
                try emit("from :\(mainTip)\nmerge :\(side)\n")
                mainTip = mark
                continue
            }
            try header("refs/heads/main", message: "Change \(path(of: changed)) (\(made))")
            try emit("from :\(mainTip)\n")
            try emit("M 100644 inline \(path(of: changed))\n" + data(contents(of: changed, revision: made)))
            mainTip = mark
            if made % 1000 == 0 {
                try emit("reset refs/tags/v1.\(made / 1000)\nfrom :\(mainTip)\n\n")
            }
        }
        try handle.write(contentsOf: Data(buffer.utf8))
    }

    private func path(of index: Int) -> String {
        index % 10 == 9
            ? "Resources/Module\(index % 40)/Strings\(index / 40).strings"
            : "Sources/Module\(index % 40)/File\(index / 40).swift"
    }

    private func contents(of index: Int, revision: Int) -> String {
        var text = "// File \(index), revision \(revision)\nimport Foundation\n\nstruct Type\(index) {\n"
        for line in 0..<12 { text += "    let value\(line) = \(index * 31 + line + revision)\n" }
        return text + "}\n"
    }

    /// A few edits, untracked files and an ignored build directory, as a lane run leaves them.
    private func dirtyTheWorkingTree() throws {
        let root = directory.path
        try "build/\n*.xcuserstate\n".write(toFile: root + "/.gitignore", atomically: true, encoding: .utf8)
        for index in [3, 1_234, 2_718] {
            try (contents(of: index, revision: -1)).write(toFile: root + "/" + path(of: index), atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(atPath: root + "/Notes", withIntermediateDirectories: true)
        try "todo\n".write(toFile: root + "/Notes/todo.md", atomically: true, encoding: .utf8)
        try "scratch\n".write(toFile: root + "/scratch.swift", atomically: true, encoding: .utf8)
        for index in 0..<2_000 {
            let dir = root + "/build/Intermediates/\(index % 20)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try "object \(index)\n".write(toFile: dir + "/\(index).o", atomically: false, encoding: .utf8)
        }
    }
}

/// Runs the `git` command line for setting up and as the reference.
enum Git {
    static func run(_ arguments: [String], in directory: URL? = nil, input: URL? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
        process.environment = environment
        if let input { process.standardInput = try FileHandle(forReadingFrom: input) }
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("git \(arguments.joined(separator: " ")) failed with status \(process.terminationStatus)")
        }
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
