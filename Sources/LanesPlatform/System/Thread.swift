/// A POSIX thread for work that blocks in system calls (pipes, sockets), where a task pool sized to
/// the cores would stall. `pthread_t` is an integer on Linux and a non-optional pointer on Darwin,
/// so the handle stays opaque and each OS file creates it.
public struct PlatformThread: @unchecked Sendable {
    let handle: pthread_t

    final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// The thread's entry: takes back the retained body and runs it.
    static func enter(_ argument: UnsafeMutableRawPointer?) {
        Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue().run()
    }

    /// Starts `body` on a new thread.
    public static func start(_ body: @escaping @Sendable () -> Void) throws(InstallationError) -> PlatformThread {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let (status, handle) = create(context)
        guard status == 0, let handle else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw InstallationError("cannot start a thread: \(String(cString: strerror(status)))")
        }
        return PlatformThread(handle: handle)
    }

    /// Starts `body` on a thread nobody joins.
    public static func detach(_ body: @escaping @Sendable () -> Void) throws(InstallationError) {
        pthread_detach(try start(body).handle)
    }

    /// Waits for the thread to end.
    public func join() { pthread_join(handle, nil) }
}
