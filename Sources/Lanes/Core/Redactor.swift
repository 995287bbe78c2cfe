import Synchronization

/// Replaces every known secret value with `********` in text before it leaves lanes.
///
/// Secrets register as they are read, so a value read halfway through a lane is redacted from
/// then on, including output of child processes started earlier.
public final class Redactor: Sendable {
    public static let mask = "********"
    private let secrets = Mutex<[String]>([])
    private let onFirstSecret: (@Sendable (Redactor) -> Void)?

    /// - Parameter onFirstSecret: called once, when the first secret registers (before it can be
    ///   written anywhere), for work that only matters once there is something to redact.
    public init(secrets: [String] = [], onFirstSecret: (@Sendable (Redactor) -> Void)? = nil) {
        self.onFirstSecret = onFirstSecret
        for secret in secrets { register(secret) }
    }

    /// Adds a value to redact. Empty values are ignored: they would match everywhere.
    public func register(_ value: String) {
        guard !value.isEmpty else { return }
        let isFirst = secrets.withLock { known in
            guard !known.contains(value) else { return false }
            known.append(value)
            // Longest first, so that a secret containing another is masked whole.
            known.sort { $0.count > $1.count }
            return known.count == 1
        }
        if isFirst { onFirstSecret?(self) }
    }

    public func isSecret(_ value: String) -> Bool {
        secrets.withLock { $0.contains(value) }
    }

    /// Whether `text` contains any registered secret.
    public func containsSecret(_ text: String) -> Bool {
        secrets.withLock { known in known.contains { text.contains($0) } }
    }

    public func redact(_ text: String) -> String {
        let known = secrets.withLock { $0 }
        guard !known.isEmpty else { return text }
        var result = text
        for secret in known where result.contains(secret) {
            result = result.replacing(secret, with: Self.mask)
        }
        return result
    }
}
