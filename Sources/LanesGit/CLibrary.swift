internal import LanesPlatform

/// Whether `name` matches the shell glob `pattern` (as `git describe --match` does).
func globMatches(_ name: String, _ pattern: String) -> Bool {
    fnmatch(pattern, name, 0) == 0
}
