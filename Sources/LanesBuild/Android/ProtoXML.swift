/// aapt2's protobuf XML (`aapt.pb.XmlNode` of Resources.proto), as an .aab keeps its manifest:
/// XmlNode { element = 1 }, XmlElement { name = 3, attribute = 4, child = 5 (XmlNode) },
/// XmlAttribute { namespace_uri = 1, name = 2, value = 3, resource_id = 5, compiled_item = 6 },
/// Item { str = 2 (String { value = 1 }), prim = 7 }, Primitive { int_decimal_value = 6, int_hexadecimal_value = 7 }.
/// A small wire-format reader: unknown fields are skipped, every length checked against the bytes.
enum ProtoXML {
    static func root(_ bytes: [UInt8], path: String) throws(BuildError) -> ManifestElement {
        func bad(_ problem: String) -> BuildError { .archive(path: path, problem: "base/manifest/AndroidManifest.xml: \(problem)") }
        var element: ManifestElement?
        try fields(bytes[...], bad: bad) { (number: Int, field: Field) throws(BuildError) in
            if number == 1, case .bytes(let body) = field { element = try self.element(body, depth: 0, bad: bad) }
        }
        guard let element else { throw bad("not an XmlNode with an element") }
        return element
    }

    enum Field {
        case varint(UInt64)
        case bytes(ArraySlice<UInt8>)
        case fixed
    }

    static func element(_ bytes: ArraySlice<UInt8>, depth: Int, bad: (String) -> BuildError) throws(BuildError) -> ManifestElement {
        guard depth < 64 else { throw bad("elements nest deeper than 64") }
        var element = ManifestElement(name: "")
        try fields(bytes, bad: bad) { (number: Int, field: Field) throws(BuildError) in
            guard case .bytes(let body) = field else { return }
            switch number {
            case 3: element.name = String(decoding: body, as: UTF8.self)
            case 4: element.attributes.append(try attribute(body, bad: bad))
            case 5:
                try fields(body, bad: bad) { (inner: Int, node: Field) throws(BuildError) in
                    if inner == 1, case .bytes(let child) = node { element.children.append(try self.element(child, depth: depth + 1, bad: bad)) }
                }
            default: break
            }
        }
        return element
    }

    static func attribute(_ bytes: ArraySlice<UInt8>, bad: (String) -> BuildError) throws(BuildError) -> ManifestElement.Attribute {
        var name = "", text: String?, resourceID: UInt32 = 0
        var compiled: ManifestElement.Value?
        try fields(bytes, bad: bad) { (number: Int, field: Field) throws(BuildError) in
            switch (number, field) {
            case (2, .bytes(let body)): name = String(decoding: body, as: UTF8.self)
            case (3, .bytes(let body)): text = String(decoding: body, as: UTF8.self)
            case (5, .varint(let value)): resourceID = UInt32(truncatingIfNeeded: value)
            case (6, .bytes(let body)): compiled = try item(body, bad: bad)
            default: break
            }
        }
        // The compiled value is what Android reads; the text is the source's (empty when aapt2 dropped it).
        let value: ManifestElement.Value = compiled ?? (text.map { .string($0) } ?? .other)
        return .init(name: name, resourceID: resourceID, value: value)
    }

    static func item(_ bytes: ArraySlice<UInt8>, bad: (String) -> BuildError) throws(BuildError) -> ManifestElement.Value {
        var value: ManifestElement.Value = .other
        try fields(bytes, bad: bad) { (number: Int, field: Field) throws(BuildError) in
            switch (number, field) {
            case (1, .bytes(let reference)):
                var id: UInt32 = 0
                try fields(reference, bad: bad) { (inner: Int, part: Field) throws(BuildError) in
                    if inner == 2, case .varint(let raw) = part { id = UInt32(truncatingIfNeeded: raw) }
                }
                value = .reference(id)
            case (2, .bytes(let string)), (3, .bytes(let string)):
                try fields(string, bad: bad) { (inner: Int, part: Field) throws(BuildError) in
                    if inner == 1, case .bytes(let text) = part { value = .string(String(decoding: text, as: UTF8.self)) }
                }
            case (7, .bytes(let primitive)):
                try fields(primitive, bad: bad) { (inner: Int, part: Field) throws(BuildError) in
                    switch (inner, part) {
                    case (6, .varint(let raw)): value = .integer(Int(Int32(truncatingIfNeeded: raw)))
                    case (7, .varint(let raw)): value = .integer(Int(UInt32(truncatingIfNeeded: raw)))
                    default: break
                    }
                }
            default: break
            }
        }
        return value
    }

    /// Calls `body` with each field of a message, in order.
    static func fields(_ bytes: ArraySlice<UInt8>, bad: (String) -> BuildError,
                       _ body: (Int, Field) throws(BuildError) -> Void) throws(BuildError) {
        var at = bytes.startIndex
        func varint() throws(BuildError) -> UInt64 {
            var result: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard at < bytes.endIndex, shift < 64 else { throw bad("a varint is cut off") }
                let byte = bytes[at]; at += 1
                result |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return result }
                shift += 7
            }
        }
        while at < bytes.endIndex {
            let key = try varint()
            let number = Int(key >> 3)
            switch key & 7 {
            case 0: try body(number, .varint(try varint()))
            case 1:
                guard bytes.endIndex - at >= 8 else { throw bad("a fixed64 field is cut off") }
                at += 8; try body(number, .fixed)
            case 2:
                let length = try varint()
                guard length <= UInt64(bytes.endIndex - at) else { throw bad("field \(number) claims \(length) bytes past the message") }
                let end = at + Int(length)
                try body(number, .bytes(bytes[at..<end]))
                at = end
            case 5:
                guard bytes.endIndex - at >= 4 else { throw bad("a fixed32 field is cut off") }
                at += 4; try body(number, .fixed)
            default: throw bad("wire type \(key & 7) of field \(number) is not protobuf's")
            }
        }
    }
}
