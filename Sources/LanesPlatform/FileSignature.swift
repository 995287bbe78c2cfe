#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What identifies a file's content cheaply: device, inode, size and modification time. A save by
/// rename changes the inode; an edit in place the size or time. The daemon compares it to notice a
/// changed Lanefile.
public struct FileSignature: Equatable, Sendable {
    let values: [Int]

    public init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { values = []; return }
        let time = FileTimes.modification(of: info)
        values = [Int(info.st_dev), Int(info.st_ino), Int(info.st_size), Int(time.tv_sec), Int(time.tv_nsec)]
    }
}
