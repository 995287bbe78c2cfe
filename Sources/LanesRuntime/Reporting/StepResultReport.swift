#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesGit
public import LanesPlatform

/// A step's result as `lanes run` shows it: lines for a person, a JSON value for `--json`.
public struct StepResultReport: Sendable {
    public let lines: [String]
    public let json: JSONValue

    public init(lines: [String], json: JSONValue) {
        self.lines = lines
        self.json = json
    }
}

/// A step result that knows how to show itself. Every built-in step's result conforms; a test
/// checks that none falls back to a debug dump.
public protocol ReportableResult: Sendable {
    var report: StepResultReport { get }
}

enum StepResultRendering {
    static func render(_ output: some Sendable) -> StepResultReport {
        if let reportable = output as? any ReportableResult { return reportable.report }
        let text = optionText(of: output)
        return StepResultReport(lines: [text], json: .string(text))
    }
}

extension Int: ReportableResult {
    public var report: StepResultReport { StepResultReport(lines: [String(self)], json: .number(Double(self))) }
}

extension String: ReportableResult {
    public var report: StepResultReport { StepResultReport(lines: [self], json: .string(self)) }
}

extension Optional: ReportableResult where Wrapped: ReportableResult {
    public var report: StepResultReport { self?.report ?? StepResultReport(lines: ["(none)"], json: .null) }
}

extension Array: ReportableResult where Element == String {
    public var report: StepResultReport {
        StepResultReport(lines: isEmpty ? ["(none)"] : self, json: .array(map { .string($0) }))
    }
}

extension ShellResult: ReportableResult {
    public var report: StepResultReport {
        StepResultReport(lines: ["\(output.count) line\(output.count == 1 ? "" : "s") of output"],
                         json: .object([("output", .array(output.map { .string($0) }))]))
    }
}

extension ImportedCertificate: ReportableResult {
    public var report: StepResultReport {
        let validUntil = certificate.notAfter.formatted(.iso8601)
        let keychainFate = deletedAtLaneEnd ? "deleted when the lane ended" : "kept"
        var lines = ["certificate: \(signingIdentity)", "team: \(teamIdentifier ?? "none")", "SHA-1: \(sha1)",
                     "valid until: \(validUntil)", "keychain: \(keychainName) at \(keychainPath) (\(keychainFate))"]
        if let expiryWarning { lines.append("warning: \(expiryWarning)") }
        return StepResultReport(lines: lines, json: .object([
            ("certificate", .string(signingIdentity)), ("team", teamIdentifier.map(JSONValue.string) ?? .null),
            ("sha1", .string(sha1)), ("valid_until", .string(validUntil)), ("keychain", .string(keychainName)),
            ("keychain_path", .string(keychainPath)), ("keychain_kept", .bool(!deletedAtLaneEnd)),
            ("expiry_warning", expiryWarning.map(JSONValue.string) ?? .null),
        ]))
    }
}

extension InstalledProfile: ReportableResult {
    public var report: StepResultReport {
        let expires = profile.expirationDate.formatted(.iso8601)
        return StepResultReport(
            lines: ["profile: \(name) (\(type.rawValue))", "UUID: \(uuid)", "team: \(teamIdentifier ?? "none")",
                    "expires: \(expires)", "installed at: \(installedPath)"],
            json: .object([("name", .string(name)), ("type", .string(type.rawValue)), ("uuid", .string(uuid)),
                           ("team", teamIdentifier.map(JSONValue.string) ?? .null), ("expires", .string(expires)),
                           ("installed_path", .string(installedPath))]))
    }
}

extension XcodeEditResult: ReportableResult {
    public var report: StepResultReport {
        let settingLines = changes.map { "  \($0)" }
        let plistLines = infoPlistChanges.map { "  \($0.file): \($0.key) \($0.before ?? "(unset)") -> \($0.after)" }
        let lines = ["project: \(projectFile)", "targets: \(matchedTargets.isEmpty ? "(project level)" : matchedTargets.joined(separator: ", "))",
                     "\(changes.count + infoPlistChanges.count) change\(changes.count + infoPlistChanges.count == 1 ? "" : "s")"]
            + settingLines + plistLines
        return StepResultReport(lines: lines, json: .object([
            ("project", .string(projectFile)), ("targets", .array(matchedTargets.map { .string($0) })),
            ("changes", .array(changes.map { .string($0.description) })),
            ("info_plist_changes", .array(infoPlistChanges.map { change in
                .object([("file", .string(change.file)), ("key", .string(change.key)),
                         ("before", change.before.map(JSONValue.string) ?? .null), ("after", .string(change.after))])
            })),
        ]))
    }
}

extension Changelog: ReportableResult {
    public var report: StepResultReport {
        StepResultReport(
            lines: ["\(commits.count) commit\(commits.count == 1 ? "" : "s") from \(from ?? "the first commit") to \(to)"]
                + (text.isEmpty ? [] : text.split(separator: "\n").map(String.init)),
            json: .object([("from", from.map(JSONValue.string) ?? .null), ("to", .string(to)),
                           ("commits", .array(commits.map { commit in
                               .object([("subject", .string(commit.subject)), ("author", .string(commit.authorName))])
                           }))]))
    }
}

extension GitTag: ReportableResult {
    public var report: StepResultReport {
        StepResultReport(lines: ["tag \(name) at \(commit.short)\(isAnnotated ? " (annotated)" : "")"],
                         json: .object([("name", .string(name)), ("commit", .string(commit.description)),
                                        ("annotated", .bool(isAnnotated))]))
    }
}

extension ResetResult: ReportableResult {
    public var report: StepResultReport {
        StepResultReport(lines: restored.map { "restored \($0)" } + removed.map { "removed \($0)" } + (restored.isEmpty && removed.isEmpty ? ["nothing to reset"] : []),
                         json: .object([("restored", .array(restored.map { .string($0) })),
                                        ("removed", .array(removed.map { .string($0) }))]))
    }
}
