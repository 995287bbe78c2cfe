/// Gathers setting edits on one project and records, for each, what it was and what it becomes.
/// Nothing is written here: `finishedBytes()` returns the new file for the caller to write.
public struct ProjectEditSession: Sendable {
    public let project: XcodeProject
    private var editor: PBXEditor
    public private(set) var changes: [XcodeSettingChange] = []
    /// TargetAttributes entries for targets that have none yet, written together by `finishedBytes()`.
    private var newTargetAttributes: [String: [String: PBXNewValue]] = [:]

    public init(project: XcodeProject) {
        self.project = project
        self.editor = PBXEditor(document: project.document)
    }

    /// Sets `key` in a configuration's `buildSettings`. With `conditionalVariants`, every existing
    /// `key[sdk=...]` (or any other `[condition]`) variant gets the same value, so that none overrides it.
    public mutating func setBuildSetting(_ key: String, to value: BuildSettingValue, in configuration: BuildConfiguration,
                                         conditionalVariants: Bool = false) throws(XcodeProjectError) {
        guard let settings = configuration.buildSettings else {
            throw .notAnXcodeProject(reason: "build configuration \(configuration.id) ('\(configuration.name)') has no buildSettings dictionary")
        }
        var keys = [key]
        if conditionalVariants {
            keys += settings.keys.filter { $0.hasPrefix(key + "[") && $0.hasSuffix("]") }
        }
        for name in keys {
            let before = settings.entry(name).map { BuildSettingValue($0.value) }
            let change = XcodeSettingChange(scope: configuration.scopeName, configuration: configuration.name, key: name,
                                            before: before, after: value)
            guard before != value else {
                // Already so in the file (perhaps spelled with other quotes): keep its bytes.
                editor.discard(name, in: settings)
                forget(change)
                continue
            }
            editor.set(name, to: value.newValue, in: settings)
            record(change)
        }
    }

    /// Sets `key` in `PBXProject.attributes.TargetAttributes.<target id>`, creating the target's entry
    /// (and `TargetAttributes`) when missing. With `onlyIfPresent`, a missing key is left alone.
    public mutating func setTargetAttribute(_ key: String, to value: String, for target: XcodeTarget,
                                            onlyIfPresent: Bool = false) throws(XcodeProjectError) {
        guard let attributes = project.projectObject["attributes"]?.dictionary else {
            throw .notAnXcodeProject(reason: "the PBXProject object has no attributes dictionary")
        }
        let newValue = BuildSettingValue.string(value)
        guard let entry = attributes["TargetAttributes"]?.dictionary?[target.id]?.dictionary else {
            guard !onlyIfPresent else { return }
            newTargetAttributes[target.id, default: [:]][key] = .string(value)
            record(XcodeSettingChange(scope: target.name, configuration: nil, key: key, before: nil, after: newValue))
            return
        }
        let before = entry.entry(key).map { BuildSettingValue($0.value) }
        guard before != nil || !onlyIfPresent else { return }
        let change = XcodeSettingChange(scope: target.name, configuration: nil, key: key, before: before, after: newValue)
        guard before != newValue else {
            editor.discard(key, in: entry)
            forget(change)
            return
        }
        editor.set(key, to: .string(value), in: entry)
        record(change)
    }

    /// The edited project, read again from the new bytes.
    public func finish() throws -> XcodeProject {
        try XcodeProject(bytes: try finishedBytes(), path: project.document.path)
    }

    /// The new bytes of the file (the original ones when nothing changed); what a writer needs.
    public func finishedBytes() throws(PBXParseError) -> [UInt8] {
        var editor = editor
        if !newTargetAttributes.isEmpty, let attributes = project.projectObject["attributes"]?.dictionary {
            if let targetAttributes = attributes["TargetAttributes"]?.dictionary {
                for (id, entries) in newTargetAttributes { editor.set(id, to: .dictionary(entries), in: targetAttributes) }
            } else {
                editor.set("TargetAttributes", to: .dictionary(newTargetAttributes.mapValues(PBXNewValue.dictionary)), in: attributes)
            }
        }
        return try editor.appliedBytes()
    }

    private mutating func record(_ change: XcodeSettingChange) {
        forget(change)
        changes.append(change)
    }

    /// Removes an earlier record of the same place and key: the last value set is the one reported.
    private mutating func forget(_ change: XcodeSettingChange) {
        changes.removeAll { $0.scope == change.scope && $0.configuration == change.configuration && $0.key == change.key }
    }
}
