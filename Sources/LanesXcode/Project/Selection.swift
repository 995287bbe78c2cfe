/// Which build configurations to touch: by exact name (the default, so "Staging" never reaches
/// "Release-Staging"), by regular expression when asked, or all.
public enum ConfigurationFilter: Sendable, Hashable, CustomStringConvertible {
    case named(String)
    /// Any of several exact names (fastlane's `build_configurations` list).
    case namedAny([String])
    case matching(String)
    case all

    public var description: String {
        switch self {
        case .named(let name): "named '\(name)'"
        case .namedAny(let names): "named " + names.map { "'\($0)'" }.joined(separator: " or ")
        case .matching(let pattern): "matching /\(pattern)/"
        case .all: "(any)"
        }
    }

    func select(_ configurations: [BuildConfiguration]) throws(XcodeProjectError) -> [BuildConfiguration] {
        if case .matching(let pattern) = self {
            let regex = try compile(pattern, what: "configuration")
            return configurations.filter { $0.name.contains(regex) }
        }
        var picked: [BuildConfiguration] = []
        for configuration in configurations where try accepts(configuration.name) { picked.append(configuration) }
        return picked
    }

    /// Whether a configuration named `name` passes the filter.
    public func accepts(_ name: String) throws(XcodeProjectError) -> Bool {
        switch self {
        case .named(let expected): return name == expected
        case .namedAny(let names): return names.contains(name)
        case .matching(let pattern): return name.contains(try compile(pattern, what: "configuration"))
        case .all: return true
        }
    }
}

/// Which targets to touch: by exact names (fastlane's `targets`, `target`), by a regular expression
/// where an option says so (update_project_provisioning's `target_filter`), or all.
public enum TargetFilter: Sendable, Hashable, CustomStringConvertible {
    case named([String])
    case matching(String)
    case all

    public var description: String {
        switch self {
        case .named(let names): names.map { "'\($0)'" }.joined(separator: ", ")
        case .matching(let pattern): "/\(pattern)/"
        case .all: "(all)"
        }
    }
}

/// The targets a pattern selected, with the ones it did not, for the report.
public struct TargetSelection: Sendable {
    public let pattern: String
    public let matched: [XcodeTarget]
    public let unmatched: [XcodeTarget]
}


extension XcodeProject {
    /// Targets whose name the regular expression finds a match in, searched as written: `Brewer` finds
    /// all four Brewer targets, `^Brewer$` only one. Throws, listing every target, when none matches.
    public func targets(matching pattern: String) throws(XcodeProjectError) -> TargetSelection {
        let regex = try compile(pattern, what: "target")
        var matched: [XcodeTarget] = []
        var unmatched: [XcodeTarget] = []
        for target in targets {
            if target.name.contains(regex) { matched.append(target) } else { unmatched.append(target) }
        }
        guard !matched.isEmpty else { throw .noTargetMatched(pattern: pattern, available: targets.map(\.name)) }
        return TargetSelection(pattern: pattern, matched: matched, unmatched: unmatched)
    }

    /// The targets a filter selects. Every name given must be a target's (a typo must not silently
    /// edit nothing); the error lists the project's targets.
    public func targets(_ filter: TargetFilter) throws(XcodeProjectError) -> TargetSelection {
        switch filter {
        case .matching(let pattern):
            return try targets(matching: pattern)
        case .all:
            return TargetSelection(pattern: filter.description, matched: targets, unmatched: [])
        case .named(let names):
            let missing = names.filter { name in !targets.contains { $0.name == name } }
            guard missing.isEmpty else { throw .noTargetNamed(names: missing, available: targets.map(\.name)) }
            return TargetSelection(pattern: filter.description, matched: targets.filter { names.contains($0.name) },
                                   unmatched: targets.filter { !names.contains($0.name) })
        }
    }

    /// The configurations of each target that pass the filter. Throws when a target has none, naming
    /// the configurations it has; a typo must not silently edit nothing.
    public func configurations(of targets: [XcodeTarget], _ filter: ConfigurationFilter) throws(XcodeProjectError) -> [BuildConfiguration] {
        var result: [BuildConfiguration] = []
        for target in targets {
            let all = try configurations(of: target)
            let picked = try filter.select(all)
            guard !picked.isEmpty else {
                throw .noConfigurationMatched(filter: filter.description, scope: "target '\(target.name)'", available: all.map(\.name))
            }
            result += picked
        }
        return result
    }

    /// The project-level configurations that pass the filter.
    public func projectConfigurations(_ filter: ConfigurationFilter) throws(XcodeProjectError) -> [BuildConfiguration] {
        let all = try projectConfigurations()
        let picked = try filter.select(all)
        guard !picked.isEmpty else {
            throw .noConfigurationMatched(filter: filter.description, scope: "the project", available: all.map(\.name))
        }
        return picked
    }
}

private func compile(_ pattern: String, what: String) throws(XcodeProjectError) -> Regex<AnyRegexOutput> {
    do {
        return try Regex(pattern)
    } catch {
        throw .invalidPattern(pattern: pattern, what: what, reason: String(describing: error))
    }
}
