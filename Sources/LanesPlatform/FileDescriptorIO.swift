#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole reads and writes on a file descriptor, retrying interrupted and short calls: the one loop
/// every module uses instead of its own.
public enum FileDescriptorIO {
    /// Writes all of `bytes`; false (with `errno` set) when the descriptor fails.
    @discardableResult
    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// What `readAll(from:limit:)` found.
    public enum LimitedRead {
        case complete([UInt8])
        /// More than the limit was there: the input was not read to its end (`/dev/zero`, a huge file).
        case tooLarge
        case failed(errno: Int32)
    }

    /// Reads until end of file, but never more than `limit` bytes.
    public static func readAll(from descriptor: Int32, limit: Int) -> LimitedRead {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let wanted = min(buffer.count, limit + 1 - bytes.count)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, wanted) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failed(errno: errno)
            }
            if count == 0 { return .complete(bytes) }
            bytes.append(contentsOf: buffer[0..<count])
            if bytes.count > limit { return .tooLarge }
        }
    }

    /// Reads until end of file; nil (with `errno` set) when the descriptor fails.
    public static func readAll(from descriptor: Int32) -> [UInt8]? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: buffer[0..<count])
        }
    }
}
