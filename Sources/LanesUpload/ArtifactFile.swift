internal import LanesPlatform

/// An artifact opened for positioned reads, so several parts are read at once without sharing an offset.
/// Sendable: `pread` does not move a shared offset.
final class ArtifactFile: @unchecked Sendable {
    let path: String
    let descriptor: Int32
    let size: Int64
    private var isOpen = true

    private init(path: String, descriptor: Int32, size: Int64) {
        self.path = path
        self.descriptor = descriptor
        self.size = size
    }

    static func open(_ path: String) throws(UploadError) -> ArtifactFile {
        let descriptor = LanesPlatform.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .artifact(path, String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            LanesPlatform.close(descriptor)
            throw .artifact(path, String(cString: strerror(code)))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            LanesPlatform.close(descriptor)
            throw .artifact(path, "not a regular file")
        }
        return ArtifactFile(path: path, descriptor: descriptor, size: Int64(info.st_size))
    }

    /// Reads up to `count` bytes at `offset` into the start of `buffer`; fails on a short file
    /// (it shrank while uploading).
    func read(into buffer: inout [UInt8], count wanted: Int, at offset: Int64) throws(UploadError) -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, wanted, off_t(offset)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .artifact(path, String(cString: strerror(errno)))
            }
            if count == 0 && wanted > 0 { throw .artifact(path, "the file shrank while it was being uploaded") }
            return count
        }
    }

    /// Fills the first `count` bytes of `buffer` from `offset`, however many reads that takes.
    func readExactly(into buffer: inout [UInt8], count: Int, at offset: Int64) throws(UploadError) {
        var filled = 0
        while filled < count {
            let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled)) }
            if got < 0 {
                if errno == EINTR { continue }
                throw .artifact(path, String(cString: strerror(errno)))
            }
            if got == 0 { throw .artifact(path, "the file shrank while it was being uploaded") }
            filled += got
        }
    }

    func close() {
        guard isOpen else { return }
        isOpen = false
        LanesPlatform.close(descriptor)
    }

    deinit { close() }
}
