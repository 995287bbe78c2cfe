internal import CGit2

/// What a reset changed.
public struct ResetResult: Sendable, Hashable, Codable {
    /// Tracked paths put back to their HEAD contents (and unstaged).
    public let restored: [String]
    /// Untracked or ignored paths deleted, when asked for; a directory ends in `/`.
    public let removed: [String]

    public init(restored: [String], removed: [String]) {
        self.restored = restored
        self.removed = removed
    }
}

extension Repository {
    /// Puts tracked files back to HEAD, in the index and the working tree (`git reset --hard`
    /// limited to `paths` when given). Untracked and ignored files (a Pods directory, build
    /// output, `.env`) stay unless `removeUntracked` / `removeIgnored` ask for `git clean`
    /// (`-d`, and `-x` or `-X`); paths matching a pattern of `keeping` survive it, as
    /// `git clean -e PATTERN`'s do. Files staged as new become untracked again and are kept
    /// unless untracked files are removed.
    @discardableResult
    public func resetToHead(paths: [String]? = nil, removeUntracked: Bool = false,
                            removeIgnored: Bool = false, keeping exclusions: [String] = []) throws -> ResetResult {
        let wanted: (String) -> Bool = { path in
            guard let paths else { return true }
            return paths.contains { path == $0 || path.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
        }
        let restored = try changes(includingIgnored: false).tracked.filter(wanted)

        try withCommit("HEAD") { commit in
            if let paths {
                try withStringArray(paths) { array in
                    try check(git_reset_default(handle, commit, &array), "unstaging \(paths.joined(separator: ", "))")
                }
            } else {
                try check(git_reset(handle, commit, GIT_RESET_MIXED, nil), "resetting the index of \(displayPath)")
            }
        }
        var checkout = git_checkout_options()
        git_checkout_options_init(&checkout, UInt32(GIT_CHECKOUT_OPTIONS_VERSION))
        var strategy = GIT_CHECKOUT_FORCE.rawValue
        if paths != nil { strategy |= GIT_CHECKOUT_DISABLE_PATHSPEC_MATCH.rawValue }
        checkout.checkout_strategy = strategy
        try withStringArray(paths ?? []) { array in
            if paths != nil { checkout.paths = array }
            try check(git_checkout_head(handle, &checkout), "restoring files from HEAD in \(displayPath)")
        }

        var removed: [String] = []
        if removeUntracked || removeIgnored {
            // After the reset, so files that were only staged count as untracked, as for git clean.
            let left = try changes(includingIgnored: removeIgnored)
            let candidates = ((removeUntracked ? left.untracked : []) + (removeIgnored ? left.ignored : [])).filter(wanted)
            let cleaner = WorkingTreeCleaner(root: try requireWorkingDirectory(for: "clean untracked files"), exclusions: CleanExclusions(exclusions)) { path in
                // Inside an untracked folder, an ignored file stays unless ignored files go too (and the reverse).
                let ignored = self.isIgnored(path)
                return ignored ? !removeIgnored : !removeUntracked
            }
            for candidate in candidates.sorted() { removed += cleaner.remove(candidate) }
        }
        return ResetResult(restored: restored, removed: removed.sorted())
    }

    /// Whether `.gitignore`, `info/exclude` or `core.excludesFile` ignore `path` (or a folder holding it).
    func isIgnored(_ path: String) -> Bool {
        var ignored: Int32 = 0
        return git_ignore_path_is_ignored(&ignored, handle, path) == 0 && ignored != 0
    }

    /// Changed paths split by kind, for reporting what a reset touches.
    private func changes(includingIgnored: Bool) throws -> (tracked: [String], untracked: [String], ignored: [String]) {
        var scan = git_status_options()
        git_status_options_init(&scan, UInt32(GIT_STATUS_OPTIONS_VERSION))
        var flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED.rawValue | GIT_STATUS_OPT_SORT_CASE_SENSITIVELY.rawValue
            | GIT_STATUS_OPT_EXCLUDE_SUBMODULES.rawValue
        if includingIgnored { flags |= GIT_STATUS_OPT_INCLUDE_IGNORED.rawValue }
        scan.flags = flags
        var list: OpaquePointer?
        try check(git_status_list_new(&list, handle, &scan), "reading the status of \(displayPath)")
        defer { git_status_list_free(list) }
        var tracked: [String] = [], untracked: [String] = [], ignored: [String] = []
        for index in 0..<git_status_list_entrycount(list) {
            guard let entry = git_status_byindex(list, index)?.pointee else { continue }
            let delta = entry.index_to_workdir ?? entry.head_to_index
            guard let pointer = delta?.pointee.new_file.path ?? delta?.pointee.old_file.path else { continue }
            let path = String(cString: pointer)
            let flags = entry.status.rawValue
            if flags & GIT_STATUS_IGNORED.rawValue != 0 {
                ignored.append(path)
            } else if flags == GIT_STATUS_WT_NEW.rawValue {
                untracked.append(path)
            } else {
                tracked.append(path)
            }
        }
        return (tracked, untracked, ignored)
    }
}
