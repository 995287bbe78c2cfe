internal import Foundation

/// Where "now" comes from. The daemon takes one, so tests can drive it with a fixed clock.
public protocol CronClock: Sendable {
    func now() -> CronInstant
}

/// The system's real-time clock.
public struct SystemCronClock: CronClock {
    public init() {}

    public func now() -> CronInstant { CronInstant(secondsSince1970: Date().timeIntervalSince1970) }
}

/// A clock that always reads the same instant.
public struct FixedCronClock: CronClock {
    public let instant: CronInstant

    public init(_ instant: CronInstant) {
        self.instant = instant
    }

    public func now() -> CronInstant { instant }
}
