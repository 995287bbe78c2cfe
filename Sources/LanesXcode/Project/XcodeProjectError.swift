/// Something the project file does not hold or a selection that matched nothing, said with what the
/// file does hold so that the user can correct the filter.
public enum XcodeProjectError: Error, Sendable, Equatable, CustomStringConvertible {
    case notAnXcodeProject(reason: String)
    case missingObject(id: String, referencedBy: String)
    case invalidPattern(pattern: String, what: String, reason: String)
    case noTargetMatched(pattern: String, available: [String])
    /// Targets given by exact name, some of which the project does not have.
    case noTargetNamed(names: [String], available: [String])
    case noConfigurationMatched(filter: String, scope: String, available: [String])

    public var description: String {
        switch self {
        case .notAnXcodeProject(let reason):
            "not an Xcode project file: \(reason)"
        case .missingObject(let id, let referencedBy):
            "object \(id) referenced by \(referencedBy) is missing from the objects dictionary; the project file is damaged"
        case .invalidPattern(let pattern, let what, let reason):
            "the \(what) pattern '\(pattern)' is not a valid regular expression: \(reason)"
        case .noTargetMatched(let pattern, let available):
            "no target matches '\(pattern)'; targets: \(available.map { "'\($0)'" }.joined(separator: ", ")). "
                + "Patterns are searched as written: anchor with ^...$ to match one name exactly"
        case .noTargetNamed(let names, let available):
            "no target named \(names.map { "'\($0)'" }.joined(separator: ", ")); targets: \(available.map { "'\($0)'" }.joined(separator: ", ")). "
                + "Target names are matched exactly"
        case .noConfigurationMatched(let filter, let scope, let available):
            "no build configuration \(filter) in \(scope); configurations: \(available.map { "'\($0)'" }.joined(separator: ", "))"
        }
    }
}
