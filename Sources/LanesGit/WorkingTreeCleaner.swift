internal import LanesPlatform

/// `git clean -e PATTERN` patterns: what survives a clean. They follow .gitignore's rules: a
/// pattern without a slash matches a name at any depth, one with a slash (a leading one too) a
/// path from the top, a trailing slash only folders. A matching folder is kept whole.
struct CleanExclusions: Sendable {
    private struct Pattern: Sendable {
        let glob: String
        let fromTop: Bool
        let foldersOnly: Bool
    }

    private let patterns: [Pattern]

    init(_ patterns: [String]) {
        self.patterns = patterns.compactMap { text in
            var glob = Substring(text)
            let foldersOnly = glob.hasSuffix("/")
            while glob.hasSuffix("/") { glob = glob.dropLast() }
            let fromTop = glob.contains("/")
            while glob.hasPrefix("/") { glob = glob.dropFirst() }
            return glob.isEmpty ? nil : Pattern(glob: String(glob), fromTop: fromTop, foldersOnly: foldersOnly)
        }
    }

    var isEmpty: Bool { patterns.isEmpty }

    /// Whether the path (relative to the working tree's top, no trailing slash) is to be kept.
    func keeps(_ path: String, isFolder: Bool) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return patterns.contains { pattern in
            if pattern.foldersOnly && !isFolder { return false }
            return pattern.fromTop ? pathGlobMatches(path, pattern.glob) : globMatches(name, pattern.glob)
        }
    }
}

/// Deletes untracked paths as `git clean -f -d` does: a folder entry by entry, so what an
/// exclusion or `stays` keeps survives with the folders holding it; a nested repository (a folder
/// with its own `.git`) is left alone, as git leaves it without a second `-f`.
struct WorkingTreeCleaner {
    /// The working tree's top, ending in `/`.
    let root: String
    let exclusions: CleanExclusions
    /// Whether a path found inside a removed folder stays (an ignored file when only untracked ones go).
    let stays: (String) -> Bool

    /// Removes `entry` (relative to the top; a folder ends in `/`) and returns what went: the
    /// entry itself when all of it did, else the paths removed inside it.
    func remove(_ entry: String) -> [String] {
        var relative = Substring(entry)
        while relative.hasSuffix("/") { relative = relative.dropLast() }
        return remove(String(relative), checkStays: false).removed
    }

    private func remove(_ relative: String, checkStays: Bool) -> (complete: Bool, removed: [String]) {
        let path = root + relative
        let isFolder = FilePath.isDirectoryNotLink(path)
        if exclusions.keeps(relative, isFolder: isFolder) || (checkStays && stays(relative)) { return (false, []) }
        guard isFolder else { return FilePath.removeEntry(path) ? (true, [relative]) : (false, []) }
        if FilePath.exists(path + "/.git") { return (false, []) }
        var complete = true
        var removed: [String] = []
        for name in FilePath.entries(of: path).sorted() {
            let inner = remove(relative + "/" + name, checkStays: true)
            complete = complete && inner.complete
            removed += inner.removed
        }
        guard complete, FilePath.removeEntry(path) else { return (false, removed) }
        return (true, [relative + "/"])
    }
}
