import LanesXcode
internal import Foundation
internal import LanesPlatform

/// Writes a version number where the project keeps it: the build setting (in each configuration
/// that sets it, else at project level where that sets it) and the Info.plist key when the plist
/// holds a literal value instead of `$(CURRENT_PROJECT_VERSION)`. A target with neither gets the
/// build setting added to its configurations.
struct VersionUpdate {
    let version: VersionNumber
    let file: XcodeProjectFile
    /// fastlane's skip_info_plist: only build settings change, and a literal plist value is not
    /// a reason to leave a configuration's setting out.
    var skipInfoPlist = false

    struct Plan {
        var configurations: [BuildConfiguration] = []
        /// Absolute Info.plist paths holding a literal value, with that value.
        var literalPlists: [(path: String, value: String)] = []
    }

    func plan(_ project: XcodeProject, targets: [XcodeTarget]) throws -> Plan {
        var plan = Plan()
        do {
            for target in targets {
                var plistIsLiteral = false
                for configuration in try project.configurations(of: target) where !skipInfoPlist {
                    guard let relative = try project.infoPlistPath(of: configuration) else { continue }
                    let path = file.absolute(relative)
                    guard let value = try literalValue(in: path) else { continue }
                    plistIsLiteral = true
                    if !plan.literalPlists.contains(where: { $0.path == path }) { plan.literalPlists.append((path, value)) }
                }
                for location in try project.versionLocations(version, in: try project.configurations(of: target)) {
                    let isStored = location.settings[version.buildSettingKey] != nil
                    guard isStored || !plistIsLiteral else { continue }
                    if !plan.configurations.contains(where: { $0.id == location.id }) { plan.configurations.append(location) }
                }
            }
        } catch let error as XcodeProjectError {
            throw LanesError(.configuration, "\(file.path): \(error)")
        }
        return plan
    }

    /// The values the project holds now, from build settings and literal plists.
    func currentValues(_ plan: Plan) -> [String] {
        let fromSettings = plan.configurations.compactMap { configuration -> String? in
            guard case .string(let value)? = configuration.settings[version.buildSettingKey], !value.contains("$") else { return nil }
            return value
        }
        return fromSettings + plan.literalPlists.map(\.value)
    }

    func apply(_ value: String, plan: Plan, project: XcodeProject, matched: [String], context: StepContext) throws -> XcodeEditResult {
        var session = ProjectEditSession(project: project)
        for configuration in plan.configurations {
            try session.setBuildSetting(version.buildSettingKey, to: .string(value), in: configuration)
        }
        let edited = try session.finishedBytes()
        var plistChanges: [InfoPlistChange] = []
        var plistWrites: [(String, [UInt8])] = []
        for (path, _) in plan.literalPlists {
            var editor = try plistEditor(path)
            let before = try editor.set(version.infoPlistKey, to: value)
            guard before != value else { continue }
            plistWrites.append((path, editor.bytes))
            plistChanges.append(InfoPlistChange(file: path, key: version.infoPlistKey, before: before, after: value))
        }
        // Everything is computed before the first write, so a bad plist leaves every file untouched.
        try file.save(edited, original: project)
        for (path, bytes) in plistWrites {
            do { try AtomicFile.write(bytes, to: path) } catch { throw LanesError(.laneFailure, "\(error)") }
        }
        context.logChanges(session.changes, file: file.path)
        for change in plistChanges { context.log.line("changed \(change)") }
        return XcodeEditResult(projectFile: file.path, matchedTargets: matched, changes: session.changes, infoPlistChanges: plistChanges)
    }

    private func literalValue(in path: String) throws -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let value = try plistEditor(path).string(forKey: version.infoPlistKey), !value.contains("$") else { return nil }
        return value
    }

    private func plistEditor(_ path: String) throws -> InfoPlistEditor {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LanesError(.configuration, "cannot read Info.plist \(path)")
        }
        do { return try InfoPlistEditor(bytes: Array(data), path: path) } catch { throw LanesError(.configuration, "\(error)") }
    }
}
