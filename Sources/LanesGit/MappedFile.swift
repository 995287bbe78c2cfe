internal import LanesPlatform

/// A read-only memory map of a whole file, unmapped when released.
final class MappedFile {
    let bytes: UnsafeRawBufferPointer

    init?(path: String) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size > 0,
              let address = mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, descriptor, 0),
              address != MAP_FAILED
        else { return nil }
        bytes = UnsafeRawBufferPointer(start: address, count: Int(info.st_size))
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }

    func uint32(at offset: Int) -> UInt32 {
        UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    func uint64(at offset: Int) -> UInt64 {
        UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}

/// The file names in a directory; empty when it cannot be read.
func directoryEntries(_ path: String) -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        names.append(name)
    }
    return names
}
