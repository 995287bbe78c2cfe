import LanesXcode
internal import LanesWire

/// What a step's result says about the run as a whole: the version and build number it set or
/// built, the artifacts it made. `step_finished` carries them as `reported`, and the history shows
/// them for the run.
public struct RunFacts: Sendable, Hashable {
    public var version: String?
    public var buildNumber: String?
    public var artifacts: [String]

    public init(version: String? = nil, buildNumber: String? = nil, artifacts: [String] = []) {
        self.version = version
        self.buildNumber = buildNumber
        self.artifacts = artifacts
    }

    public var isEmpty: Bool { version == nil && buildNumber == nil && artifacts.isEmpty }

    /// How `step_finished` carries them (`reported`).
    var record: RunEventRecord.ReportedFacts {
        RunEventRecord.ReportedFacts(version: version, buildNumber: buildNumber, artifacts: artifacts.isEmpty ? nil : artifacts)
    }
}

/// A step result that reports facts about the run.
public protocol RunFactsReporting {
    var runFacts: RunFacts { get }
}

extension BuiltApp: RunFactsReporting {
    public var runFacts: RunFacts {
        RunFacts(version: version, buildNumber: build, artifacts: [path, dSYMZipPath].compactMap { $0 })
    }
}

extension XcodeEditResult: RunFactsReporting {
    /// The version steps' new values (`MARKETING_VERSION`, `CURRENT_PROJECT_VERSION`).
    public var runFacts: RunFacts {
        func value(_ key: String) -> String? {
            guard case .string(let text)? = changes.last(where: { $0.key == key })?.after else { return nil }
            return text
        }
        return RunFacts(version: value("MARKETING_VERSION"), buildNumber: value("CURRENT_PROJECT_VERSION"))
    }
}
