/// A parsed `project.pbxproj`: the exact bytes read and the tree over them. Nothing is normalized, so
/// writing `bytes` back reproduces the file byte for byte.
public struct PBXDocument: Sendable {
    public let bytes: [UInt8]
    public let root: PBXDictionary
    /// The file the bytes came from, for error messages.
    public let path: String?

    public init(bytes: [UInt8], path: String? = nil) throws(PBXParseError) {
        let value = try PBXParser.parse(bytes, path: path)
        guard case .dictionary(let root) = value else {
            throw PBXParseError(reason: "the top level is not a dictionary '{ ... }'", offset: value.range.lowerBound,
                                in: bytes, path: path)
        }
        self.bytes = bytes
        self.root = root
        self.path = path
    }

    /// 1-based line number of a byte offset.
    public func line(of offset: Int) -> Int {
        1 + bytes[..<min(offset, bytes.count)].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
    }
}
