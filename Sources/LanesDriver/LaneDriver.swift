import LanesPlatform

/// `lanes LANE [key:value ...]` and `lanes list`: find the Lanefile, compile it if its cached runner
/// is missing, and exec the runner. This is the hot path: one hash, one exec, no Foundation.
struct LaneDriver {
    static let usage = "usage: lanes LANE [key:value ...] [--env NAME[,NAME...]] [--json] [--junit PATH] [--lanefile PATH]"

    let arguments: [String]
    let environment: [String: String]
    let installation: Installation

    func run() throws -> Never {
        let (lanefileOption, passThrough) = try Self.separateLanefileOption(arguments)
        let trust = TrustedFiles(environment: environment)
        let lanefile = try locateLanefile(option: lanefileOption, from: FilePath.currentDirectory(), trust: trust)
        let cache = try Self.cacheDirectory(environment: environment)
        try trust.prepareCache(cache)
        let compiler = LanefileCompiler(installation: installation, cacheDirectory: cache, environment: environment)
        var runner = try compiler.runnerPath(for: lanefile)
        if FilePath.exists(runner), !trust.isPrivateRunner(runner) {
            // Someone else could have written this runner: never run it, build our own.
            writeStandardError("The cached runner \(runner) is not private to you; compiling again.")
            FilePath.removeTree(FilePath.directory(of: runner))
        }
        if !FilePath.exists(runner) {
            writeStandardError("Compiling \(lanefile) ...")
            runner = try compiler.compile(lanefile)
        }
        try Exec.replaceProcess(with: runner, arguments: [runner, "--project-dir", FilePath.directory(of: lanefile),
                                                          "--lanefile", lanefile] + passThrough)
    }

    /// `--lanefile PATH` or `--lanefile=PATH` anywhere, and the rest for the runner.
    static func separateLanefileOption(_ arguments: [String]) throws -> (lanefile: String?, rest: [String]) {
        var rest: [String] = []
        var lanefile: String?
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if argument == "--lanefile" {
                guard let path = iterator.next() else {
                    throw DriverError("--lanefile needs a path", hint: usage, kind: .usage)
                }
                lanefile = path
            } else if argument.hasPrefix("--lanefile=") {
                lanefile = String(argument.dropFirst("--lanefile=".count))
            } else {
                rest.append(argument)
            }
        }
        return (lanefile, rest)
    }

    /// `$LANES_CACHE_DIR`, else `$XDG_CACHE_HOME/lanes`, else the OS's cache folder (`~/.cache/lanes`,
    /// `~/Library/Caches/lanes` on macOS: `UserFolders`) (home from `HOME`, or
    /// the password database when `HOME` is unset). Never a shared folder such as /tmp, where
    /// another user could plant a runner at its predictable key.
    static func cacheDirectory(environment: [String: String]) throws -> String {
        if let directory = environment["LANES_CACHE_DIR"], !directory.isEmpty { return directory }
        if let directory = environment["XDG_CACHE_HOME"], !directory.isEmpty { return directory + "/lanes" }
        if let home = environment["HOME"], !home.isEmpty { return UserFolders.cacheBase(environment: environment, home: home) + "/lanes" }
        if let home = TrustedFiles.homeFromPasswordDatabase() { return UserFolders.cacheBase(environment: environment, home: home) + "/lanes" }
        throw DriverError("HOME is not set and your account has no home folder, so lanes has no private place for its runner cache",
                          hint: "set LANES_CACHE_DIR to a folder only you can write", kind: .configuration)
    }

    func locateLanefile(option: String?, from directory: String, trust: TrustedFiles) throws -> String {
        if let option {
            let path = FilePath.absolute(option, from: directory)
            guard FilePath.exists(path), !FilePath.isDirectory(path) else {
                throw DriverError("--lanefile \(option): no such file", kind: .configuration)
            }
            return FilePath.realPath(path) ?? path
        }
        guard let found = FilePath.findUpwards("Lanefile.swift", from: directory) else {
            throw DriverError("no Lanefile.swift in \(directory) or any folder above it",
                              hint: "run `lanes init` to create one, or pass --lanefile PATH",
                              kind: .configuration)
        }
        try trust.checkFoundLanefile(found, searchedFrom: directory)
        return found
    }
}

enum Exec {
    /// Replaces this process with `program`; `environment` replaces the environment when given.
    static func replaceProcess(with program: String, arguments: [String], environment: [String: String]? = nil) throws -> Never {
        let argv = arguments.map { strdup($0) } + [nil]
        if let environment {
            let variables = environment.map { strdup("\($0)=\($1)") } + [nil]
            execve(program, argv, variables)
        } else {
            execv(program, argv)
        }
        throw DriverError("cannot run \(program): \(String(cString: strerror(errno)))", kind: .configuration)
    }
}
