/// Android's binary XML (`ResXMLTree`, what aapt writes into an .apk): a string pool, a resource
/// map giving the android attribute ids, then start/end element chunks. Every offset and count is
/// checked against the bytes, so a damaged or hostile manifest is refused, never read past.
enum BinaryXML {
    static let xmlType: UInt16 = 0x0003
    static let stringPoolType: UInt16 = 0x0001
    static let resourceMapType: UInt16 = 0x0180
    static let startElementType: UInt16 = 0x0102
    static let endElementType: UInt16 = 0x0103

    /// The document's root element with its descendants.
    static func root(_ bytes: [UInt8], path: String) throws(BuildError) -> ManifestElement {
        func bad(_ problem: String) -> BuildError { .archive(path: path, problem: "AndroidManifest.xml: \(problem)") }
        guard bytes.count >= 8, u16(bytes, 0) == xmlType else { throw bad("not binary XML") }
        let headerSize = Int(u16(bytes, 2))
        let total = min(Int(u32(bytes, 4)), bytes.count)
        var offset = headerSize
        var strings: [String] = []
        var resourceIDs: [UInt32] = []
        var stack: [ManifestElement] = []
        var root: ManifestElement?
        while offset + 8 <= total {
            let type = u16(bytes, offset)
            let chunkHeader = Int(u16(bytes, offset + 2))
            let size = Int(u32(bytes, offset + 4))
            guard size >= 8, chunkHeader <= size, offset + size <= total else { throw bad("a chunk at byte \(offset) runs past the file") }
            let chunk = offset..<(offset + size)
            switch type {
            case stringPoolType:
                strings = try stringPool(bytes, chunk, headerSize: chunkHeader, bad: bad)
            case resourceMapType:
                resourceIDs = stride(from: chunk.lowerBound + chunkHeader, to: chunk.upperBound - 3, by: 4).map { u32(bytes, $0) }
            case startElementType:
                let ext = chunk.lowerBound + chunkHeader
                guard ext + 20 <= chunk.upperBound else { throw bad("a start element is too short") }
                let name = try string(at: u32(bytes, ext + 4), strings, bad: bad)
                let attributeStart = Int(u16(bytes, ext + 8)), attributeSize = Int(u16(bytes, ext + 10)), count = Int(u16(bytes, ext + 12))
                guard attributeSize >= 20, ext + attributeStart + count * attributeSize <= chunk.upperBound else {
                    throw bad("<\(name)>'s attributes run past its chunk")
                }
                var element = ManifestElement(name: name)
                for index in 0..<count {
                    let at = ext + attributeStart + index * attributeSize
                    let nameIndex = u32(bytes, at + 4)
                    let attributeName = try string(at: nameIndex, strings, bad: bad)
                    let resourceID = Int(nameIndex) < resourceIDs.count ? resourceIDs[Int(nameIndex)] : 0
                    let raw = u32(bytes, at + 8)
                    let dataType = bytes[at + 15]
                    let data = u32(bytes, at + 16)
                    let value: ManifestElement.Value
                    switch dataType {
                    case 0x03: value = .string(try string(at: raw != 0xFFFF_FFFF ? raw : data, strings, bad: bad))
                    case 0x10: value = .integer(Int(Int32(bitPattern: data)))
                    case 0x11: value = .integer(Int(data))
                    case 0x01: value = .reference(data)
                    default: value = raw != 0xFFFF_FFFF ? .string(try string(at: raw, strings, bad: bad)) : .other
                    }
                    element.attributes.append(.init(name: attributeName, resourceID: resourceID, value: value))
                }
                stack.append(element)
                guard stack.count <= 64 else { throw bad("elements nest deeper than 64") }
            case endElementType:
                guard let element = stack.popLast() else { throw bad("an end element without a start") }
                if stack.isEmpty { root = root ?? element } else { stack[stack.count - 1].children.append(element) }
            default:
                break  // namespaces, CDATA: not needed
            }
            offset += size
        }
        guard let root else { throw bad("no element") }
        return root
    }

    /// A `ResStringPool`: UTF-8 (flag 0x100) or UTF-16 strings at offsets from `stringsStart`.
    static func stringPool(_ bytes: [UInt8], _ chunk: Range<Int>, headerSize: Int,
                           bad: (String) -> BuildError) throws(BuildError) -> [String] {
        guard headerSize >= 28 else { throw bad("a string pool header is too short") }
        let count = Int(u32(bytes, chunk.lowerBound + 8))
        let isUTF8 = u32(bytes, chunk.lowerBound + 16) & 0x100 != 0
        let stringsStart = chunk.lowerBound + Int(u32(bytes, chunk.lowerBound + 20))
        let offsets = chunk.lowerBound + headerSize
        guard count <= (chunk.count - headerSize) / 4, stringsStart <= chunk.upperBound else { throw bad("a string pool claims more than it holds") }
        var strings: [String] = []
        strings.reserveCapacity(count)
        for index in 0..<count {
            var at = stringsStart + Int(u32(bytes, offsets + index * 4))
            guard at < chunk.upperBound else { throw bad("string \(index) lies outside its pool") }
            if isUTF8 {
                // The length in characters, then in bytes, each one or two bytes (high bit: two).
                func length() throws(BuildError) -> Int {
                    guard at < chunk.upperBound else { throw bad("string \(index) is cut off") }
                    var value = Int(bytes[at]); at += 1
                    if value & 0x80 != 0 {
                        guard at < chunk.upperBound else { throw bad("string \(index) is cut off") }
                        value = (value & 0x7F) << 8 | Int(bytes[at]); at += 1
                    }
                    return value
                }
                _ = try length()
                let byteCount = try length()
                guard at + byteCount <= chunk.upperBound else { throw bad("string \(index) runs past its pool") }
                strings.append(String(decoding: bytes[at..<(at + byteCount)], as: UTF8.self))
            } else {
                guard at + 2 <= chunk.upperBound else { throw bad("string \(index) is cut off") }
                var units = Int(u16(bytes, at)); at += 2
                if units & 0x8000 != 0 {
                    guard at + 2 <= chunk.upperBound else { throw bad("string \(index) is cut off") }
                    units = (units & 0x7FFF) << 16 | Int(u16(bytes, at)); at += 2
                }
                guard at + units * 2 <= chunk.upperBound else { throw bad("string \(index) runs past its pool") }
                let codeUnits = (0..<units).map { u16(bytes, at + $0 * 2) }
                strings.append(String(decoding: codeUnits, as: UTF16.self))
            }
        }
        return strings
    }

    static func string(at index: UInt32, _ strings: [String], bad: (String) -> BuildError) throws(BuildError) -> String {
        guard Int(index) < strings.count else { throw bad("a string index (\(index)) is outside the string pool") }
        return strings[Int(index)]
    }

    static func u16(_ bytes: [UInt8], _ offset: Int) -> UInt16 { UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8 }
    static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}
