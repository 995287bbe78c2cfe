/// Reads a zip file through its central directory (what `unzip` trusts), with stored and deflated
/// entries, Zip64 sizes, offsets and counts. The file is read in pieces where each thing is, never
/// whole, and nothing is allocated for what a header claims until the data shows it: an .ipa of
/// any size costs the entries read, not the file. Encrypted entries, and names that would escape
/// a folder they were extracted to (`../`, absolute), are refused with a clear message.
final class ZipArchive {
    struct Entry {
        let name: String
        let method: UInt16
        let flags: UInt16
        let crc32: UInt32
        let compressedSize: Int
        let uncompressedSize: Int
        let localHeaderOffset: Int
    }

    /// Where the bytes are: a file read with `pread`, or bytes already in memory (tests, small data).
    enum Source {
        case file(ArchiveFile)
        case bytes([UInt8])

        var size: Int {
            switch self {
            case .file(let file): file.size
            case .bytes(let bytes): bytes.count
            }
        }

        /// Up to `count` bytes at `offset`.
        func read(at offset: Int, count: Int) throws(BuildError) -> [UInt8] {
            let count = max(0, min(count, size - offset))
            switch self {
            case .file(let file): return try file.read(at: offset, count: count)
            case .bytes(let bytes): return count > 0 ? Array(bytes[offset..<(offset + count)]) : []
            }
        }
    }

    let path: String
    let source: Source
    let entries: [Entry]

    convenience init(path: String) throws(BuildError) {
        try self.init(source: .file(try ArchiveFile(path: path)), path: path)
    }

    convenience init(bytes: [UInt8], path: String) throws(BuildError) {
        try self.init(source: .bytes(bytes), path: path)
    }

    init(source: Source, path: String) throws(BuildError) {
        self.path = path
        self.source = source
        let (count, directorySize, directoryOffset, directoryEnd) = try Self.directoryLocation(source, path: path)
        guard directoryOffset <= directoryEnd, directorySize <= directoryEnd - directoryOffset else {
            throw .archive(path: path, problem: "central directory lies outside the file")
        }
        // Each entry takes at least 46 bytes: a count the directory cannot hold is a lie.
        guard count <= directorySize / 46 else {
            throw .archive(path: path, problem: "claims \(count) entries in a \(directorySize)-byte central directory")
        }
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        var reader = ChunkReader(source: source, start: directoryOffset, end: directoryOffset + directorySize, path: path)
        for index in 0..<count {
            let fixed = try reader.take(46, what: "central directory entry \(index)")
            guard Self.u32(fixed, 0) == 0x0201_4B50 else {
                throw .archive(path: path, problem: "central directory entry \(index) is damaged")
            }
            let nameBytes = try reader.take(Int(Self.u16(fixed, 28)), what: "central directory entry \(index)")
            let extra = try reader.take(Int(Self.u16(fixed, 30)), what: "central directory entry \(index)")
            _ = try reader.take(Int(Self.u16(fixed, 32)), what: "central directory entry \(index)")
            let name = String(decoding: nameBytes, as: UTF8.self)
            guard !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else {
                throw .archive(path: path, problem: "entry \(name) would be written outside the folder it is extracted to")
            }
            var compressed = Int(Self.u32(fixed, 20))
            var uncompressed = Int(Self.u32(fixed, 24))
            var offset = Int(Self.u32(fixed, 42))
            // The Zip64 field holds, in this order, the values whose classic field is 0xFFFFFFFF.
            if uncompressed == 0xFFFF_FFFF || compressed == 0xFFFF_FFFF || offset == 0xFFFF_FFFF {
                guard var values = Self.zip64Field(in: extra) else {
                    throw .archive(path: path, problem: "\(name): a size says Zip64 but the entry has no Zip64 field")
                }
                func next() throws(BuildError) -> Int {
                    guard !values.isEmpty, values[0] <= UInt64(Int.max) else {
                        throw .archive(path: path, problem: "\(name): its Zip64 field is too short")
                    }
                    return Int(values.removeFirst())
                }
                if uncompressed == 0xFFFF_FFFF { uncompressed = try next() }
                if compressed == 0xFFFF_FFFF { compressed = try next() }
                if offset == 0xFFFF_FFFF { offset = try next() }
            }
            entries.append(Entry(name: name, method: Self.u16(fixed, 10), flags: Self.u16(fixed, 8), crc32: Self.u32(fixed, 16),
                                 compressedSize: compressed, uncompressedSize: uncompressed, localHeaderOffset: offset))
        }
        self.entries = entries
    }

    /// An entry's contents, checked against its CRC-32, read and inflated a piece at a time. An
    /// entry larger than `limit` (metadata that claims to be huge) is refused before it is read.
    func contents(of entry: Entry, limit: Int = 64 << 20) throws(BuildError) -> [UInt8] {
        var contents: [UInt8] = []
        try forEachChunk(of: entry, limit: limit) { contents.append(contentsOf: $0) }
        return contents
    }

    /// Hands an entry's contents to `body` a piece at a time, then checks their size and CRC-32:
    /// an entry of any size passes through a fixed buffer.
    func forEachChunk(of entry: Entry, limit: Int = .max, _ body: @escaping (UnsafeRawBufferPointer) throws -> Void) throws(BuildError) {
        guard entry.flags & 1 == 0 else { throw .archive(path: path, problem: "\(entry.name) is encrypted") }
        guard entry.method != 8 || entry.uncompressedSize <= entry.compressedSize * Zlib.largestRatio + 1024 else {
            throw .archive(path: path, problem: "\(entry.name): claims \(entry.uncompressedSize) bytes from \(entry.compressedSize) compressed, more than deflate can give")
        }
        guard entry.uncompressedSize <= limit else {
            throw .archive(path: path, problem: "\(entry.name) is \(entry.uncompressedSize) bytes, more than the \(limit) lanes reads into memory")
        }
        let local = entry.localHeaderOffset
        let header = try source.read(at: local, count: 30)
        guard header.count == 30, Self.u32(header, 0) == 0x0403_4B50 else {
            throw .archive(path: path, problem: "\(entry.name): local header is missing")
        }
        let start = local + 30 + Int(Self.u16(header, 26)) + Int(Self.u16(header, 28))
        guard entry.compressedSize <= source.size, start <= source.size - entry.compressedSize else {
            throw .archive(path: path, problem: "\(entry.name): data runs past the end of the file")
        }
        var crc: UInt32 = 0
        var produced = 0
        let deliver: (UnsafeRawBufferPointer) throws -> Void = { piece in
            crc = Zlib.crc32(piece, continuing: crc)
            produced += piece.count
            try body(piece)
        }
        do {
            switch entry.method {
            case 0:
                guard entry.compressedSize == entry.uncompressedSize else {
                    throw BuildError.archive(path: path, problem: "\(entry.name): a stored entry whose sizes differ")
                }
                try forEachPiece(from: start, count: entry.compressedSize, deliver)
            case 8:
                let inflater = try Zlib.Inflater(format: .raw, limit: entry.uncompressedSize, output: deliver)
                try forEachPiece(from: start, count: entry.compressedSize) { try inflater.add($0) }
                guard inflater.ended else { throw Zlib.Failure(message: "the deflate stream is cut short") }
            default:
                throw BuildError.archive(path: path, problem: "\(entry.name): compression method \(entry.method) is not stored (0) or deflate (8)")
            }
        } catch let error as BuildError {
            throw error
        } catch let error as Zlib.Failure {
            throw .archive(path: path, problem: "\(entry.name): \(error.message)")
        } catch {
            throw .archive(path: path, problem: "\(entry.name): \(error)")
        }
        guard produced == entry.uncompressedSize, crc == entry.crc32 else {
            throw .archive(path: path, problem: "\(entry.name): CRC-32 or size does not match the directory")
        }
    }

    private func forEachPiece(from start: Int, count: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        switch source {
        case .file(let file): try file.forEachChunk(from: start, count: count, body)
        case .bytes(let bytes): try bytes[start..<(start + count)].withUnsafeBytes { try body($0) }
        }
    }

    /// The directory's entry count, size and offset, and where it must end (the end records),
    /// from the end of central directory record and, when that says so, the Zip64 end record.
    private static func directoryLocation(_ source: Source, path: String) throws(BuildError) -> (Int, Int, Int, Int) {
        let tailStart = max(0, source.size - 22 - 0xFFFF)
        let tail = try source.read(at: tailStart, count: source.size - tailStart)
        var found: Int?
        var offset = tail.count - 22
        while offset >= 0 {
            if u32(tail, offset) == 0x0605_4B50 { found = offset; break }
            offset -= 1
        }
        guard let end = found else {
            throw .archive(path: path, problem: "is not a zip file (no end-of-central-directory record)")
        }
        let count = Int(u16(tail, end + 10))
        let size = Int(u32(tail, end + 12))
        let directoryOffset = Int(u32(tail, end + 16))
        guard count == 0xFFFF || size == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF else {
            return (count, size, directoryOffset, tailStart + end)
        }
        // Zip64: the locator sits just before the end record and gives the Zip64 end record's offset.
        let locatorAt = tailStart + end - 20
        let locator = locatorAt >= 0 ? try source.read(at: locatorAt, count: 20) : []
        guard locator.count == 20, u32(locator, 0) == 0x0706_4B50 else {
            throw .archive(path: path, problem: "its end record says Zip64 but there is no Zip64 locator")
        }
        let recordAt = u64(locator, 8)
        guard recordAt <= UInt64(locatorAt), UInt64(locatorAt) - recordAt >= 56 else {
            throw .archive(path: path, problem: "its Zip64 end record lies outside the file")
        }
        let record = try source.read(at: Int(recordAt), count: 56)
        guard record.count == 56, u32(record, 0) == 0x0606_4B50 else {
            throw .archive(path: path, problem: "its Zip64 end record is damaged")
        }
        let values = [u64(record, 32), u64(record, 40), u64(record, 48)]
        guard values.allSatisfy({ $0 <= UInt64(source.size) }) else {
            throw .archive(path: path, problem: "its Zip64 end record claims more than the file holds")
        }
        return (Int(values[0]), Int(values[1]), Int(values[2]), Int(recordAt))
    }

    /// The 64-bit values of an extra field's Zip64 record (id 0x0001), or nil when it has none.
    private static func zip64Field(in extra: [UInt8]) -> [UInt64]? {
        var offset = 0
        while offset + 4 <= extra.count {
            let id = u16(extra, offset)
            let length = Int(u16(extra, offset + 2))
            guard offset + 4 + length <= extra.count else { return nil }
            if id == 0x0001 {
                return stride(from: offset + 4, to: offset + 4 + length - 7, by: 8).map { u64(extra, $0) }
            }
            offset += 4 + length
        }
        return nil
    }

    /// Reads the central directory forward in pieces of 64 KiB.
    private struct ChunkReader {
        let source: Source
        var position: Int
        let end: Int
        let path: String
        var buffer: [UInt8] = []
        var used = 0

        init(source: Source, start: Int, end: Int, path: String) {
            self.source = source
            self.position = start
            self.end = end
            self.path = path
        }

        mutating func take(_ count: Int, what: String) throws(BuildError) -> [UInt8] {
            if buffer.count - used < count {
                guard end - position >= count - (buffer.count - used) else {
                    throw .archive(path: path, problem: "\(what) is cut short")
                }
                let more = try source.read(at: position, count: max(64 << 10, count))
                position += more.count
                buffer = Array(buffer[used...]) + more
                used = 0
            }
            defer { used += count }
            return Array(buffer[used..<(used + count)])
        }
    }

    static func u16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    static func u64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        UInt64(u32(bytes, offset)) | UInt64(u32(bytes, offset + 4)) << 32
    }
}
