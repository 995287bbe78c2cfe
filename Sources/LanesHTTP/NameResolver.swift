internal import LanesPlatform
import Synchronization

/// One address a host name resolved to, copied out of `getaddrinfo`'s list.
public struct ResolvedAddress: Sendable {
    public let family: Int32
    public let socketProtocol: Int32
    /// The `sockaddr` bytes.
    public let bytes: [UInt8]

    public init(family: Int32, socketProtocol: Int32, bytes: [UInt8]) {
        self.family = family
        self.socketProtocol = socketProtocol
        self.bytes = bytes
    }
}

/// Turns a host name into addresses, blocking. The client calls it on a thread of its own with a
/// deadline (`getaddrinfo` has no timeout and cannot be interrupted).
public protocol NameResolver: Sendable {
    func addresses(host: String, port: Int) -> Result<[ResolvedAddress], TransportError>
}

/// The system's resolver (`getaddrinfo`: /etc/hosts, DNS, whatever the machine is set up with).
public struct SystemNameResolver: NameResolver {
    public init() {}

    public func addresses(host: String, port: Int) -> Result<[ResolvedAddress], TransportError> {
        Self.lookup(host: host, port: port, flags: 0)
    }

    package static func lookup(host: String, port: Int, flags: Int32) -> Result<[ResolvedAddress], TransportError> {
        var hints = addrinfo()
        hints.ai_socktype = StreamSocket.streamType
        hints.ai_family = AF_UNSPEC
        hints.ai_flags = flags
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let first = results else {
            return .failure(TransportError(reason: .resolve, detail: "cannot resolve \(host): \(String(cString: gai_strerror(status)))"))
        }
        defer { freeaddrinfo(results) }
        var found: [ResolvedAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            guard let socketAddress = address.pointee.ai_addr else { continue }
            let bytes = Array(UnsafeRawBufferPointer(start: socketAddress, count: Int(address.pointee.ai_addrlen)))
            found.append(ResolvedAddress(family: address.pointee.ai_family, socketProtocol: address.pointee.ai_protocol, bytes: bytes))
        }
        return .success(found)
    }
}

/// Runs a resolver with a deadline: the lookup goes on a detached thread and the caller waits at
/// most `timeout` (watching `cancellation`); a lookup that ends later is dropped by its thread.
/// IP literals need no lookup and are converted on the spot.
package enum DeadlineResolution {
    package static func resolve(host: String, port: Int, timeout: Double, resolver: any NameResolver,
                        cancellation: TransferCancellation?) throws(TransportError) -> [ResolvedAddress] {
        if TLSContext.isIPLiteral(host) {
            return try SystemNameResolver.lookup(host: host, port: port, flags: AI_NUMERICHOST).get()
        }
        let outcome = Mutex<Result<[ResolvedAddress], TransportError>?>(nil)
        do {
            try PlatformThread.detach { let found = resolver.addresses(host: host, port: port); outcome.withLock { $0 = found } }
        } catch {
            return try resolver.addresses(host: host, port: port).get()
        }
        var waited = 0.0
        while true {
            if let result = outcome.withLock({ $0 }) { return try result.get() }
            if let cancellation, cancellation.isCancelled { throw cancellation.error }
            guard waited < timeout else {
                throw TransportError(reason: .resolve, detail: "resolving \(host) took longer than \(timeout.formattedSeconds) s (DNS timeout): check the host name and this machine's DNS servers")
            }
            _ = poll(nil, 0, 10)
            waited += 0.01
        }
    }
}

extension Double {
    /// `2`, `0.5`: seconds as a person writes them.
    package var formattedSeconds: String {
        self == self.rounded() ? String(Int(self)) : String(self)
    }
}
