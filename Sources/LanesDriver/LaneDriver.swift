import LanesPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `lanes LANE [key:value ...]` and `lanes list`: find the Lanefile, compile it if its cached runner
/// is missing, and exec the runner. This is the hot path: one hash, one exec, no Foundation.
struct LaneDriver {
    static let usage = "usage: lanes [--lanefile PATH] LANE [key:value ...] [--env NAME] [--json] [--junit PATH]"

    let arguments: [String]
    let environment: [String: String]
    let installation: Installation

    func run() throws -> Never {
        var passThrough: [String] = []
        var lanefileOption: String?
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if argument == "--lanefile" {
                guard let path = iterator.next() else {
                    throw DriverError("--lanefile needs a path", hint: Self.usage, exitStatus: DriverError.usage)
                }
                lanefileOption = path
            } else {
                passThrough.append(argument)
            }
        }
        let trust = TrustedFiles(environment: environment)
        let lanefile = try locateLanefile(option: lanefileOption, from: FilePath.currentDirectory(), trust: trust)
        let cache = try Self.cacheDirectory(environment: environment)
        try trust.prepareCache(cache)
        let compiler = LanefileCompiler(installation: installation, cacheDirectory: cache, environment: environment)
        let runner = try compiler.runnerPath(for: lanefile)
        if FilePath.exists(runner), !(trust.isPrivate(runner, directory: false) && trust.isPrivate(FilePath.directory(of: runner), directory: true)) {
            // Someone else could have written this runner: never run it, build our own.
            writeStandardError("The cached runner \(runner) is not private to you; compiling again.")
            FilePath.removeTree(FilePath.directory(of: runner))
        }
        if !FilePath.exists(runner) {
            writeStandardError("Compiling \(lanefile) ...")
            try compiler.compile(lanefile, into: runner)
        }
        try Exec.replaceProcess(with: runner, arguments: [runner, "--project-dir", FilePath.directory(of: lanefile)] + passThrough)
    }

    /// `$LANES_CACHE_DIR`, else `$XDG_CACHE_HOME/lanes`, else `~/.cache/lanes` (home from `HOME`, or
    /// the password database when `HOME` is unset). Never a shared folder such as /tmp, where
    /// another user could plant a runner at its predictable key.
    static func cacheDirectory(environment: [String: String]) throws -> String {
        if let directory = environment["LANES_CACHE_DIR"], !directory.isEmpty { return directory }
        if let directory = environment["XDG_CACHE_HOME"], !directory.isEmpty { return directory + "/lanes" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.cache/lanes" }
        if let home = TrustedFiles.homeFromPasswordDatabase() { return home + "/.cache/lanes" }
        throw DriverError("HOME is not set and your account has no home folder, so lanes has no private place for its runner cache",
                          hint: "set LANES_CACHE_DIR to a folder only you can write", exitStatus: DriverError.configuration)
    }

    private func locateLanefile(option: String?, from directory: String, trust: TrustedFiles) throws -> String {
        if let option {
            let path = FilePath.absolute(option, from: directory)
            guard FilePath.exists(path), !FilePath.isDirectory(path) else {
                throw DriverError("--lanefile \(option): no such file", exitStatus: DriverError.configuration)
            }
            return FilePath.realPath(path) ?? path
        }
        guard let found = FilePath.findUpwards("Lanefile.swift", from: directory) else {
            throw DriverError("no Lanefile.swift in \(directory) or any folder above it",
                              hint: "run `lanes init` to create one, or pass --lanefile PATH",
                              exitStatus: DriverError.configuration)
        }
        try trust.checkFoundLanefile(found, searchedFrom: directory)
        return found
    }
}

enum Exec {
    static func replaceProcess(with program: String, arguments: [String]) throws -> Never {
        let argv = arguments.map { strdup($0) } + [nil]
        execv(program, argv)
        throw DriverError("cannot run \(program): \(String(cString: strerror(errno)))", exitStatus: DriverError.configuration)
    }
}
