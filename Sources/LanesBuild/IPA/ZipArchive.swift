/// Reads a zip file through its central directory (what `unzip` trusts), with stored and deflated
/// entries. Zip64 and encrypted entries are refused with a clear message: an .ipa never needs them
/// below 4 GB.
struct ZipArchive {
    struct Entry {
        let name: String
        let method: UInt16
        let flags: UInt16
        let crc32: UInt32
        let compressedSize: Int
        let uncompressedSize: Int
        let localHeaderOffset: Int
    }

    let path: String
    let bytes: [UInt8]
    let entries: [Entry]

    init(bytes: [UInt8], path: String) throws(BuildError) {
        self.path = path
        self.bytes = bytes
        guard let end = Self.endOfCentralDirectory(bytes) else {
            throw .archive(path: path, problem: "is not a zip file (no end-of-central-directory record)")
        }
        let count = Int(Self.u16(bytes, end + 10))
        let directorySize = Int(Self.u32(bytes, end + 12))
        let directoryOffset = Int(Self.u32(bytes, end + 16))
        guard directoryOffset != 0xFFFF_FFFF, count != 0xFFFF else {
            throw .archive(path: path, problem: "is a Zip64 archive, which lanes does not read")
        }
        guard directoryOffset + directorySize <= end else {
            throw .archive(path: path, problem: "central directory lies outside the file")
        }
        var entries: [Entry] = []
        var offset = directoryOffset
        for index in 0..<count {
            guard offset + 46 <= bytes.count, Self.u32(bytes, offset) == 0x0201_4B50 else {
                throw .archive(path: path, problem: "central directory entry \(index) is damaged")
            }
            let nameLength = Int(Self.u16(bytes, offset + 28))
            let extraLength = Int(Self.u16(bytes, offset + 30))
            let commentLength = Int(Self.u16(bytes, offset + 32))
            guard offset + 46 + nameLength <= bytes.count else {
                throw .archive(path: path, problem: "central directory entry \(index) is cut short")
            }
            entries.append(Entry(
                name: String(decoding: bytes[(offset + 46)..<(offset + 46 + nameLength)], as: UTF8.self),
                method: Self.u16(bytes, offset + 10),
                flags: Self.u16(bytes, offset + 8),
                crc32: Self.u32(bytes, offset + 16),
                compressedSize: Int(Self.u32(bytes, offset + 20)),
                uncompressedSize: Int(Self.u32(bytes, offset + 24)),
                localHeaderOffset: Int(Self.u32(bytes, offset + 42))))
            offset += 46 + nameLength + extraLength + commentLength
        }
        self.entries = entries
    }

    /// An entry's contents, checked against its CRC-32.
    func contents(of entry: Entry) throws(BuildError) -> [UInt8] {
        guard entry.flags & 1 == 0 else { throw .archive(path: path, problem: "\(entry.name) is encrypted") }
        let local = entry.localHeaderOffset
        guard local + 30 <= bytes.count, Self.u32(bytes, local) == 0x0403_4B50 else {
            throw .archive(path: path, problem: "\(entry.name): local header is missing")
        }
        let start = local + 30 + Int(Self.u16(bytes, local + 26)) + Int(Self.u16(bytes, local + 28))
        guard start + entry.compressedSize <= bytes.count else {
            throw .archive(path: path, problem: "\(entry.name): data runs past the end of the file")
        }
        let data = bytes[start..<(start + entry.compressedSize)]
        let contents: [UInt8]
        switch entry.method {
        case 0:
            contents = Array(data)
        case 8:
            do { contents = try Zlib.inflate(data, format: .raw, expectedSize: entry.uncompressedSize) } catch {
                throw .archive(path: path, problem: "\(entry.name): \(error.message)")
            }
        default:
            throw .archive(path: path, problem: "\(entry.name): compression method \(entry.method) is not stored (0) or deflate (8)")
        }
        guard contents.count == entry.uncompressedSize, Zlib.crc32(contents) == entry.crc32 else {
            throw .archive(path: path, problem: "\(entry.name): CRC-32 or size does not match the directory")
        }
        return contents
    }

    private static func endOfCentralDirectory(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 22 else { return nil }
        let lowest = max(0, bytes.count - 22 - 0xFFFF)
        var offset = bytes.count - 22
        while offset >= lowest {
            if u32(bytes, offset) == 0x0605_4B50 { return offset }
            offset -= 1
        }
        return nil
    }

    static func u16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}
