internal import CGit2

extension GitLibrary {
    /// `1.5.1`: the libgit2 loaded at run time, for bug reports (`lanes env`).
    public static var version: String {
        var (major, minor, revision): (Int32, Int32, Int32) = (0, 0, 0)
        git_libgit2_version(&major, &minor, &revision)
        return "\(major).\(minor).\(revision)"
    }
}
