internal import CGit2

/// Keeps libgit2 initialised for as long as any value holding it lives.
///
/// libgit2 counts its own `git_libgit2_init` / `git_libgit2_shutdown` calls; each instance makes
/// exactly one of each, so every repository (and anything else that talks to libgit2) simply holds
/// a reference, and the library shuts down when the last holder goes away. No global flag.
public final class GitLibrary: Sendable {
    public init() {
        lanes_git_init()
    }

    deinit {
        git_libgit2_shutdown()
    }
}
