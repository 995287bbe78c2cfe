internal import LanesPlatform

/// Writes a zip of a folder (a `.dSYM` bundle, say) with deflated files and directory entries,
/// in sorted order with a fixed timestamp so the same folder always zips to the same bytes.
public enum ZipWriter {
    /// Zips `folder` as `rootName/...` into `destination`, atomically.
    public static func zip(folder: String, rootName: String, to destination: String) throws(BuildError) {
        var files: [(name: String, contents: [UInt8]?, mode: UInt32)] = []
        try collect(folder, as: rootName, into: &files)
        var archive: [UInt8] = []
        var directory: [UInt8] = []
        for file in files {
            let data = file.contents ?? []
            let deflated: [UInt8]?
            if file.contents != nil, !data.isEmpty {
                do { deflated = try Zlib.deflate(data, format: .raw, level: 6) } catch {
                    throw .archive(path: destination, problem: "deflate of \(file.name): \(error.message)")
                }
            } else {
                deflated = nil
            }
            let stored = deflated.map { $0.count < data.count } == false || deflated == nil
            let payload = stored ? data : deflated!
            let method: UInt16 = stored ? 0 : 8
            let crc = Zlib.crc32(data)
            let name = Array(file.name.utf8)
            guard archive.count < 0xFFFF_FFFF, payload.count < 0xFFFF_FFFF else {
                throw .archive(path: destination, problem: "is larger than 4 GB, which needs Zip64")
            }
            let offset = UInt32(archive.count)
            // Local header.
            archive += le32(0x0403_4B50) + le16(20) + le16(0x0800) + le16(method) + le16(0) + le16(0x5B21)
            archive += le32(crc) + le32(UInt32(payload.count)) + le32(UInt32(data.count)) + le16(UInt16(name.count)) + le16(0)
            archive += name + payload
            // Central directory entry (made by Unix, so the mode travels in the external attributes).
            directory += le32(0x0201_4B50) + le16(0x031E) + le16(20) + le16(0x0800) + le16(method) + le16(0) + le16(0x5B21)
            directory += le32(crc) + le32(UInt32(payload.count)) + le32(UInt32(data.count)) + le16(UInt16(name.count))
            directory += le16(0) + le16(0) + le16(0) + le16(0) + le32(file.mode << 16) + le32(offset) + name
        }
        let directoryOffset = UInt32(archive.count)
        archive += directory
        archive += le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(files.count)) + le16(UInt16(files.count))
        archive += le32(UInt32(directory.count)) + le32(directoryOffset) + le16(0)
        do { try AtomicFile.write(archive, to: destination) } catch {
            throw .file(path: destination, problem: "cannot write the zip: \(error)")
        }
    }

    private static func collect(_ path: String, as name: String,
                                into files: inout [(name: String, contents: [UInt8]?, mode: UInt32)]) throws(BuildError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .file(path: path, problem: "cannot be read: \(String(cString: strerror(errno)))") }
        let mode = UInt32(info.st_mode)
        if (mode & UInt32(S_IFMT)) == UInt32(S_IFDIR) {
            files.append((name + "/", nil, mode))
            for entry in FilePath.entries(of: path).sorted() { try collect(path + "/" + entry, as: name + "/" + entry, into: &files) }
        } else if (mode & UInt32(S_IFMT)) == UInt32(S_IFREG) {
            do { files.append((name, try FilePath.readBytes(path), mode)) } catch {
                throw .file(path: path, problem: "cannot be read: \(error)")
            }
        }
        // Symbolic links and special files are left out: a dSYM bundle has none.
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
    }
}
