/// A POSIX tar stream written as it goes: regular files only, owned by root, with a fixed
/// modification time so two packs of the same files are byte-identical. A name that does not fit
/// ustar's 100 + 155 bytes, or a size that does not fit its 11 octal digits (8 GiB), goes into a
/// pax extended header (POSIX.1-2001) before the entry, as GNU tar and Python's tarfile read it.
struct TarWriter {
    /// Where the bytes go (a gzip stream, in the artifact packer).
    let output: (UnsafeRawBufferPointer) throws -> Void
    /// A size at or above this is written in a pax header; ustar's octal field ends below 8 GiB.
    var largestUstarSize = 0o77777777777 + 1

    init(largestUstarSize: Int = 0o77777777777 + 1, output: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.largestUstarSize = largestUstarSize
        self.output = output
    }

    /// Writes the header of a file of `size` bytes; its contents must follow through `writeContents`.
    func beginFile(named name: String, size: Int, mode: Int, modificationTime: Int) throws {
        var pax: [(String, String)] = []
        let split = Self.split(name)
        if split == nil { pax.append(("path", name)) }
        if size >= largestUstarSize { pax.append(("size", String(size))) }
        if !pax.isEmpty {
            let records = Self.paxRecords(pax)
            try emit(Self.header(prefix: "", name: "././@PaxHeader", size: records.count, mode: 0o644,
                                 modificationTime: modificationTime, type: "x"))
            try emit(records)
            try pad(records.count)
        }
        let (prefix, base) = split ?? ("", Self.truncated(name, to: 100))
        try emit(Self.header(prefix: prefix, name: base, size: size < largestUstarSize ? size : 0, mode: mode,
                             modificationTime: modificationTime, type: "0"))
    }

    /// Zero bytes that fill the last block of a file of `size` bytes.
    func pad(_ size: Int) throws {
        let padding = (512 - size % 512) % 512
        if padding > 0 { try emit([UInt8](repeating: 0, count: padding)) }
    }

    /// The two closing zero blocks.
    func finish() throws { try emit([UInt8](repeating: 0, count: 1024)) }

    private func emit(_ bytes: [UInt8]) throws { try bytes.withUnsafeBytes { try output($0) } }

    /// `LENGTH key=value\n` records, where LENGTH counts the whole record, its own digits included.
    static func paxRecords(_ pairs: [(String, String)]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (key, value) in pairs {
            let body = " \(key)=\(value)\n".utf8.count
            var length = body + String(body).count
            if String(length).count != String(body).count { length = body + String(length).count }
            bytes += Array("\(length) \(key)=\(value)\n".utf8)
        }
        return bytes
    }

    private static func header(prefix: String, name: String, size: Int, mode: Int, modificationTime: Int, type: Character) -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 512)
        put(name, into: &header, at: 0, width: 100)
        put(octal(mode & 0o7777, width: 8), into: &header, at: 100, width: 8)
        put(octal(0, width: 8), into: &header, at: 108, width: 8)
        put(octal(0, width: 8), into: &header, at: 116, width: 8)
        put(octal(size, width: 12), into: &header, at: 124, width: 12)
        put(octal(modificationTime, width: 12), into: &header, at: 136, width: 12)
        header[156] = type.asciiValue!
        put("ustar", into: &header, at: 257, width: 6)
        put("00", into: &header, at: 263, width: 2)
        put("root", into: &header, at: 265, width: 32)
        put("root", into: &header, at: 297, width: 32)
        put(prefix, into: &header, at: 345, width: 155)
        // The checksum is computed with its own field as spaces.
        for index in 148..<156 { header[index] = 0x20 }
        let sum = header.reduce(0) { $0 + Int($1) }
        put(octal(sum, width: 7), into: &header, at: 148, width: 7)
        return header
    }

    /// ustar keeps names up to 100 bytes, or a prefix of up to 155 bytes split at a slash; nil when
    /// the name fits neither way.
    static func split(_ name: String) -> (String, String)? {
        let utf8 = Array(name.utf8)
        if utf8.count <= 100 { return ("", name) }
        for index in stride(from: min(utf8.count - 1, 155), through: 1, by: -1) where utf8[index] == UInt8(ascii: "/") {
            if utf8.count - index - 1 <= 100 {
                return (String(decoding: utf8[..<index], as: UTF8.self), String(decoding: utf8[(index + 1)...], as: UTF8.self))
            }
        }
        return nil
    }

    /// The first `width` bytes of `name`, not cutting a UTF-8 sequence (readers use the pax path).
    private static func truncated(_ name: String, to width: Int) -> String {
        var kept = String.UnicodeScalarView()
        var count = 0
        for scalar in name.unicodeScalars {
            count += String(scalar).utf8.count
            guard count <= width else { break }
            kept.append(scalar)
        }
        return String(kept)
    }

    /// Zero-padded octal digits, `width - 1` of them, then NUL.
    private static func octal(_ value: Int, width: Int) -> String {
        let digits = String(value, radix: 8)
        return String(repeating: "0", count: max(0, width - 1 - digits.count)) + digits
    }

    private static func put(_ text: String, into header: inout [UInt8], at offset: Int, width: Int) {
        for (index, byte) in text.utf8.prefix(width).enumerated() { header[offset + index] = byte }
    }
}
