#if canImport(Darwin)
extension DaemonEventBackend {
    static func nativeBackend(lanefile: String?) throws(InstallationError) -> any DaemonEventSource {
        try KqueueEvents(lanefile: lanefile)
    }
}

/// The Darwin backend: one `kevent` wait on a kqueue holding a one-shot `EVFILT_TIMER` for the next
/// due instant, `EVFILT_SIGNAL` for the daemon's signals and `EVFILT_VNODE` on the Lanefile and its
/// folder (a save by rename writes the folder). A vnode event is confirmed with a stat, and the
/// file's watch is renewed, since a rename leaves the old vnode behind.
final class KqueueEvents: DaemonEventSource {
    let backendName = "kqueue (EVFILT_TIMER, EVFILT_SIGNAL, EVFILT_VNODE)"
    private(set) var wakeUps = 0
    /// A long timer is cut into pieces this long, so a wall clock set forward is noticed in time
    /// (the timer counts elapsed time, not the wall clock).
    static let longestSleepMilliseconds = 60_000
    /// A timer's interval counts on while the Mac sleeps (`NOTE_MACH_CONTINUOUS_TIME`, sys/event.h):
    /// without it the interval is mach absolute time, which stops during sleep, so a piece armed
    /// before sleep would fire up to its whole length after the wake-up instead of at once.
    private static let timerClock = UInt32(NOTE_MACH_CONTINUOUS_TIME)
    private static let timerIdentifier: UInt = 1
    private static let stopSignals = [SIGINT, SIGTERM, SIGHUP]

    private let queue: Int32
    private let lanefile: String?
    private var folderWatch: Int32 = -1
    private var fileWatch: Int32 = -1
    private var signature: FileSignature?
    private var deadline: Double?

    init(lanefile: String?) throws(InstallationError) {
        queue = kqueue()
        guard queue >= 0 else { throw InstallationError("cannot create the daemon's kqueue: \(String(cString: strerror(errno)))") }
        _ = fcntl(queue, F_SETFD, FD_CLOEXEC)
        self.lanefile = lanefile
        // EVFILT_SIGNAL records a signal even when it is ignored, and ignoring it keeps the default
        // action (termination) from running. SIGCHLD keeps its default (ignored without reaping),
        // so waitpid still sees the children.
        for number in Self.stopSignals { signal(number, SIG_IGN) }
        for number in Self.stopSignals + [SIGCHLD] {
            change(ident: UInt(number), filter: Int16(EVFILT_SIGNAL), flags: UInt16(EV_ADD), fflags: 0, data: 0)
        }
        if let lanefile {
            signature = FileSignature(path: lanefile)
            let slash = lanefile.lastIndex(of: "/")
            let folder = slash.map { String(lanefile[..<$0]) } ?? "."
            folderWatch = watchVnode(folder.isEmpty ? "/" : folder)
            fileWatch = watchVnode(lanefile)
        }
    }

    deinit {
        for number in Self.stopSignals { signal(number, SIG_DFL) }
        if folderWatch >= 0 { close(folderWatch) }
        if fileWatch >= 0 { close(fileWatch) }
        close(queue)
    }

    func wake(at secondsSince1970: Double?) {
        deadline = secondsSince1970
        armTimer()
    }

    func next(timeoutMilliseconds: Int32) -> [DaemonEvent] {
        var timeout = timespec(tv_sec: Int(timeoutMilliseconds / 1000), tv_nsec: Int(timeoutMilliseconds % 1000) * 1_000_000)
        // In an expression `kevent` names the function (sys/event.h declares both): the type goes in the annotation.
        var received: [kevent] = Array(repeating: kevent(), count: 8)
        let count = timeoutMilliseconds < 0
            ? kevent(queue, nil, 0, &received, Int32(received.count), nil)
            : kevent(queue, nil, 0, &received, Int32(received.count), &timeout)
        guard count > 0 else { return [] }
        wakeUps += 1
        var events: [DaemonEvent] = []
        var vnodeChanged = false
        for item in received.prefix(Int(count)) {
            switch Int32(item.filter) {
            case EVFILT_TIMER:
                if let deadline, Self.now() >= deadline {
                    events.append(.due)
                    self.deadline = nil
                } else {
                    armTimer()  // a piece of a long sleep ended
                }
            case EVFILT_SIGNAL:
                let number = Int32(item.ident)
                let event: DaemonEvent = number == SIGCHLD ? .childExited : .stop(signal: number)
                if !events.contains(event) { events.append(event) }
            case EVFILT_VNODE:
                vnodeChanged = true
            default:
                break
            }
        }
        if vnodeChanged, let lanefile {
            if fileWatch >= 0 { close(fileWatch) }  // closing removes its event
            fileWatch = watchVnode(lanefile)
            let current = FileSignature(path: lanefile)
            if current != signature {
                signature = current
                events.append(.lanefileChanged)
            }
        }
        return events
    }

    /// A one-shot timer for the time left to `deadline`, at most `longestSleepMilliseconds`; deleted when there is none.
    private func armTimer() {
        guard let deadline else {
            change(ident: Self.timerIdentifier, filter: Int16(EVFILT_TIMER), flags: UInt16(EV_DELETE), fflags: 0, data: 0)
            return
        }
        let milliseconds = min(Self.longestSleepMilliseconds, max(0, Int(((deadline - Self.now()) * 1000).rounded(.up))))
        // EV_ADD on an existing identifier replaces its period; the unit is milliseconds by default.
        change(ident: Self.timerIdentifier, filter: Int16(EVFILT_TIMER), flags: UInt16(EV_ADD | EV_ONESHOT), fflags: Self.timerClock,
               data: milliseconds)
    }

    /// Opens `path` for events only (`O_EVTONLY`: it does not keep a volume from unmounting) and
    /// watches writes, growth, attribute changes, deletion and renames; the descriptor, or -1.
    private func watchVnode(_ path: String) -> Int32 {
        let descriptor = open(path, O_EVTONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return -1 }
        let notes = UInt32(NOTE_WRITE | NOTE_EXTEND | NOTE_ATTRIB | NOTE_DELETE | NOTE_RENAME)
        change(ident: UInt(descriptor), filter: Int16(EVFILT_VNODE), flags: UInt16(EV_ADD | EV_CLEAR), fflags: notes, data: 0)
        return descriptor
    }

    private func change(ident: UInt, filter: Int16, flags: UInt16, fflags: UInt32, data: Int) {
        var event = kevent(ident: ident, filter: filter, flags: flags, fflags: fflags, data: data, udata: nil)
        _ = kevent(queue, &event, 1, nil, 0, nil)
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
#endif
