#if os(Linux)
internal import CLinuxEvents

extension DaemonEventBackend {
    static func nativeBackend(lanefile: String?) throws(InstallationError) -> any DaemonEventSource {
        try LinuxEvents(lanefile: lanefile)
    }
}

/// The Linux backend: one `poll` on three descriptors and nothing else: a timerfd set to the next
/// due instant (wall clock, absolute, woken early if the clock is set), a signalfd for the signals
/// and inotify on the Lanefile's folder.
final class LinuxEvents: DaemonEventSource {
    let backendName = "linux (timerfd, signalfd, inotify)"
    private let timer: Int32
    private let signals: Int32
    private let watch: Int32
    private let watchedName: String?
    private(set) var wakeUps = 0

    /// Blocks SIGINT, SIGTERM, SIGHUP and SIGCHLD in this thread (call before other threads start)
    /// and watches `lanefile`'s folder for writes and renames of it.
    init(lanefile: String?) throws(InstallationError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGCHLD] { sigaddset(&mask, number) }
        pthread_sigmask(SIG_BLOCK, &mask, nil)
        signals = signalfd(-1, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
        timer = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        watch = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard signals >= 0, timer >= 0, watch >= 0 else {
            throw InstallationError("cannot create the daemon's event descriptors: \(String(cString: strerror(errno)))")
        }
        if let lanefile, let slash = lanefile.lastIndex(of: "/") {
            let folder = String(lanefile[..<slash])
            watchedName = String(lanefile[lanefile.index(after: slash)...])
            let events = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)
            inotify_add_watch(watch, folder.isEmpty ? "/" : folder, events)
        } else {
            watchedName = nil
        }
    }

    deinit {
        close(timer)
        close(signals)
        close(watch)
    }

    /// Sets the timer to fire at `instant` (wall clock); nil disarms it.
    func wake(at secondsSince1970: Double?) {
        var value = itimerspec()
        if let secondsSince1970 {
            let seconds = max(secondsSince1970, 1)  // zero would disarm the timer
            value.it_value.tv_sec = Int(seconds.rounded(.down))
            value.it_value.tv_nsec = Int((seconds - seconds.rounded(.down)) * 1_000_000_000)
        }
        timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET), &value, nil)
    }

    /// Sleeps until something happens (or `timeoutMilliseconds` pass: -1 waits forever) and returns
    /// what happened; empty after a timeout.
    func next(timeoutMilliseconds: Int32) -> [DaemonEvent] {
        var descriptors = [pollfd(fd: timer, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: signals, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: watch, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&descriptors, nfds_t(descriptors.count), timeoutMilliseconds)
        guard ready > 0 else { return [] }
        wakeUps += 1
        var events: [DaemonEvent] = []
        if descriptors[0].revents != 0 {
            var expirations: UInt64 = 0
            _ = read(timer, &expirations, 8)  // ECANCELED when the clock was set: still re-plan
            events.append(.due)
        }
        if descriptors[1].revents != 0 {
            var info = signalfd_siginfo()
            while read(signals, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
                let number = Int32(info.ssi_signo)
                let event: DaemonEvent = number == SIGCHLD ? .childExited : .stop(signal: number)
                if !events.contains(event) { events.append(event) }
            }
        }
        if descriptors[2].revents != 0, changedLanefile() { events.append(.lanefileChanged) }
        return events
    }

    /// Drains inotify events; true when one names the Lanefile.
    private func changedLanefile() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 8192)
        var changed = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(watch, $0.baseAddress, $0.count) }
            guard count > 0 else { return changed }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let (nameLength, name) = buffer.withUnsafeBytes { raw -> (Int, String) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let start = offset + MemoryLayout<inotify_event>.size
                    let bytes = raw[start..<(start + Int(event.len))].prefix { $0 != 0 }
                    return (Int(event.len), String(decoding: bytes, as: UTF8.self))
                }
                if name == watchedName { changed = true }
                offset += MemoryLayout<inotify_event>.size + nameLength
            }
        }
    }
}
#endif
