#if os(Linux)
import Glibc

extension ProcessTags {
    /// Live processes of this user other than this one whose environment carries `tag`, read
    /// from `/proc/PID/environ` (the environment each process started with).
    public static func processes(carrying tag: String) -> [Int32] {
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        let me = getpid()
        var found: [Int32] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = Int32(name), pid != me else { continue }
            let descriptor = open("/proc/\(pid)/environ", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            let bytes = FileDescriptorIO.readAll(from: descriptor) ?? []
            close(descriptor)
            let environment = bytes.split(separator: 0).lazy.map { Substring(decoding: $0, as: UTF8.self) }
            if entries(environment, carry: tag) { found.append(pid) }
        }
        return found
    }
}
#endif
