/// Where lanes keeps per-user files when no variable says otherwise. XDG variables win on every OS
/// (`XDG_CACHE_HOME`, `XDG_STATE_HOME`); without them each OS has its own convention under the
/// home folder (`+Linux`: `~/.cache`, `~/.local/state`; `+Darwin`: `~/Library/Caches`,
/// `~/Library/Application Support`).
public enum UserFolders {
    /// The base folder for caches (lanes adds `/lanes`).
    public static func cacheBase(environment: [String: String], home: String) -> String {
        if let directory = environment["XDG_CACHE_HOME"], !directory.isEmpty { return directory }
        return home + "/" + defaultCacheFolder
    }

    /// The base folder for state such as run history (lanes adds `/lanes`).
    public static func stateBase(environment: [String: String], home: String) -> String {
        if let directory = environment["XDG_STATE_HOME"], !directory.isEmpty { return directory }
        return home + "/" + defaultStateFolder
    }
}
