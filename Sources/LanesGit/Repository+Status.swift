internal import CGit2

/// What a status scan looks at.
public struct StatusOptions: Sendable, Hashable {
    /// List each file inside an untracked directory instead of the directory (`git status -uall`).
    public var listFilesInUntrackedDirectories: Bool
    /// Report submodules whose checkout or contents changed. Checking each submodule opens its
    /// repository, so a caller that only cares about this repository's own files can skip it.
    public var includeSubmodules: Bool

    public init(listFilesInUntrackedDirectories: Bool = false, includeSubmodules: Bool = true) {
        self.listFilesInUntrackedDirectories = listFilesInUntrackedDirectories
        self.includeSubmodules = includeSubmodules
    }
}

extension Repository {
    /// Staged, unstaged and untracked changes; ignored files are left out.
    public func status(_ options: StatusOptions = StatusOptions()) throws -> WorkingTreeStatus {
        _ = try requireWorkingDirectory(for: "read the working tree status")
        var scan = git_status_options()
        git_status_options_init(&scan, UInt32(GIT_STATUS_OPTIONS_VERSION))
        scan.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR
        // No rename detection (git status does it, but it costs a content comparison and the
        // paths are reported either way) and no ignored files; sorting by path keeps output stable.
        var flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED.rawValue | GIT_STATUS_OPT_SORT_CASE_SENSITIVELY.rawValue
        if options.listFilesInUntrackedDirectories { flags |= GIT_STATUS_OPT_RECURSE_UNTRACKED_DIRS.rawValue }
        if !options.includeSubmodules { flags |= GIT_STATUS_OPT_EXCLUDE_SUBMODULES.rawValue }
        scan.flags = flags
        var list: OpaquePointer?
        try check(git_status_list_new(&list, handle, &scan), "reading the status of \(displayPath)")
        defer { git_status_list_free(list) }
        let count = git_status_list_entrycount(list)
        var entries: [WorkingTreeStatus.Entry] = []
        entries.reserveCapacity(count)
        for index in 0..<count {
            guard let entry = git_status_byindex(list, index)?.pointee else { continue }
            let flags = entry.status.rawValue
            guard flags & GIT_STATUS_IGNORED.rawValue == 0 else { continue }
            let delta = entry.index_to_workdir ?? entry.head_to_index
            guard let path = delta?.pointee.new_file.path ?? delta?.pointee.old_file.path else { continue }
            entries.append(WorkingTreeStatus.Entry(path: String(cString: path),
                                                   staged: Self.stagedChange(flags),
                                                   unstaged: Self.unstagedChange(flags)))
        }
        return WorkingTreeStatus(entries: entries)
    }

    private static func stagedChange(_ flags: UInt32) -> WorkingTreeStatus.Change? {
        if flags & GIT_STATUS_CONFLICTED.rawValue != 0 { return .conflicted }
        if flags & GIT_STATUS_INDEX_NEW.rawValue != 0 { return .added }
        if flags & GIT_STATUS_INDEX_DELETED.rawValue != 0 { return .deleted }
        if flags & GIT_STATUS_INDEX_RENAMED.rawValue != 0 { return .renamed }
        if flags & GIT_STATUS_INDEX_TYPECHANGE.rawValue != 0 { return .typeChanged }
        if flags & GIT_STATUS_INDEX_MODIFIED.rawValue != 0 { return .modified }
        return nil
    }

    private static func unstagedChange(_ flags: UInt32) -> WorkingTreeStatus.Change? {
        if flags & GIT_STATUS_CONFLICTED.rawValue != 0 { return .conflicted }
        if flags & GIT_STATUS_WT_NEW.rawValue != 0 { return .untracked }
        if flags & GIT_STATUS_WT_DELETED.rawValue != 0 { return .deleted }
        if flags & GIT_STATUS_WT_RENAMED.rawValue != 0 { return .renamed }
        if flags & GIT_STATUS_WT_TYPECHANGE.rawValue != 0 { return .typeChanged }
        if flags & (GIT_STATUS_WT_MODIFIED.rawValue | GIT_STATUS_WT_UNREADABLE.rawValue) != 0 { return .modified }
        return nil
    }
}
