/// What the `lanes` driver found for the project in the current folder, handed to `lanes-tool` for
/// the commands that describe the project (`lanes --help`, `lanes env`, `lanes schedule`, `lanes completion`). The
/// driver owns the Lanefile search and the runner cache; the tool reads the answer from these
/// variables of its environment instead of repeating that logic.
public struct ProjectHandoff: Sendable, Equatable {
    /// The Lanefile found from the current folder upwards.
    public var lanefile: String
    /// The cache key of its compiled runner (the runner's folder name).
    public var cacheKey: String
    /// The compiled runner, when it exists.
    public var runner: String?

    public init(lanefile: String, cacheKey: String, runner: String?) {
        self.lanefile = lanefile
        self.cacheKey = cacheKey
        self.runner = runner
    }

    /// The lanes its runner listed when it was compiled (`RunnerListing`), read instead of starting it.
    public var keptListing: [UInt8]? {
        runner.flatMap(RunnerListing.cached(besideRunner:))
    }

    private static let lanefileVariable = "LANES_PROJECT_LANEFILE"
    private static let cacheKeyVariable = "LANES_PROJECT_CACHE_KEY"
    private static let runnerVariable = "LANES_PROJECT_RUNNER"

    /// The variables that carry this handoff.
    public var variables: [String: String] {
        var result = [Self.lanefileVariable: lanefile, Self.cacheKeyVariable: cacheKey]
        if let runner { result[Self.runnerVariable] = runner }
        return result
    }

    /// The private runner cache the driver checked, where `swiftc --version`'s line is remembered
    /// (`Toolchain`'s `versionCache`): `lanes env` then runs no compiler.
    private static let versionCacheVariable = "LANES_PROJECT_VERSION_CACHE"

    /// `environment` with any earlier handoff removed and this one added.
    public static func environment(_ environment: [String: String], with handoff: ProjectHandoff?,
                                   versionCache: String? = nil) -> [String: String] {
        var result = environment
        for name in [lanefileVariable, cacheKeyVariable, runnerVariable, versionCacheVariable] { result[name] = nil }
        if let handoff { result.merge(handoff.variables) { $1 } }
        if let versionCache { result[versionCacheVariable] = versionCache }
        return result
    }

    /// The version cache the driver handed over, if any.
    public static func versionCache(in environment: [String: String]) -> String? {
        environment[versionCacheVariable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The handoff in `environment`, or nil when the driver found no Lanefile.
    public init?(environment: [String: String]) {
        guard let lanefile = environment[Self.lanefileVariable], !lanefile.isEmpty,
              let key = environment[Self.cacheKeyVariable] else { return nil }
        self.init(lanefile: lanefile, cacheKey: key, runner: environment[Self.runnerVariable].flatMap { $0.isEmpty ? nil : $0 })
    }
}
