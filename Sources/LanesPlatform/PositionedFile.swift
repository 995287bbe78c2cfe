#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A regular file opened for positioned reads, so several parts are read at once without sharing an
/// offset (artifact uploads, an HTTP body streamed from disk, digests). Sendable: `pread` does not
/// move a shared offset.
public final class PositionedFile: @unchecked Sendable {
    /// Why a file could not be opened or read.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let path: String
        public let problem: String
        public var description: String { "\(path): \(problem)" }
    }

    public let path: String
    public let descriptor: Int32
    public let size: Int64
    private var isOpen = true

    private init(path: String, descriptor: Int32, size: Int64) {
        self.path = path
        self.descriptor = descriptor
        self.size = size
    }

    public static func open(_ path: String) throws(Failure) -> PositionedFile {
        let descriptor = openForReading(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(path: path, problem: String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            closeDescriptor(descriptor)
            throw Failure(path: path, problem: String(cString: strerror(code)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            closeDescriptor(descriptor)
            throw Failure(path: path, problem: "not a regular file")
        }
        return PositionedFile(path: path, descriptor: descriptor, size: Int64(info.st_size))
    }

    /// Reads up to `count` bytes at `offset` into the start of `buffer`; fails on a short file
    /// (it shrank while being read).
    public func read(into buffer: inout [UInt8], count wanted: Int, at offset: Int64) throws(Failure) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, off_t(offset)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(path: path, problem: String(cString: strerror(errno)))
            }
            if count == 0 && wanted > 0 { throw Failure(path: path, problem: "the file shrank while it was being read") }
            return count
        }
    }

    /// Fills the first `count` bytes of `buffer` from `offset`, however many reads that takes.
    public func readExactly(into buffer: inout [UInt8], count: Int, at offset: Int64) throws(Failure) {
        var filled = 0
        while filled < count {
            let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled)) }
            if got < 0 {
                if errno == EINTR { continue }
                throw Failure(path: path, problem: String(cString: strerror(errno)))
            }
            if got == 0 { throw Failure(path: path, problem: "the file shrank while it was being read") }
            filled += got
        }
    }

    public func close() {
        guard isOpen else { return }
        isOpen = false
        closeDescriptor(descriptor)
    }

    deinit { close() }
}

/// The C library's calls, named apart from the methods above that shadow them.
private func openForReading(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }
