#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `body(worker)` on `count` POSIX threads and waits for all of them. Uploads block in
/// socket calls, so they need real threads, not a pool sized to the cores.
public enum ParallelWorkers {
    public static func run(count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 1 else { body(0); return }
        var threads: [PlatformThread] = []
        for worker in 0..<count {
            if let thread = try? PlatformThread.start({ body(worker) }) {
                threads.append(thread)
            } else {
                body(worker)
            }
        }
        for thread in threads { thread.join() }
    }

    /// The processors online, at least one.
    public static var processorCount: Int {
        max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }
}
