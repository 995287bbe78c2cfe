internal import COpenSSL
internal import LanesPlatform

/// Per-request time limits. Each applies to one step of one request (connecting; any single wait
/// for the peer to accept or send bytes), never to the whole transfer: a 2 GB upload that keeps
/// moving never times out, a stalled one does within `idle`.
public struct RequestTimeouts: Sendable, Hashable {
    public var connect: Double
    public var idle: Double

    /// Resolving a host name (`getaddrinfo` on a thread of its own, as it has no timeout).
    public var resolve: Double
    /// How long a request sent with `Expect: 100-continue` waits for the interim answer before it
    /// sends its body anyway, as curl does (a server that ignores the header then still gets it).
    public var continueWait: Double

    public init(connect: Double = 15, idle: Double = 60, resolve: Double = 15, continueWait: Double = 1) {
        self.connect = connect
        self.idle = idle
        self.resolve = resolve
        self.continueWait = continueWait
    }
}

/// One TCP connection, optionally under TLS, speaking HTTP/1.1 with keep-alive.
/// Used by one thread at a time: the pool hands it out exclusively.
package final class HTTPConnection: @unchecked Sendable {
    package let origin: String
    private let descriptor: Int32
    private let tls: OpaquePointer?
    private var buffer = [UInt8](repeating: 0, count: 65536)
    private var bufferStart = 0
    private var bufferEnd = 0
    private(set) var reusable = true
    /// Bytes of the current response's head read so far (status lines and headers, `100 Continue`s included).
    private var headBytes = 0

    /// What a response may cost, whatever the server sends: upload APIs answer in a few kilobytes,
    /// so a head, a body or a run of `1xx` answers beyond these is refused, not buffered.
    package static let maximumHead = 64 << 10
    package static let maximumInformational = 16
    /// The current request's `maximumResponseBody`.
    private var maximumBody = 16 << 20

    /// The proxy a plain-http connection goes through: requests then name the absolute URL.
    private let proxy: ProxyServer?

    private init(origin: String, descriptor: Int32, tls: OpaquePointer?, proxy: ProxyServer?) {
        self.origin = origin
        self.descriptor = descriptor
        self.tls = tls
        self.proxy = proxy
    }

    deinit {
        if let tls {
            StreamSocket.withoutBrokenPipeSignal { _ = SSL_shutdown(tls) }
            SSL_free(tls)
        }
        close(descriptor)
    }

    /// Makes a blocked `send`/`recv` on this connection return (from another thread): the
    /// descriptor stays open, so it cannot be reused for another file meanwhile.
    package func interrupt() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Connects to `url`'s server, or through `proxy`: to the proxy, with a `CONNECT` tunnel for https.
    package static func open(to url: HTTPURL, timeouts: RequestTimeouts, tlsContext: TLSContext, proxy: ProxyServer? = nil,
                     resolver: any NameResolver = SystemNameResolver(),
                     cancellation: TransferCancellation? = nil) throws(TransportError) -> HTTPConnection {
        let server = proxy?.url ?? url
        let addresses: [ResolvedAddress]
        do {
            addresses = try DeadlineResolution.resolve(host: server.host, port: server.port, timeout: timeouts.resolve,
                                                       resolver: resolver, cancellation: cancellation)
        } catch {
            throw proxy == nil ? error : TransportError(reason: error.reason, detail: "\(error.detail) (the proxy \(server.origin))")
        }
        var lastError = "no address"
        for address in addresses {
            let descriptor = StreamSocket.open(family: address.family, protocol: address.socketProtocol)
            guard descriptor >= 0 else { lastError = String(cString: strerror(errno)); continue }
            let failure = address.bytes.withUnsafeBytes { raw in
                connect(descriptor, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count),
                        timeout: timeouts.connect, cancellation: cancellation)
            }
            if let failure {
                close(descriptor)
                lastError = failure
                continue
            }
            configure(descriptor, idle: timeouts.idle)
            do {
                if let proxy, url.isTLS { try tunnel(descriptor, to: url, through: proxy) }
                guard url.isTLS else { return HTTPConnection(origin: url.origin, descriptor: descriptor, tls: nil, proxy: proxy) }
                let session = try tlsContext.handshake(descriptor: descriptor, host: url.host)
                return HTTPConnection(origin: url.origin, descriptor: descriptor, tls: session, proxy: nil)
            } catch {
                close(descriptor)
                throw error
            }
        }
        if let cancellation, cancellation.isCancelled { throw cancellation.error }
        if let proxy { throw TransportError(reason: .connect, detail: "cannot connect to the proxy \(proxy) (for \(url.origin)): \(lastError)") }
        throw TransportError(reason: .connect, detail: "cannot connect to \(url.origin): \(lastError)")
    }

    /// Asks `proxy` for a tunnel to `url`'s server (RFC 9110's CONNECT) and reads its answer byte by
    /// byte, so that nothing of the TLS handshake that follows is taken for the proxy's.
    private static func tunnel(_ descriptor: Int32, to url: HTTPURL, through proxy: ProxyServer) throws(TransportError) {
        let target = "\(url.host.contains(":") ? "[\(url.host)]" : url.host):\(url.port)"
        var head = "CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\n"
        if let authorization = proxy.authorization { head += "Proxy-Authorization: \(authorization)\r\n" }
        head += "\r\n"
        let bytes = Array(head.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { StreamSocket.send(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw TransportError(reason: .connect, detail: "the proxy \(proxy) closed the connection before CONNECT \(target) was sent") }
            offset += written
        }
        var answer: [UInt8] = []
        var byte: UInt8 = 0
        while !(answer.count >= 4 && answer.suffix(4).elementsEqual("\r\n\r\n".utf8)) {
            guard answer.count < maximumHead else { throw TransportError(reason: .protocolViolation, detail: "the proxy \(proxy) sent an answer to CONNECT over \(maximumHead >> 10) KiB") }
            let count = recv(descriptor, &byte, 1, 0)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else {
                throw TransportError(reason: count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? .timeout : .connect,
                                     detail: "the proxy \(proxy) did not answer CONNECT \(target)")
            }
            answer.append(byte)
        }
        let statusLine = String(decoding: answer.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw TransportError(reason: .protocolViolation, detail: "the proxy \(proxy) sent a malformed answer to CONNECT \(target)")
        }
        switch status {
        case 200..<300: return
        case 407:
            throw TransportError(reason: .proxy, detail: proxy.authorization == nil
                ? "the proxy \(proxy) wants credentials (407): put them in the proxy variable as http://USER:PASSWORD@host:port"
                : "the proxy \(proxy) refused its credentials (407): check the user and password in the proxy variable")
        default:
            let reason = parts.count > 2 ? " \(parts[2])" : ""
            throw TransportError(reason: .proxy, detail: "the proxy \(proxy) refused a tunnel to \(target): \(status)\(reason); check NO_PROXY or the proxy's rules")
        }
    }

    /// A non-blocking connect bounded by `timeout`, watched in 50 ms slices for cancellation; the
    /// error text, or nil once connected.
    private static func connect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t, timeout: Double,
                                cancellation: TransferCancellation?) -> String? {
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(descriptor, F_SETFL, flags) }
        if LanesPlatform.connect(descriptor, address, length) == 0 { return nil }
        guard errno == EINPROGRESS else { return String(cString: strerror(errno)) }
        var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        var waited = 0
        var ready: Int32 = 0
        while waited < Int(timeout * 1000) {
            if cancellation?.isCancelled == true { return "cancelled" }
            let slice = min(50, Int(timeout * 1000) - waited)
            ready = poll(&poller, 1, Int32(slice))
            if ready != 0 { break }
            waited += slice
        }
        if ready == 0 { return "connect timed out after \(timeout) s" }
        if ready < 0 { return String(cString: strerror(errno)) }
        let code = SocketOptions.pendingError(descriptor)
        return code == 0 ? nil : String(cString: strerror(code))
    }

    private static func configure(_ descriptor: Int32, idle: Double) {
        SocketOptions.setTimeouts(descriptor, receive: idle, send: idle)
        SocketOptions.disableCoalescing(descriptor)
        // Large send buffers keep a fast link full while the sender reads the next block.
        SocketOptions.setBufferSizes(descriptor, send: 4 << 20)
    }

    /// Whether the server closed this idle connection (readable with nothing, or EOF): then it is
    /// not reused, which would fail the next request for nothing.
    package var isStale: Bool {
        if bufferEnd > bufferStart { return true }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) != 0
    }

    // MARK: - Exchange

    /// Sends `request` and reads the whole response. `onSent` hears each block of body bytes written.
    /// With `continueWait`, the head carries `Expect: 100-continue` and the body waits up to that
    /// long for the server's `100 Continue`: a final answer instead (a refusal, a redirect) comes
    /// back without the body ever going out, and the connection is not reused.
    package func exchange(_ request: HTTPRequest, continueWait: Double? = nil, onSent: (Int64) -> Void) throws(TransportError) -> HTTPResponse {
        reusable = false
        // A CR or LF in the target or a header would end the line and let the rest inject headers.
        for text in [request.method, request.url.target] + request.headers.flatMap({ [$0.name, $0.value] })
        where text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7f }) {
            throw TransportError(reason: .protocolViolation, detail: "refusing to send a request to \(origin) with a control character (CR, LF) in its target or headers")
        }
        // Through a proxy, plain http names the whole URL and carries the proxy's credentials.
        let target = proxy == nil ? request.url.target : request.url.origin + request.url.target
        var head = "\(request.method) \(target) HTTP/1.1\r\nHost: \(request.url.authority)\r\n"
        if let authorization = proxy?.authorization { head += "Proxy-Authorization: \(authorization)\r\n" }
        for header in request.headers { head += "\(header.name): \(header.value)\r\n" }
        if request.header("Content-Length") == nil && (request.body.length > 0 || ["PUT", "POST", "PATCH"].contains(request.method)) {
            head += "Content-Length: \(request.body.length)\r\n"
        }
        if continueWait != nil { head += "Expect: 100-continue\r\n" }
        head += "\r\n"
        try writeAll(Array(head.utf8))
        maximumBody = request.maximumResponseBody
        headBytes = 0
        if let continueWait, try waitForAnswer(seconds: continueWait) {
            let early = try readResponse(isHead: request.method == "HEAD", stopAtContinue: true)
            if early.status != 100 {
                reusable = false  // the server may still expect the body we never sent
                return early
            }
        }
        try sendBody(request.body, onSent: onSent)
        return try readResponse(isHead: request.method == "HEAD", stopAtContinue: false)
    }

    /// Whether the server says something within `seconds` (bytes already buffered count).
    private func waitForAnswer(seconds: Double) throws(TransportError) -> Bool {
        if bufferEnd > bufferStart { return true }
        if let tls, SSL_pending(tls) > 0 { return true }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&poller, 1, Int32(seconds * 1000))
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 { throw socketError(writing: false) }
            return ready > 0
        }
    }

    private func sendBody(_ body: RequestBody, onSent: (Int64) -> Void) throws(TransportError) {
        switch body {
        case .empty: return
        case .bytes(let bytes):
            try writeAll(bytes)
            onSent(Int64(bytes.count))
        case .file(let path, let offset, let length):
            let file: PositionedFile
            do { file = try PositionedFile.open(path) } catch { throw TransportError(reason: .protocolViolation, detail: error.description) }
            defer { file.close() }
            if tls == nil {
                // Plain TCP: on Linux the kernel copies from the page cache to the socket (no user-space copy).
                var position = off_t(offset)
                let end = off_t(offset + length)
                while position < end {
                    let sent = StreamSocket.sendFile(file.descriptor, to: descriptor, offset: &position, count: Int(min(off_t(1 << 20), end - position)))
                    if sent < 0 {
                        if errno == EINTR { continue }
                        throw socketError(writing: true)
                    }
                    if sent == 0 { throw TransportError(reason: .protocolViolation, detail: "\(path) shrank while it was being uploaded") }
                    onSent(Int64(sent))
                }
                return
            }
            var block = [UInt8](repeating: 0, count: 256 << 10)
            var sent: Int64 = 0
            while sent < length {
                let wanted = Int(min(Int64(block.count), length - sent))
                let count: Int
                do { count = try file.read(into: &block, count: wanted, at: offset + sent) } catch {
                    throw TransportError(reason: .protocolViolation, detail: error.description)
                }
                try writeAll(block, count: count)
                sent += Int64(count)
                onSent(Int64(count))
            }
        }
    }

    private func writeAll(_ bytes: [UInt8], count total: Int? = nil) throws(TransportError) {
        let total = total ?? bytes.count
        var offset = 0
        while offset < total {
            if let tls {
                var count = 0
                let result = bytes.withUnsafeBytes { bytes in
                    StreamSocket.withoutBrokenPipeSignal { SSL_write_ex(tls, bytes.baseAddress! + offset, total - offset, &count) }
                }
                if result != 1 { throw tlsIOError(tls, result, writing: true) }
                offset += count
            } else {
                let written = bytes.withUnsafeBytes { StreamSocket.send(descriptor, $0.baseAddress! + offset, total - offset) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw socketError(writing: true)
                }
                offset += written
            }
        }
    }

    private func socketError(writing: Bool) -> TransportError {
        if errno == EAGAIN || errno == EWOULDBLOCK {
            return TransportError(reason: .timeout, detail: "\(origin) \(writing ? "accepted" : "sent") nothing for too long (idle timeout)")
        }
        return TransportError(reason: .reset, detail: "connection to \(origin) failed while \(writing ? "sending" : "receiving"): \(String(cString: strerror(errno)))")
    }

    private func tlsIOError(_ tls: OpaquePointer, _ result: Int32, writing: Bool) -> TransportError {
        let code = SSL_get_error(tls, result)
        ERR_clear_error()
        if code == SSL_ERROR_SYSCALL || code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE { return socketError(writing: writing) }
        if code == SSL_ERROR_ZERO_RETURN { return TransportError(reason: .reset, detail: "\(origin) closed the connection") }
        return TransportError(reason: .reset, detail: "TLS error \(code) talking to \(origin)")
    }

    /// Fills the buffer with more bytes from the peer; false at end of stream.
    private func fill() throws(TransportError) -> Bool {
        if bufferStart > 0 {
            let pending = bufferEnd - bufferStart
            if pending > 0 { buffer.withUnsafeMutableBytes { raw in _ = memmove(raw.baseAddress!, raw.baseAddress! + bufferStart, pending) } }
            bufferStart = 0
            bufferEnd = pending
        }
        if bufferEnd == buffer.count { buffer.append(contentsOf: [UInt8](repeating: 0, count: buffer.count)) }
        while true {
            let count: Int = buffer.withUnsafeMutableBytes { raw in
                let start = raw.baseAddress! + bufferEnd
                let room = raw.count - bufferEnd
                if let tls {
                    var got = 0
                    let result = StreamSocket.withoutBrokenPipeSignal { SSL_read_ex(tls, start, room, &got) }  // TLS reads may write
                    return result == 1 ? got : -Int(SSL_get_error(tls, result)) - 1000
                }
                return recv(descriptor, start, room, 0)
            }
            if count > 0 { bufferEnd += count; return true }
            if count == 0 { return false }
            if tls != nil {
                let code = Int32(-(count + 1000))
                ERR_clear_error()
                if code == SSL_ERROR_ZERO_RETURN { return false }
                if code == SSL_ERROR_SYSCALL && errno == 0 { return false }
                throw socketError(writing: false)
            }
            if errno == EINTR { continue }
            throw socketError(writing: false)
        }
    }

    /// One line of a response head (or of chunk framing), counted against `maximumHead`.
    private func readLine() throws(TransportError) -> String {
        while true {
            if let newline = buffer[bufferStart..<bufferEnd].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > bufferStart && buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = String(decoding: buffer[bufferStart..<end], as: UTF8.self)
                headBytes += newline + 1 - bufferStart
                bufferStart = newline + 1
                if headBytes > Self.maximumHead { throw headTooLarge() }
                return line
            }
            if headBytes + bufferEnd - bufferStart > Self.maximumHead { throw headTooLarge() }
            guard try fill() else { throw TransportError(reason: .reset, detail: "\(origin) closed the connection before answering") }
        }
    }

    private func headTooLarge() -> TransportError {
        TransportError(reason: .protocolViolation, detail: "\(origin) sent a response head (or chunk framing) over \(Self.maximumHead >> 10) KiB; refused")
    }

    private func bodyTooLarge() -> TransportError {
        TransportError(reason: .protocolViolation, detail: "\(origin) sent a response body over \(maximumBody >> 20) MiB; refused")
    }

    private func readExactly(_ count: Int, into body: inout [UInt8]) throws(TransportError) {
        var remaining = count
        while remaining > 0 {
            if bufferEnd == bufferStart {
                guard try fill() else { throw TransportError(reason: .reset, detail: "\(origin) closed the connection in the middle of a response") }
            }
            let take = min(remaining, bufferEnd - bufferStart)
            body.append(contentsOf: buffer[bufferStart..<bufferStart + take])
            bufferStart += take
            remaining -= take
        }
    }

    /// Reads a response; with `stopAtContinue`, a `100 Continue` is returned rather than skipped.
    /// The head budget counts from the request, across interim answers.
    private func readResponse(isHead: Bool, stopAtContinue: Bool) throws(TransportError) -> HTTPResponse {
        var informational = 0
        while true {
            let statusLine = try readLine()
            let parts = statusLine.split(separator: " ", maxSplits: 2)
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
                throw TransportError(reason: .protocolViolation, detail: "\(origin) sent a malformed status line")
            }
            var headers: [(name: String, value: String)] = []
            while true {
                let line = try readLine()
                if line.isEmpty { break }
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers.append((String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingSpaces))
            }
            if (100..<200).contains(status) {
                informational += 1
                guard informational <= Self.maximumInformational else {
                    throw TransportError(reason: .protocolViolation, detail: "\(origin) sent more than \(Self.maximumInformational) interim (1xx) responses; refused")
                }
                if status == 100 && stopAtContinue { return HTTPResponse(status: status, headers: headers, body: []) }
                continue
            }
            let response = HTTPResponse(status: status, headers: headers, body: [])
            var body: [UInt8] = []
            let noBody = isHead || status == 204 || status == 304
            var canReuse = response.header("Connection")?.lowercased() != "close" && parts[0] == "HTTP/1.1"
            if noBody {
            } else if response.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
                while true {
                    headBytes = 0  // each framing line has the head's budget; the body has its own
                    let sizeLine = try readLine()
                    guard let size = Int(sizeLine.split(separator: ";").first.map(String.init)?.trimmingSpaces ?? "", radix: 16) else {
                        throw TransportError(reason: .protocolViolation, detail: "\(origin) sent a malformed chunk size")
                    }
                    if size == 0 {
                        while try !readLine().isEmpty {}
                        break
                    }
                    guard size <= maximumBody - body.count else { throw bodyTooLarge() }
                    try readExactly(size, into: &body)
                    _ = try readLine()
                }
            } else if let lengthText = response.header("Content-Length"), let length = Int(lengthText), length >= 0 {
                guard length <= maximumBody else { throw bodyTooLarge() }
                try readExactly(length, into: &body)
            } else {
                canReuse = false
                while try fill() {
                    guard bufferEnd - bufferStart <= maximumBody else { throw bodyTooLarge() }
                }
                body.append(contentsOf: buffer[bufferStart..<bufferEnd])
                bufferStart = bufferEnd
            }
            reusable = canReuse
            return HTTPResponse(status: status, headers: headers, body: body)
        }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (header values, INI lines).
    package var trimmingSpaces: String {
        var view = Substring(self)
        while view.first == " " || view.first == "\t" { view = view.dropFirst() }
        while view.last == " " || view.last == "\t" { view = view.dropLast() }
        return String(view)
    }
}

/// An OpenSSL client context: the system's trust store (or `SSL_CERT_FILE`), TLS 1.2 or later,
/// host name verification. Thread-safe for making sessions.
package final class TLSContext: @unchecked Sendable {
    private let context: OpaquePointer?

    package init() {
        OpenSSLStart.ensure()
        // OpenSSL writes to the socket itself, with no per-call flag against SIGPIPE: every SSL_* call that may write
        // runs in `StreamSocket.withoutBrokenPipeSignal`, so SIGPIPE stays as the lane set it.
        context = SSL_CTX_new(TLS_client_method())
        if let context {
            SSL_CTX_set_default_verify_paths(context)
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
            SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(TLS1_2_VERSION), nil)
        }
    }

    deinit { if let context { SSL_CTX_free(context) } }

    package func handshake(descriptor: Int32, host: String) throws(TransportError) -> OpaquePointer {
        ERR_clear_error()
        guard let context, let session = SSL_new(context) else {
            throw TransportError(reason: .tls, detail: "cannot create a TLS session")
        }
        SSL_set_fd(session, descriptor)
        // SNI carries host names only (RFC 6066); SSL_set1_host checks an IP literal against the
        // certificate's IP addresses. A name it cannot take would mean no host check at all.
        if !Self.isIPLiteral(host) { _ = lanes_SSL_set_tlsext_host_name(session, host) }
        guard SSL_set1_host(session, host) == 1 else {
            SSL_free(session)
            throw TransportError(reason: .certificate, detail: "cannot check TLS certificates for the host name \(host)")
        }
        let result = StreamSocket.withoutBrokenPipeSignal { SSL_connect(session) }
        guard result == 1 else {
            let verify = SSL_get_verify_result(session)
            ERR_clear_error()
            SSL_free(session)
            guard verify != X509_V_OK else {
                throw TransportError(reason: .tls, detail: "TLS handshake with \(host) failed (the server broke off or offers no TLS 1.2 or later)")
            }
            let why = String(cString: X509_verify_cert_error_string(verify))
            throw TransportError(reason: .certificate, detail: "the TLS certificate of \(host) was refused: \(why) (\(Self.hint(forVerifyResult: verify)))")
        }
        return session
    }

    /// What to do about a refused certificate, by cause: a CA bundle helps only for an unknown issuer.
    package static func hint(forVerifyResult code: Int) -> String {
        switch Int32(code) {
        case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH:
            return "the certificate is for another host name: check the URL, or the server's certificate"
        case X509_V_ERR_CERT_HAS_EXPIRED, X509_V_ERR_CERT_NOT_YET_VALID:
            return "the certificate is outside its validity period: renew it on the server, or check this machine's clock"
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
             X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT,
             X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
            return "its issuer is not trusted here: for a private CA set SSL_CERT_FILE to a bundle that holds it"
        default:
            return "check the server's certificate chain"
        }
    }

    package static func isIPLiteral(_ host: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
    }
}
