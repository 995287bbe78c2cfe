import LanesPlatform

/// The driver's part in the requests that describe the project rather than run a lane: it finds the
/// Lanefile and its runner (its job alone), then hands them to `lanes-tool` or the runner.
extension LaneDriver {
    /// `lanes --help`, `lanes env`, `lanes schedule`: `lanes-tool`, told where the Lanefile and its runner are. Never
    /// fails for want of a Lanefile; a Lanefile that does not compile is shown without its lanes.
    func runToolWithProject(compile: Bool) throws -> Never {
        var handoff: ProjectHandoff?
        let trust = TrustedFiles(environment: environment)
        let compiler = privateCompiler(trust: trust)
        if let lanefile = try? locateLanefile(option: nil, from: FilePath.currentDirectory(), trust: trust), let compiler {
            if var runner = try? compiler.runnerPath(for: lanefile) {
                var compiled = FilePath.exists(runner) && trust.isPrivateRunner(runner)
                if !compiled, compile {
                    writeStandardError("Compiling \(lanefile) ...")
                    if let built = try? compiler.compile(lanefile) { runner = built; compiled = true }
                }
                handoff = ProjectHandoff(lanefile: lanefile, cacheKey: FilePath.name(of: FilePath.directory(of: runner)),
                                         runner: compiled ? runner : nil)
            }
        }
        try Exec.replaceProcess(with: installation.toolExecutable, arguments: ["lanes"] + arguments,
                                environment: ProjectHandoff.environment(environment, with: handoff, versionCache: compiler?.cacheDirectory))
    }

    /// `lanes actions`, `lanes run`: the tool alone, unless the Lanefile here has package
    /// dependencies; then their steps need its runner, and a failure to build it is the error.
    func runToolWithPackageSteps() throws -> Never {
        let trust = TrustedFiles(environment: environment)
        guard let lanefile = try? locateLanefile(option: nil, from: FilePath.currentDirectory(), trust: trust),
              LanefileSources(lanefile: lanefile).manifest != nil else {
            try Exec.replaceProcess(with: installation.toolExecutable, arguments: ["lanes"] + arguments)
        }
        let cache = try Self.cacheDirectory(environment: environment)
        try trust.prepareCache(cache)
        let compiler = LanefileCompiler(installation: installation, cacheDirectory: cache, environment: environment)
        var runner = try compiler.runnerPath(for: lanefile)
        if !FilePath.exists(runner) || !trust.isPrivateRunner(runner) {
            writeStandardError("Compiling \(lanefile) ...")
            runner = try compiler.compile(lanefile)
        }
        let handoff = ProjectHandoff(lanefile: lanefile, cacheKey: FilePath.name(of: FilePath.directory(of: runner)), runner: runner)
        try Exec.replaceProcess(with: installation.toolExecutable, arguments: ["lanes"] + arguments,
                                environment: ProjectHandoff.environment(environment, with: handoff))
    }

    /// Lane names, one a line, for shell completion: from the cached runner (which replaces this
    /// process), or nothing (then `main` exits 0). A completion must answer at once, so it never
    /// compiles and never prints an error.
    func completeLanes() {
        let trust = TrustedFiles(environment: environment)
        if let compiler = privateCompiler(trust: trust),
           let lanefile = try? locateLanefile(option: nil, from: FilePath.currentDirectory(), trust: trust),
           let runner = try? compiler.runnerPath(for: lanefile), FilePath.exists(runner), trust.isPrivateRunner(runner) {
            _ = try? Exec.replaceProcess(with: runner, arguments: [runner, "--project-dir", FilePath.directory(of: lanefile),
                                                                   "list", "--names"])
        }
    }

    /// `lanes --version`: the compiler's version line is remembered in the private runner cache.
    func printVersion() {
        let trust = TrustedFiles(environment: environment)
        let cache = (try? Self.cacheDirectory(environment: environment)).flatMap { (try? trust.prepareCache($0)) != nil ? $0 : nil }
        let report = VersionReport(installation: installation,
                                   toolchain: Toolchain(installation: installation, environment: environment, versionCache: cache))
        _ = FileDescriptorIO.writeAll(Array(report.rendered.utf8), to: 1)
    }

    /// A compiler over the user's private cache, or nil when there is no private place for one.
    private func privateCompiler(trust: TrustedFiles) -> LanefileCompiler? {
        guard let cache = try? Self.cacheDirectory(environment: environment), (try? trust.prepareCache(cache)) != nil else { return nil }
        return LanefileCompiler(installation: installation, cacheDirectory: cache, environment: environment)
    }
}
