/// What differs between HEAD, the index and the working tree, ignored files excluded.
public struct WorkingTreeStatus: Sendable, Hashable, Codable {
    /// One path and how it changed.
    public struct Entry: Sendable, Hashable, Codable {
        /// Relative to the working tree's top, `/`-separated; an untracked directory ends in `/`.
        public let path: String
        /// The change staged in the index relative to HEAD, if any.
        public let staged: Change?
        /// The change in the working tree relative to the index, if any.
        public let unstaged: Change?

        public init(path: String, staged: Change?, unstaged: Change?) {
            self.path = path
            self.staged = staged
            self.unstaged = unstaged
        }

        public var isUntracked: Bool { unstaged == .untracked }
    }

    public enum Change: String, Sendable, Hashable, Codable {
        case added, modified, deleted, renamed, typeChanged, untracked, conflicted
    }

    /// Every changed path, sorted by path.
    public let entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// No staged, unstaged or untracked (non-ignored) change.
    public var isClean: Bool { entries.isEmpty }

    public var changedPaths: [String] { entries.map(\.path) }
    public var staged: [Entry] { entries.filter { $0.staged != nil } }
    public var unstaged: [Entry] { entries.filter { $0.unstaged != nil && !$0.isUntracked } }
    public var untracked: [Entry] { entries.filter(\.isUntracked) }
}
