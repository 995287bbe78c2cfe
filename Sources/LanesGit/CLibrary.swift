internal import LanesPlatform

/// Whether `name` matches the shell glob `pattern` (as `git describe --match` does).
func globMatches(_ name: String, _ pattern: String) -> Bool {
    fnmatch(pattern, name, 0) == 0
}

/// Whether the relative `path` matches `pattern` with `*` and `?` never crossing a `/`
/// (a gitignore pattern that holds a slash).
func pathGlobMatches(_ path: String, _ pattern: String) -> Bool {
    fnmatch(pattern, path, FNM_PATHNAME) == 0
}
