#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `body(worker)` on `count` POSIX threads and waits for all of them. Uploads block in
/// socket calls, so they need real threads, not a pool sized to the cores.
enum ParallelWorkers {
    private final class Job {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    static func run(count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 1 else { body(0); return }
        var threads: [pthread_t] = []
        for worker in 0..<count {
            let job = Unmanaged.passRetained(Job { body(worker) }).toOpaque()
            var thread = pthread_t()
            let status = pthread_create(&thread, nil, { raw in
                let job = Unmanaged<Job>.fromOpaque(raw!).takeRetainedValue()
                job.body()
                return nil
            }, job)
            if status == 0 {
                threads.append(thread)
            } else {
                Unmanaged<Job>.fromOpaque(job).release()
                body(worker)
            }
        }
        for thread in threads { pthread_join(thread, nil) }
    }
}
