/// A POSIX ustar archive built in memory: regular files only, owned by root, with a fixed
/// modification time so two packs of the same files are byte-identical.
struct TarArchive {
    private(set) var bytes: [UInt8] = []

    struct NameTooLong: Error { let name: String }

    mutating func addFile(named name: String, contents: [UInt8], mode: Int, modificationTime: Int) throws(NameTooLong) {
        var header = [UInt8](repeating: 0, count: 512)
        let (prefix, base) = try Self.split(name)
        put(base, into: &header, at: 0, width: 100)
        put(octal(mode & 0o7777, width: 8), into: &header, at: 100, width: 8)
        put(octal(0, width: 8), into: &header, at: 108, width: 8)
        put(octal(0, width: 8), into: &header, at: 116, width: 8)
        put(octal(contents.count, width: 12), into: &header, at: 124, width: 12)
        put(octal(modificationTime, width: 12), into: &header, at: 136, width: 12)
        header[156] = UInt8(ascii: "0")
        put("ustar", into: &header, at: 257, width: 6)
        put("00", into: &header, at: 263, width: 2)
        put("root", into: &header, at: 265, width: 32)
        put("root", into: &header, at: 297, width: 32)
        put(prefix, into: &header, at: 345, width: 155)
        // The checksum is computed with its own field as spaces.
        for index in 148..<156 { header[index] = 0x20 }
        let sum = header.reduce(0) { $0 + Int($1) }
        put(octal(sum, width: 7), into: &header, at: 148, width: 7)
        bytes += header
        bytes += contents
        let padding = (512 - contents.count % 512) % 512
        bytes += [UInt8](repeating: 0, count: padding)
    }

    /// The archive with its two closing zero blocks.
    func finished() -> [UInt8] { bytes + [UInt8](repeating: 0, count: 1024) }

    /// ustar keeps names up to 100 bytes, or a prefix of up to 155 bytes split at a slash.
    private static func split(_ name: String) throws(NameTooLong) -> (String, String) {
        let utf8 = Array(name.utf8)
        if utf8.count <= 100 { return ("", name) }
        for index in stride(from: min(utf8.count - 1, 155), through: 1, by: -1) where utf8[index] == UInt8(ascii: "/") {
            if utf8.count - index - 1 <= 100 {
                return (String(decoding: utf8[..<index], as: UTF8.self), String(decoding: utf8[(index + 1)...], as: UTF8.self))
            }
        }
        throw NameTooLong(name: name)
    }

    /// Zero-padded octal digits, `width - 1` of them, then NUL.
    private func octal(_ value: Int, width: Int) -> String {
        let digits = String(value, radix: 8)
        return String(repeating: "0", count: max(0, width - 1 - digits.count)) + digits
    }

    private func put(_ text: String, into header: inout [UInt8], at offset: Int, width: Int) {
        for (index, byte) in text.utf8.prefix(width).enumerated() { header[offset + index] = byte }
    }
}
