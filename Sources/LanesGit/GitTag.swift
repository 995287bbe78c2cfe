/// A tag and the commit it points at.
public struct GitTag: Sendable, Hashable, Codable {
    /// The short name, such as `v1.4.0` (without `refs/tags/`).
    public let name: String
    /// The commit the tag points at, after peeling annotated tags.
    public let commit: ObjectID
    /// Whether the tag is an annotated tag object (as opposed to a lightweight ref).
    public let isAnnotated: Bool
    /// The annotation message of an annotated tag.
    public let message: String?

    public init(name: String, commit: ObjectID, isAnnotated: Bool, message: String?) {
        self.name = name
        self.commit = commit
        self.isAnnotated = isAnnotated
        self.message = message
    }
}
