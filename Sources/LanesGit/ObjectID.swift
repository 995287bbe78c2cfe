internal import CGit2

/// A git object name (SHA-1), kept as its 40-character lowercase hex spelling.
public struct ObjectID: Sendable, Hashable, Codable, CustomStringConvertible {
    public let hex: String

    /// Accepts a full 40-character hex object name.
    public init?(hex: String) {
        let lowered = hex.lowercased()
        guard lowered.utf8.count == 40, lowered.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
        else { return nil }
        self.hex = lowered
    }

    init(_ oid: git_oid) {
        var oid = oid
        var buffer = [CChar](repeating: 0, count: 41)
        git_oid_fmt(&buffer, &oid)  // 40 hex digits, no terminator written
        hex = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    init(_ pointer: UnsafePointer<git_oid>) {
        self.init(pointer.pointee)
    }

    /// The first seven characters, as `git log --oneline` shows.
    public var short: String { String(hex.prefix(7)) }

    public var description: String { hex }

    var oid: git_oid {
        var oid = git_oid()
        _ = git_oid_fromstr(&oid, hex)
        return oid
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let id = ObjectID(hex: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "'\(text)' is not a 40-character object name"))
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }
}
