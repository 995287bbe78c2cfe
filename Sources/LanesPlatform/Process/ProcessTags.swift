/// Finding the processes a run started, even those that left its process groups (`setsid`,
/// a double fork): every process lanes starts carries `LANES_PROCESS_TAGS` in its environment,
/// one random tag per lanes process that started it and its ancestors (space-separated), and
/// children inherit the environment. A run ends what carries its tag; a restarted daemon ends what
/// carries a dead run's tag, never a stranger that happens to have reused a process id.
/// (A process that clears its environment escapes; a process group or a tag is what can be proven.)
public enum ProcessTags {
    public static let variable = "LANES_PROCESS_TAGS"

    /// A tag no other run has: 128 random bits.
    public static func newTag() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64, low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    /// `environment` with `tag` added to the tags it carries.
    public static func adding(_ tag: String, to environment: [String: String]) -> [String: String] {
        var environment = environment
        let existing = environment[variable].map { $0.split(separator: " ").map(String.init) } ?? []
        environment[variable] = (existing.filter { $0 != tag } + [tag]).joined(separator: " ")
        return environment
    }

    /// Whether an environment entry list (`NAME=value` strings) carries `tag`.
    static func entries<S: Sequence>(_ entries: S, carry tag: String) -> Bool where S.Element == Substring {
        let prefix = variable + "="
        for entry in entries where entry.hasPrefix(prefix) {
            return entry.dropFirst(prefix.count).split(separator: " ").contains { $0 == tag }
        }
        return false
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
