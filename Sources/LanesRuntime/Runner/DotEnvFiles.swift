internal import LanesPlatform

/// The runner's dotenv loading for tools outside a lane (`lanes doctor --env NAME`): `.env.default`,
/// `.env`, `.env.NAME` in `directory`, then `process` over them, exactly as `lanes LANE --env NAME`.
public enum DotEnvFiles {
    public static func load(directory: String, environmentName: String?, over process: [String: String]) throws -> [String: String] {
        // `--env a,b` loads several, in order, as a lane does.
        let names = environmentName.map { $0.split(separator: ",").map(String.init) } ?? []
        return try DotEnv(directory: directory).load(environmentNames: names, over: process)
    }
}
