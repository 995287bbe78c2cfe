import Foundation
import LanesPlatform
import Synchronization

/// Where the server listens: an IPv4 address and a port (0 picks a free one).
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public let host: String
    public let port: UInt16

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// `HOST:PORT` or `PORT` (loopback); nil when malformed.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let port = UInt16(parts.last ?? "") else { return nil }
        let host = parts.count == 2 ? String(parts[0]) : "127.0.0.1"
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else { return nil }
        self.init(host: host, port: port)
    }

    /// 127.0.0.0/8: only this machine can connect.
    public var isLoopback: Bool { host.hasPrefix("127.") }

    public var description: String { "\(host):\(port)" }
}

public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

/// A small HTTP/1.1 server over POSIX sockets: one thread per connection, one request per
/// connection (`Connection: close`), no request bodies. Every response gets the security headers
/// of `SecurityHeaders`. Enough for a local status page; not a general web server.
///
/// Clients cannot exhaust it: at most `maximumConnections` are served at once (the rest get a 503),
/// a request head must arrive within `headSeconds`, and a client that stops reading is dropped after
/// `sendSeconds`. When `accept` fails (out of descriptors) it waits and accepts again.
public final class HTTPServer: @unchecked Sendable {
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// The address actually bound (the port filled in when 0 was asked).
    public let address: ListenAddress
    private let socketDescriptor: Int32
    private let handler: Handler
    private let stopped = Mutex(false)
    private let active = Mutex(0)
    /// Hears problems that do not stop the server (a failing `accept`), for a log line.
    private let report: @Sendable (String) -> Void

    static let maximumHeadBytes = 16 * 1024
    public var maximumConnections = 64
    public var headSeconds = 10.0
    public var sendSeconds = 10.0

    public init(listeningOn requested: ListenAddress, report: @escaping @Sendable (String) -> Void = { _ in },
                handler: @escaping Handler) throws(HTTPServerError) {
        // Close-on-exec: a lane or `lanes list` started while serving must not hold the sockets open.
        let descriptor = StreamSocket.open(family: AF_INET)
        guard descriptor >= 0 else { throw HTTPServerError(description: "cannot create a socket: \(Self.lastError)") }
        SocketOptions.allowAddressReuse(descriptor)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = requested.port.bigEndian
        inet_pton(AF_INET, requested.host, &address.sin_addr)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 64) == 0 else {
            let error = Self.lastError
            close(descriptor)
            throw HTTPServerError(description: "cannot listen on \(requested): \(error)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.address = ListenAddress(host: requested.host, port: UInt16(bigEndian: address.sin_port))
        self.socketDescriptor = descriptor
        self.handler = handler
        self.report = report
    }

    /// Accepts connections until `stop()`. Running out of descriptors or memory is reported and
    /// waited out; it throws only when the listening socket itself is broken.
    public func run() throws(HTTPServerError) {
        var failing = false
        while !stopped.withLock({ $0 }) {
            let client = StreamSocket.accept(from: socketDescriptor)
            if client < 0 {
                let code = errno
                if stopped.withLock({ $0 }) { return }
                if code == EINTR || code == ECONNABORTED || code == EPROTO { continue }
                if [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(code) {
                    if !failing { report("cannot accept connections on \(address): \(String(cString: strerror(code))); retrying") }
                    failing = true
                    usleep(100_000)
                    continue
                }
                throw HTTPServerError(description: "cannot accept connections on \(address): \(String(cString: strerror(code)))")
            }
            if failing { report("accepting connections on \(address) again") }
            failing = false
            let admitted = active.withLock { count in
                guard count < maximumConnections else { return false }
                count += 1
                return true
            }
            let limits = Limits(headSeconds: headSeconds, sendSeconds: sendSeconds)
            guard admitted else {
                Self.refuseBusy(client, limits: limits)
                continue
            }
            let handler = handler
            Thread.detachNewThread { [self] in
                Self.serve(client, handler: handler, limits: limits)
                active.withLock { $0 -= 1 }
            }
        }
    }

    /// Connections being served now.
    public var activeConnections: Int { active.withLock { $0 } }

    struct Limits { let headSeconds: Double; let sendSeconds: Double }

    /// Over the cap: a short 503 that never waits for the client, then close.
    private static func refuseBusy(_ client: Int32, limits: Limits) {
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        write(.text("too many connections; try again\n", status: 503), to: client, omittingBody: false)
        close(client)
    }

    /// Stops accepting; connections being served finish on their own.
    public func stop() {
        stopped.withLock { $0 = true }
        shutdown(socketDescriptor, Int32(SHUT_RDWR))
        close(socketDescriptor)
    }

    private static func serve(_ client: Int32, handler: Handler, limits: Limits) {
        defer { close(client) }
        // Each recv and send waits at most this long: a client that stops reading (a stream it never
        // drains) or trickles its head is dropped instead of holding a thread and its buffers.
        SocketOptions.setTimeouts(client, receive: limits.headSeconds, send: limits.sendSeconds)
        let response: HTTPResponse
        var isHead = false
        switch readHead(client, deadline: Date().addingTimeInterval(limits.headSeconds)) {
        case .tooLarge: response = .text("request head too large\n", status: 431)
        case .malformed: response = .text("bad request\n", status: 400)
        case .head(let head):
            if let request = HTTPRequest.parse(head: head) {
                isHead = request.method == "HEAD"
                response = handler(request)
            } else {
                response = .text("bad request\n", status: 400)
            }
        }
        write(response, to: client, omittingBody: isHead)
    }

    private enum Head { case head(String), tooLarge, malformed }

    /// The request head, which must arrive whole before `deadline` (one byte every few seconds does not keep it).
    private static func readHead(_ client: Int32, deadline: Date) -> Head {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            guard Date() < deadline else { return .malformed }
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return .malformed }
            bytes += buffer[..<count]
            if let end = bytes.firstRange(of: [13, 10, 13, 10]) {
                return String(validating: bytes[..<end.lowerBound], as: UTF8.self).map(Head.head) ?? .malformed
            }
            if bytes.count > maximumHeadBytes { return .tooLarge }
        }
    }

    private static func write(_ response: HTTPResponse, to client: Int32, omittingBody: Bool) {
        var head = "HTTP/1.1 \(response.status) \(HTTPResponse.reason(response.status))\r\n"
        for (name, value) in response.headers + SecurityHeaders.all + [("Connection", "close")] {
            head += "\(name): \(value)\r\n"
        }
        switch response.body {
        case .bytes(let body):
            head += "Content-Length: \(body.count)\r\n\r\n"
            _ = send(client, Array(head.utf8) + (omittingBody ? [] : body))
        case .stream(let produce):
            head += "\r\n"
            guard send(client, Array(head.utf8)), !omittingBody else { return }
            produce { chunk in send(client, Array(chunk.utf8)) }
        }
    }

    /// Writes everything; false once the peer has gone (no SIGPIPE: `StreamSocket`).
    private static func send(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { $0.isEmpty || StreamSocket.sendAll(client, $0.baseAddress!, $0.count) }
    }

    private static var lastError: String { String(cString: strerror(errno)) }
}

/// Headers every response carries: no scripts but the site's own, no framing, no sniffing, no referrer.
enum SecurityHeaders {
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    static let all: [(String, String)] = [
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
    ]
}
