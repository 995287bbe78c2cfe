internal import LanesPlatform

/// The runner's dotenv loading for tools outside a lane (`lanes doctor --env NAME`): `.env.default`,
/// `.env`, `.env.NAME` in `directory`, then `process` over them, exactly as `lanes LANE --env NAME`.
public enum DotEnvFiles {
    public static func load(directory: String, environmentName: String?, over process: [String: String]) throws -> [String: String] {
        try DotEnv(directory: directory).load(environmentName: environmentName, over: process)
    }
}
