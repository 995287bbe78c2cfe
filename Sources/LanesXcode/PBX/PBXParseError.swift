/// A `project.pbxproj` (or any old-style plist) that could not be read: what was wrong and where.
public struct PBXParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the reader expected or found.
    public let reason: String
    /// 1-based line and column (column counted in bytes) of the offending byte.
    public let line: Int
    public let column: Int
    /// Byte offset of the offending byte.
    public let offset: Int
    /// The file, when the caller named one.
    public var path: String?

    public init(reason: String, offset: Int, in bytes: some Collection<UInt8>, path: String? = nil) {
        var line = 1
        var lineStart = 0
        for (index, byte) in bytes.prefix(offset).enumerated() where byte == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        self.reason = reason
        self.offset = offset
        self.line = line
        self.column = offset - lineStart + 1
        self.path = path
    }

    public var description: String {
        "\(path ?? "project.pbxproj"):\(line):\(column): \(reason); the file was not changed"
    }
}
