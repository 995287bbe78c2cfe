import Foundation
import LanesPlatform

/// A bare HTTP/1.1 client over a socket: it sends the request target exactly as given (no
/// normalisation of `..` or `%2e%2e`, unlike URLSession) and reads until the server closes.
struct RawHTTP {
    struct Response {
        let status: Int
        /// Lower-case names.
        let headers: [String: String]
        let body: String
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    static func request(port: UInt16, _ target: String, method: String = "GET", host: String? = nil,
                        headers: [String: String] = [:]) throws -> Response {
        let descriptor = StreamSocket.open(family: AF_INET)
        guard descriptor >= 0 else { throw Failure(description: "socket") }
        defer { close(descriptor) }
        SocketOptions.setTimeouts(descriptor, receive: 30)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect to \(port): \(String(cString: strerror(errno)))") }
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        let bytes = Array(head.utf8)
        _ = bytes.withUnsafeBytes { StreamSocket.sendAll(descriptor, $0.baseAddress!, $0.count) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw Failure(description: "no response head in: \(text)") }
        var lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure(description: "bad status line") }
        var parsed: [String: String] = [:]
        for line in lines {
            if let colon = line.firstIndex(of: ":") {
                parsed[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return Response(status: status, headers: parsed, body: String(text[split.upperBound...]))
    }
}
