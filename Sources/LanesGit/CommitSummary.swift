/// One commit as a changelog shows it.
public struct CommitSummary: Sendable, Hashable, Codable {
    public let id: ObjectID
    /// The first paragraph of the message, joined into one line.
    public let subject: String
    /// The rest of the message after the subject, trimmed; empty when there is none.
    public let body: String
    public let authorName: String
    public let authorEmail: String
    /// When the author wrote the change.
    public let authorDate: GitTime
    public let parentCount: Int

    public var isMerge: Bool { parentCount > 1 }

    public init(id: ObjectID, subject: String, body: String, authorName: String, authorEmail: String,
                authorDate: GitTime, parentCount: Int) {
        self.id = id
        self.subject = subject
        self.body = body
        self.authorName = authorName
        self.authorEmail = authorEmail
        self.authorDate = authorDate
        self.parentCount = parentCount
    }
}

/// Which commits a changelog keeps, by whether they are merges.
public enum MergeFilter: String, Sendable, CaseIterable, Codable {
    case include = "include_merges"
    case exclude = "exclude_merges"
    case only = "only_include_merges"

    func keeps(_ commit: CommitSummary) -> Bool {
        switch self {
        case .include: true
        case .exclude: !commit.isMerge
        case .only: commit.isMerge
        }
    }
}
