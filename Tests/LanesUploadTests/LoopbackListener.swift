import LanesPlatform
import Foundation
import Testing
import LanesHTTP

/// A listening socket on 127.0.0.1 at a port the kernel picks: what every stand-in server of these
/// tests starts from.
enum LoopbackListener {
    static func open(backlog: Int32 = 16) throws -> (descriptor: Int32, port: UInt16) {
        let descriptor = StreamSocket.open(family: AF_INET)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        try #require(listen(descriptor, backlog) == 0)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        return (descriptor, UInt16(bigEndian: address.sin_port))
    }
}
