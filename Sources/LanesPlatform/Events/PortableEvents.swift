/// The portable POSIX backend: `poll` on the read end of a self-pipe that the signal handlers write
/// the signal's number to, with a timeout computed from the next due instant, and a `stat` of the
/// Lanefile whenever it wakes (at least every `lanefileCheckSeconds` while a Lanefile is watched).
final class PortableEvents: DaemonEventSource {
    let backendName = "portable (poll, self-pipe, stat)"
    private(set) var wakeUps = 0
    /// How often an idle daemon looks at the Lanefile: the only wake-up it makes without a reason.
    static let lanefileCheckSeconds = 2.0
    /// A long sleep is cut into pieces this long, so a wall clock set forward is noticed in time.
    static let longestSleepSeconds = 60.0
    private static let signals = [SIGINT, SIGTERM, SIGHUP, SIGCHLD]

    /// The pipe's write end, for the signal handler: a handler can only reach a global, so this
    /// is the one there is; set once, before the handlers are installed.
    nonisolated(unsafe) private static var signalPipe: Int32 = -1

    private let readEnd: Int32
    private let lanefile: String?
    private var signature: FileSignature?
    private var deadline: Double?

    init(lanefile: String?) throws(InstallationError) {
        guard Self.signalPipe < 0 else { throw InstallationError("the portable event backend is already open in this process") }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw InstallationError("cannot create the daemon's signal pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        readEnd = ends[0]
        self.lanefile = lanefile
        signature = lanefile.map { FileSignature(path: $0) }
        Self.signalPipe = ends[1]
        // Handlers rather than a blocked mask: poll needs the signal delivered to end its sleep.
        // SA_RESTART keeps other threads' blocking calls from failing with EINTR.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in Self.signals {
            SignalHandler.install(number, flags: Int32(SA_RESTART)) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                let saved = errno
                _ = write(PortableEvents.signalPipe, &byte, 1)  // full pipe: the wake-up is already pending
                errno = saved
            }
            sigaddset(&unblock, number)
        }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    func wake(at secondsSince1970: Double?) { deadline = secondsSince1970 }

    func next(timeoutMilliseconds: Int32) -> [DaemonEvent] {
        let now = Self.now()
        var sleep = Self.longestSleepSeconds
        if let deadline { sleep = min(sleep, max(0, deadline - now)) }
        if lanefile != nil { sleep = min(sleep, Self.lanefileCheckSeconds) }
        if timeoutMilliseconds >= 0 { sleep = min(sleep, Double(timeoutMilliseconds) / 1000) }
        var descriptor = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32((sleep * 1000).rounded(.up)))
        wakeUps += 1
        var events: [DaemonEvent] = []
        if ready > 0 {
            var bytes = [UInt8](repeating: 0, count: 64)
            while true {
                let count = bytes.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                for number in bytes.prefix(count).map(Int32.init) {
                    let event: DaemonEvent = number == SIGCHLD ? .childExited : .stop(signal: number)
                    if !events.contains(event) { events.append(event) }
                }
            }
        }
        if let deadline, Self.now() >= deadline {
            events.append(.due)
            self.deadline = nil  // fires once, as a timer does
        }
        if let lanefile {
            let current = FileSignature(path: lanefile)
            if current != signature {
                signature = current
                events.append(.lanefileChanged)
            }
        }
        return events
    }

    deinit {
        for number in Self.signals { signal(number, SIG_DFL) }
        close(Self.signalPipe)
        close(readEnd)
        Self.signalPipe = -1
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
