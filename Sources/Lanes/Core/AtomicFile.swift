#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so that readers see the old content or the new, never half of either: a temporary
/// file in the same directory, flushed to disk, then renamed over the target.
public enum AtomicFile {
    public static func write(_ text: String, to path: String, permissions: mode_t = 0o644) throws {
        try write(Array(text.utf8), to: path, permissions: permissions)
    }

    public static func write(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o644) throws {
        let temporary = "\(path).lanes-\(getpid())-\(UInt32.random(in: 0 ... .max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw failure("cannot create \(temporary)") }
        var succeeded = false
        defer {
            if !succeeded { unlink(temporary) }
        }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                #if canImport(Glibc)
                Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #else
                Darwin.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                #endif
            }
            if written < 0 {
                if errno == EINTR { continue }
                close(descriptor)
                throw failure("cannot write \(path)")
            }
            offset += written
        }
        guard fsync(descriptor) == 0 else {
            close(descriptor)
            throw failure("cannot flush \(path)")
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else { throw failure("cannot replace \(path)") }
        succeeded = true
    }

    private static func failure(_ what: String) -> LanesError {
        LanesError(.environment, "\(what): \(String(cString: strerror(errno)))")
    }
}
