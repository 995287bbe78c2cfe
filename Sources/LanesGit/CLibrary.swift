#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Whether `name` matches the shell glob `pattern` (as `git describe --match` does).
func globMatches(_ name: String, _ pattern: String) -> Bool {
    fnmatch(pattern, name, 0) == 0
}
