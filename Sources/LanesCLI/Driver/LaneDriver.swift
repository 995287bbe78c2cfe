import Lanes
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `lanes LANE [key:value ...]` and `lanes list`: find the Lanefile, compile it if its cached runner
/// is missing, and exec the runner with the arguments. This is the hot path: no Foundation, no
/// argument-parser, one hash and one exec.
struct LaneDriver {
    static let usage = "usage: lanes [--lanefile PATH] LANE [key:value ...] [--env NAME] [--json] [--junit PATH]"

    let arguments: [String]
    let environment: [String: String]

    func run() async throws -> Never {
        var passThrough: [String] = []
        var lanefileOption: String?
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if argument == "--lanefile" {
                guard let path = iterator.next() else { throw LanesError(.usage, "--lanefile needs a path", hint: Self.usage) }
                lanefileOption = path
            } else {
                passThrough.append(argument)
            }
        }
        let workingDirectory = FilePath.currentDirectory()
        let lanefile = try locateLanefile(option: lanefileOption, from: workingDirectory)
        let compiler = LanefileCompiler(installation: try Installation.locate(environment: environment),
                                        cacheDirectory: cacheDirectory, environment: environment)
        let (runner, isCached) = try compiler.cachedRunner(for: lanefile)
        if !isCached {
            let errors = TextOutput.standardError(Redactor())
            errors.writeLine("Compiling \(lanefile) ...")
            try await compiler.compile(lanefile, into: runner, diagnostics: errors)
        }
        try exec(runner, [runner, "--project-dir", FilePath.directory(of: lanefile)] + passThrough)
    }

    /// `$LANES_CACHE_DIR`, else `$XDG_CACHE_HOME/lanes`, else `~/.cache/lanes`.
    var cacheDirectory: String {
        if let directory = environment["LANES_CACHE_DIR"], !directory.isEmpty { return directory }
        if let directory = environment["XDG_CACHE_HOME"], !directory.isEmpty { return directory + "/lanes" }
        return (environment["HOME"] ?? "/tmp") + "/.cache/lanes"
    }

    private func locateLanefile(option: String?, from directory: String) throws -> String {
        if let option {
            let path = FilePath.absolute(option, from: directory)
            guard FilePath.exists(path), !FilePath.isDirectory(path) else {
                throw LanesError(.configuration, "--lanefile \(option): no such file")
            }
            return FilePath.realPath(path) ?? path
        }
        guard let found = FilePath.findUpwards("Lanefile.swift", from: directory) else {
            throw LanesError(.configuration, "no Lanefile.swift in \(directory) or any folder above it",
                             hint: "run `lanes init` to create one, or pass --lanefile PATH")
        }
        return found
    }

    private func exec(_ program: String, _ argv: [String]) throws -> Never {
        var cArguments = argv.map { strdup($0) }
        cArguments.append(nil)
        execv(program, cArguments)
        throw LanesError(.environment, "cannot run the compiled Lanefile \(program): \(String(cString: strerror(errno)))")
    }
}
