#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lanes a compiled runner lists (`list --json`, a `LanesWire.LaneListingRecord`), kept in the
/// runner's cache folder beside it: `lanes schedule`, `lanes env` and `lanes --help` read it there
/// instead of starting the runner, which halves what they cost. The driver writes it while it
/// compiles, into the folder that becomes the cache entry, so runner and listing appear together
/// and vanish together: a changed Lanefile has another key, hence another folder, and its listing
/// cannot be stale. The runner lists in an environment of the loader's variables only (`environment`),
/// so no value of the user's, a secret least of all, can be part of what is kept; a Lanefile that
/// reads the environment while declaring its lanes is kept as it declares them with none set.
public enum RunnerListing {
    /// The file's name in the runner's folder.
    public static let fileName = "lanes.json"

    /// The listing's path for the runner at `runner`.
    public static func path(besideRunner runner: String) -> String {
        FilePath.directory(of: runner) + "/" + fileName
    }

    /// The variables the runner keeps when it lists for the cache: what the dynamic loader needs to
    /// start it, nothing a Lanefile could print.
    public static let environmentNames = ["LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH", "DYLD_FRAMEWORK_PATH"]

    /// `environment` reduced to `environmentNames`.
    public static func environment(from environment: [String: String]) -> [String: String] {
        environment.filter { environmentNames.contains($0.key) }
    }

    /// The kept listing of `runner`, or nil when there is none (a runner compiled before listings were
    /// kept, or one that could not list: then the runner itself is asked, and says why).
    public static func cached(besideRunner runner: String) -> [UInt8]? {
        let path = path(besideRunner: runner)
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return try? FilePath.readBytes(path)
    }
}
