/// When `lanes daemon` (or an exported scheduler) starts a lane, declared as modifiers:
///
///     Lane("developerRelease", "Nightly staging build") { ... }
///         .schedule("H 0 * * 0-4")             // timer: runs when due
///         .pollSCM("H/15 * * * *")             // runs when due and the tracked branch moved
///         .hashSeed("Brewer/developerRelease")  // the name `H` is hashed from (default: the lane name)
///         .timeZone("Asia/Taipei")              // optional; a `TZ=` first line in a spec also works
///
/// Specs are Jenkins cron text, read by LanesCron (same parser, same `H`, same daylight-saving policy).
public struct LaneTriggers: Sendable, Hashable {
    /// Timer specs added with `.schedule(...)` (the `schedule:` parameter's specs are in `Lane.schedules`).
    public var timers: [String] = []
    /// Poll-SCM specs: when one is due, the daemon fetches the tracked branch and runs the lane if it moved.
    public var pollSCM: [String] = []
    /// The name `H` is hashed from; nil means the lane's name.
    public var hashSeed: String?
    /// The zone specs are read in when they have no `TZ=` line; nil means the machine's zone.
    public var timeZone: String?

    public init() {}

    /// Whether the lane has any trigger at all.
    public var isEmpty: Bool { timers.isEmpty && pollSCM.isEmpty }
}

extension Lane {
    /// Runs the lane whenever `spec` is due (repeat the modifier for several specs).
    public func schedule(_ spec: String) -> Lane { with { $0.timers.append(spec) } }

    /// Polls the tracked branch whenever `spec` is due and runs the lane when it moved since the last run.
    public func pollSCM(_ spec: String) -> Lane { with { $0.pollSCM.append(spec) } }

    /// Hashes `H` from `seed` instead of the lane's name; a Jenkins job's full name keeps Jenkins' minutes.
    public func hashSeed(_ seed: String) -> Lane { with { $0.hashSeed = seed } }

    /// Reads the specs in `identifier` (an IANA zone such as `Asia/Taipei`) unless a spec has its own `TZ=`.
    public func timeZone(_ identifier: String) -> Lane { with { $0.timeZone = identifier } }

    /// Every timer spec: the `schedule:` parameter's, then the `.schedule(...)` modifiers'.
    public var timerSpecs: [String] { schedules + triggers.timers }

    /// The seed `H` is hashed from.
    public var scheduleSeed: String { triggers.hashSeed ?? name }

    private func with(_ change: (inout LaneTriggers) -> Void) -> Lane {
        var copy = self
        change(&copy.triggers)
        return copy
    }
}
