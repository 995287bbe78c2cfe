import Foundation
import LanesPlatform
import Testing
import LanesHTTP

/// A TCP proxy on 127.0.0.1 in front of a real server, that breaks things once on purpose:
/// it cuts the connection after a number of request bytes (a network failure in the middle of a
/// part), or flips one request byte (corruption the server's Content-MD5 check must catch).
final class FaultProxy: @unchecked Sendable {
    enum Fault: Sendable {
        /// Reset the connection once the proxy has forwarded this many request bytes in total.
        case cutAfter(Int)
        /// Invert the byte at this offset of the request stream of the first connection that reaches it.
        case corruptByte(at: Int)
    }

    let port: UInt16
    private let listener: Int32
    private let upstreamPort: UInt16
    private let fault: Fault
    private let lock = NSLock()
    private var forwarded = 0
    private var triggered = 0

    /// How many times the fault fired.
    var faults: Int { lock.withLock { triggered } }

    init(upstream: String, fault: Fault) throws {
        let url = try #require(URL(string: upstream))
        upstreamPort = UInt16(try #require(url.port))
        self.fault = fault
        let (descriptor, port) = try LoopbackListener.open(backlog: 64)
        self.port = port
        listener = descriptor
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    var url: String { "http://127.0.0.1:\(port)" }

    deinit { shutdown(listener, Int32(SHUT_RDWR)); close(listener) }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            let server = StreamSocket.open(family: AF_INET)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = upstreamPort.bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { close(client); close(server); continue }
            let pair = SocketPair(client: client, server: server)
            Thread { [self] in pumpRequests(from: client, to: server); pair.done() }.start()
            Thread { [self] in pumpResponses(from: server, to: client); pair.done() }.start()
        }
    }

    private func pumpRequests(from client: Int32, to server: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var streamOffset = 0
        while true {
            let count = read(client, &buffer, buffer.count)
            if count <= 0 { break }
            var cut = false
            lock.withLock {
                switch fault {
                case .cutAfter(let limit):
                    if triggered == 0 && forwarded + count > limit { triggered = 1; cut = true }
                case .corruptByte(let offset):
                    if triggered == 0 && streamOffset <= offset && offset < streamOffset + count {
                        buffer[offset - streamOffset] ^= 0xff
                        triggered = 1
                    }
                }
                forwarded += count
            }
            if cut {
                // A reset, as a dropped link looks to the client: no orderly end of the request.
                SocketOptions.resetOnClose(client)
                break
            }
            streamOffset += count
            if write(server, buffer, count) != count { break }
        }
        shutdown(server, Int32(SHUT_RDWR))
        shutdown(client, Int32(SHUT_RDWR))
    }

    private func pumpResponses(from server: Int32, to client: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(server, &buffer, buffer.count)
            if count <= 0 { break }
            if write(client, buffer, count) != count { break }
        }
        shutdown(client, Int32(SHUT_RDWR))
        shutdown(server, Int32(SHUT_RDWR))
    }
}

/// Closes both sockets once both directions are done, so neither pump writes to a reused descriptor.
private final class SocketPair: @unchecked Sendable {
    private let lock = NSLock()
    private var remaining = 2
    let client: Int32, server: Int32

    init(client: Int32, server: Int32) { self.client = client; self.server = server }

    func done() {
        let last = lock.withLock { remaining -= 1; return remaining == 0 }
        if last { close(client); close(server) }
    }
}
