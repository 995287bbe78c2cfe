import Foundation
import LanesCron
import Synchronization

/// A clock the test moves by hand.
final class ManualClock: CronClock {
    private let seconds: Mutex<Double>

    init(_ start: CronInstant) { seconds = Mutex(start.secondsSince1970) }

    func now() -> CronInstant { CronInstant(secondsSince1970: seconds.withLock { $0 }) }

    func set(_ instant: CronInstant) { seconds.withLock { $0 = instant.secondsSince1970 } }
}

/// SplitMix64: reproducible random numbers from a seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A fresh folder, on tmpfs when there is one (the simulations commit tens of thousands of
/// transactions; the kill -9 test uses a real disk folder instead).
func temporaryDirectory(_ name: String, preferMemory: Bool = true) throws -> String {
    let base = preferMemory && FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    let path = "\(base)/lanes-\(name)-\(getpid())-\(UInt32.random(in: 0 ... .max))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func instant(_ iso: String) -> CronInstant { CronInstant(iso8601: iso)! }
