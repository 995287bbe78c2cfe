#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
import LanesPlatform

/// The daemon's expiry watch: once a day it runs the doctor's signing checks (`SigningCheckup`),
/// keeps the result beside the history (`signing-watch.json` in the state folder, written
/// atomically) for the page and `lanes doctor`, and tells the scheduler whether signing material
/// has expired, so a scheduled lane can fail before its build starts instead of at 2 am.
public struct SigningWatch: Sendable {
    public struct Record: Sendable, Codable {
        public let checked: Date
        public let health: [SigningHealth]
    }

    public let stateDirectory: String
    /// Seconds between checks.
    public var interval: TimeInterval = 86_400

    public init(stateDirectory: String) {
        self.stateDirectory = stateDirectory
    }

    public var path: String { stateDirectory + "/signing-watch.json" }

    /// The last recorded check, or nil when there is none (or it cannot be read).
    public func latest() -> Record? {
        guard let bytes = try? FilePath.readBytes(path) else { return nil }
        return try? JSONDecoder().decode(Record.self, from: Data(bytes))
    }

    /// True when no check was recorded in the last `interval` seconds.
    public func isDue(at now: Date) -> Bool {
        guard let latest = latest() else { return true }
        return now.timeIntervalSince(latest.checked) >= interval
    }

    /// Runs the checks when due and records them; returns the latest record.
    @discardableResult
    public func checkIfDue(_ materials: [SigningMaterial], checkup: SigningCheckup, variables: [String: String],
                           at now: Date) throws -> Record {
        if !isDue(at: now), let latest = latest() { return latest }
        let record = Record(checked: now, health: materials.map { checkup.check($0, variables: variables, at: now) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try FilePath.makeDirectories(stateDirectory)
        try AtomicFile.write(Array(try encoder.encode(record)), to: path)
        return record
    }

    /// Why a scheduled lane should not start: the certificates or profiles that have expired (the
    /// note the daemon records on the run), or nil when nothing has.
    public static func expiredMaterial(in health: [SigningHealth]) -> String? {
        let expired = health.flatMap { entry in
            [entry.certificate, entry.profile].compactMap { $0 }.filter { $0.daysLeft < 0 || $0.severity == .error }
                .map { "\(entry.configuration): \($0.name) (\($0.path))" }
        }
        return expired.isEmpty ? nil : "signing material expired: " + expired.joined(separator: "; ")
    }
}
