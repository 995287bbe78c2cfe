internal import LanesPlatform

/// Writes a zip of a folder (a `.dSYM` bundle, say) with deflated files and directory entries,
/// in sorted order with a fixed timestamp so the same folder always zips to the same bytes.
/// Files stream through a fixed buffer into the destination's temporary file, so a 6 GB bundle
/// zips in the memory of a small one; sizes, offsets or counts past zip's 32/16-bit fields are
/// written as Zip64 (APPNOTE 4.5), which unzip, Python's zipfile and Finder read.
public enum ZipWriter {
    /// Where the classic fields end and Zip64 records take over.
    struct Limits {
        /// A size or offset at or above this goes into a Zip64 field.
        var size: Int = 0xFFFF_FFFF
        /// As many entries as this, or more, need the Zip64 end record.
        var entries: Int = 0xFFFF
    }

    /// Zips `folder` as `rootName/...` into `destination`, atomically.
    public static func zip(folder: String, rootName: String, to destination: String) throws(BuildError) {
        try zip(folder: folder, rootName: rootName, to: destination, limits: Limits())
    }

    static func zip(folder: String, rootName: String, to destination: String, limits: Limits) throws(BuildError) {
        var items: [Item] = []
        try collect(folder, as: rootName, into: &items)
        do {
            let output = try AtomicFileStream(path: destination)
            var directory: [UInt8] = []
            for item in items {
                directory += try write(item, to: output, limits: limits, destination: destination)
            }
            let directoryOffset = output.offset
            try output.write(directory)
            try output.write(end(count: items.count, directorySize: directory.count, directoryOffset: directoryOffset,
                                 at: output.offset, limits: limits))
            try output.commit()
        } catch let error as BuildError {
            throw error
        } catch {
            throw .file(path: destination, problem: "cannot write the zip: \(error)")
        }
    }

    /// A folder (`path` nil) or a regular file to put in the zip.
    struct Item {
        let name: String
        let path: String?
        let mode: UInt32
    }

    /// Writes the local header and data of `item`; returns its central directory entry.
    private static func write(_ item: Item, to output: AtomicFileStream, limits: Limits, destination: String) throws -> [UInt8] {
        // Links were left out when the folder was listed; one swapped in since is refused, not followed.
        let file: ArchiveFile? = try item.path.map { try ArchiveFile(path: $0, followingLinks: false) }
        let size = file?.size ?? 0
        let zip64 = size >= limits.size
        let name = Array(item.name.utf8)
        let headerOffset = output.offset
        var method: UInt16 = size > 0 ? 8 : 0
        // Local header; CRC and sizes are filled in once the data is written.
        var header = le32(0x0403_4B50) + le16(zip64 ? 45 : 20) + le16(0x0800) + le16(method) + le16(0) + le16(0x5B21)
        header += le32(0) + le32(zip64 ? 0xFFFF_FFFF : 0) + le32(zip64 ? 0xFFFF_FFFF : 0)
        header += le16(UInt16(name.count)) + le16(zip64 ? 20 : 0) + name
        if zip64 { header += le16(0x0001) + le16(16) + le64(0) + le64(0) }
        try output.write(header)
        let dataOffset = output.offset
        var crc: UInt32 = 0
        if let file, size > 0 {
            let deflater = try Zlib.Deflater(format: .raw, level: 6) { try output.write($0) }
            try file.forEachChunk(count: size) { chunk in
                crc = Zlib.crc32(chunk, continuing: crc)
                try deflater.add(chunk)
            }
            try deflater.finish()
            // Data that does not shrink is stored as it is (a second read of the file).
            if deflater.producedCount >= size {
                try output.truncate(to: dataOffset)
                try file.forEachChunk(count: size) { try output.write($0) }
                method = 0
                try output.overwrite(le16(0), at: headerOffset + 8)
            }
            guard !file.grew else { throw BuildError.file(path: file.path, problem: "changed while lanes zipped it") }
        }
        let compressed = output.offset - dataOffset
        try output.overwrite(le32(crc), at: headerOffset + 14)
        if zip64 {
            try output.overwrite(le64(UInt64(size)) + le64(UInt64(compressed)), at: headerOffset + 30 + name.count + 4)
        } else {
            guard compressed < limits.size else { throw BuildError.archive(path: destination, problem: "\(item.name) grew past 4 GiB as it was compressed") }
            try output.overwrite(le32(UInt32(compressed)) + le32(UInt32(size)), at: headerOffset + 18)
        }
        // Central directory entry (made by Unix, so the mode travels in the external attributes).
        // Its Zip64 field holds, in this order, only the values whose classic field says 0xFFFFFFFF.
        let offset64 = headerOffset >= limits.size
        var extra: [UInt8] = []
        if zip64 { extra += le64(UInt64(size)) + le64(UInt64(compressed)) }
        if offset64 { extra += le64(UInt64(headerOffset)) }
        if !extra.isEmpty { extra = le16(0x0001) + le16(UInt16(extra.count)) + extra }
        let needs45 = zip64 || offset64
        var entry = le32(0x0201_4B50) + le16(needs45 ? 0x032D : 0x031E) + le16(needs45 ? 45 : 20) + le16(0x0800)
        entry += le16(method) + le16(0) + le16(0x5B21) + le32(crc)
        entry += le32(zip64 ? 0xFFFF_FFFF : UInt32(compressed)) + le32(zip64 ? 0xFFFF_FFFF : UInt32(size))
        entry += le16(UInt16(name.count)) + le16(UInt16(extra.count)) + le16(0) + le16(0) + le16(0)
        entry += le32(item.mode << 16)
        entry += le32(offset64 ? 0xFFFF_FFFF : UInt32(headerOffset)) + name + extra
        return entry
    }

    /// The end of central directory record, after the Zip64 end record and locator when a count,
    /// size or offset does not fit its classic field.
    private static func end(count: Int, directorySize: Int, directoryOffset: Int, at position: Int, limits: Limits) -> [UInt8] {
        let countOver = count >= limits.entries
        let sizeOver = directorySize >= limits.size
        let offsetOver = directoryOffset >= limits.size
        var bytes: [UInt8] = []
        if countOver || sizeOver || offsetOver {
            bytes += le32(0x0606_4B50) + le64(44) + le16(0x032D) + le16(45) + le32(0) + le32(0)
            bytes += le64(UInt64(count)) + le64(UInt64(count)) + le64(UInt64(directorySize)) + le64(UInt64(directoryOffset))
            bytes += le32(0x0706_4B50) + le32(0) + le64(UInt64(position)) + le32(1)
        }
        let shownCount = countOver ? 0xFFFF : UInt16(count)
        bytes += le32(0x0605_4B50) + le16(0) + le16(0) + le16(shownCount) + le16(shownCount)
        bytes += le32(sizeOver ? 0xFFFF_FFFF : UInt32(directorySize)) + le32(offsetOver ? 0xFFFF_FFFF : UInt32(directoryOffset)) + le16(0)
        return bytes
    }

    private static func collect(_ path: String, as name: String, into items: inout [Item]) throws(BuildError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .file(path: path, problem: "cannot be read: \(String(cString: strerror(errno)))") }
        let mode = UInt32(info.st_mode)
        guard Array(name.utf8).count < 0xFFFF else { throw .file(path: path, problem: "has a name too long for a zip entry") }
        if (mode & UInt32(S_IFMT)) == UInt32(S_IFDIR) {
            items.append(Item(name: name + "/", path: nil, mode: mode))
            for entry in FilePath.entries(of: path).sorted() { try collect(path + "/" + entry, as: name + "/" + entry, into: &items) }
        } else if (mode & UInt32(S_IFMT)) == UInt32(S_IFREG) {
            items.append(Item(name: name, path: path, mode: mode))
        }
        // Symbolic links and special files are left out: a dSYM bundle has none.
    }

    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func le32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
    }
    static func le64(_ value: UInt64) -> [UInt8] { le32(UInt32(value & 0xFFFF_FFFF)) + le32(UInt32(value >> 32)) }
}
