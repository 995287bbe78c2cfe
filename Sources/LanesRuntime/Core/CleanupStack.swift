import Synchronization

/// Undo actions registered by steps (delete a temporary keychain, restore a search list), run in
/// reverse order when the lane ends: on success, on failure, and on Ctrl-C.
public final class CleanupStack: Sendable {
    public typealias Action = @Sendable () async throws -> Void
    private struct Entry: Sendable {
        let label: String
        let action: Action
    }
    private let entries = Mutex<[Entry]>([])

    public init() {}

    public func push(_ label: String, _ action: @escaping Action) {
        entries.withLock { $0.append(Entry(label: label, action: action)) }
    }

    /// Runs and removes every action, newest first. Failures do not stop later actions; their
    /// descriptions are returned so the caller can report them.
    @discardableResult
    public func runAll() async -> [String] {
        let pending = entries.withLock { entries in
            defer { entries.removeAll() }
            return entries
        }
        var failures: [String] = []
        for entry in pending.reversed() {
            do { try await entry.action() } catch { failures.append("\(entry.label): \(error)") }
        }
        return failures
    }

    public var isEmpty: Bool { entries.withLock { $0.isEmpty } }
}
