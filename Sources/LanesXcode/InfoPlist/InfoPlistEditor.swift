internal import Foundation

/// Reads and sets top-level string values of an `Info.plist`, keeping the file's format: an XML plist
/// is edited as text (only the value's characters change, or one `<key>`/`<string>` pair is added
/// before the closing `</dict>` with the neighbours' indentation); a binary plist is rewritten as binary.
public struct InfoPlistEditor: Sendable {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let path: String?
        public let reason: String
        public var description: String { "\(path ?? "Info.plist"): \(reason); the file was not changed" }
    }

    public private(set) var bytes: [UInt8]
    public let path: String?

    public init(bytes: [UInt8], path: String? = nil) throws(Failure) {
        self.bytes = bytes
        self.path = path
        _ = try topLevel()
    }

    /// The top-level value of `key` when it is a string.
    public func string(forKey key: String) throws(Failure) -> String? {
        try topLevel()[key] as? String
    }

    /// Sets `key` to `value`; returns the previous string value (nil when absent).
    @discardableResult
    public mutating func set(_ key: String, to value: String) throws(Failure) -> String? {
        let before = try string(forKey: key)
        if before == value { return before }
        if bytes.starts(with: Array("bplist".utf8)) {
            var dictionary = try topLevel()
            dictionary[key] = value
            do {
                bytes = Array(try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0))
            } catch {
                throw Failure(path: path, reason: "cannot encode the binary plist: \(error.localizedDescription)")
            }
        } else {
            var scanner = XMLPlistScanner(bytes: bytes)
            guard let edit = scanner.edit(forKey: key, value: value) else {
                throw Failure(path: path, reason: "the XML plist has no top-level <dict> to edit")
            }
            bytes.replaceSubrange(edit.range, with: Array(edit.text.utf8))
        }
        guard try string(forKey: key) == value else {
            throw Failure(path: path, reason: "editing \(key) did not take effect; the plist layout is not understood")
        }
        return before
    }

    private func topLevel() throws(Failure) -> [String: Any] {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            throw Failure(path: path, reason: "not a property list: \(error.localizedDescription)")
        }
        guard let dictionary = object as? [String: Any] else { throw Failure(path: path, reason: "the top level is not a dictionary") }
        return dictionary
    }
}

/// Finds elements of the top-level `<dict>` of an XML plist by scanning tags; enough for Info.plist.
private struct XMLPlistScanner {
    let bytes: [UInt8]

    struct Tag {
        let name: String
        let range: Range<Int>
        let isClosing: Bool
        let isEmpty: Bool
    }

    func tags() -> [Tag] {
        var result: [Tag] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else { index += 1; continue }
            if bytes[index...].starts(with: Array("<!--".utf8)) {
                index = find("-->", from: index).map { $0 + 3 } ?? bytes.count
                continue
            }
            guard let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else { break }
            let inner = String(decoding: bytes[(index + 1)..<close], as: UTF8.self)
            let isClosing = inner.hasPrefix("/")
            let isEmpty = inner.hasSuffix("/")
            let name = inner.drop { $0 == "/" }.prefix { $0.isLetter || $0 == "?" || $0 == "!" }
            result.append(Tag(name: String(name), range: index..<(close + 1), isClosing: isClosing, isEmpty: isEmpty))
            index = close + 1
        }
        return result
    }

    mutating func edit(forKey key: String, value: String) -> (range: Range<Int>, text: String)? {
        let tags = tags()
        var depth = 0
        var topDictClose: Int?
        var lastKeyLineIndent = "\t"
        var index = 0
        while index < tags.count {
            let tag = tags[index]
            let isContainer = tag.name == "dict" || tag.name == "array"
            if isContainer, !tag.isEmpty {
                if tag.isClosing {
                    depth -= 1
                    if depth == 0, tag.name == "dict" { topDictClose = index; break }
                } else {
                    depth += 1
                }
            }
            if depth == 1, tag.name == "key", !tag.isClosing, index + 1 < tags.count {
                let content = String(decoding: bytes[tag.range.upperBound..<tags[index + 1].range.lowerBound], as: UTF8.self)
                lastKeyLineIndent = indentation(before: tag.range.lowerBound)
                if unescape(content) == key, index + 2 < tags.count {
                    let valueTag = tags[index + 2]
                    if valueTag.name == "string", !valueTag.isEmpty, index + 3 < tags.count {
                        return (valueTag.range.upperBound..<tags[index + 3].range.lowerBound, escape(value))
                    }
                    let end = valueTag.isEmpty || index + 3 >= tags.count ? valueTag.range.upperBound : tags[index + 3].range.upperBound
                    return (valueTag.range.lowerBound..<end, "<string>\(escape(value))</string>")
                }
            }
            index += 1
        }
        guard let closeIndex = topDictClose else { return nil }
        let closeTag = tags[closeIndex]
        let lineStart = lineStart(of: closeTag.range.lowerBound)
        // `</dict>` on a line of its own: the pair goes on lines of its own above it. Sharing its line
        // (a plist written on one line, or `<string>x</string></dict>`): just before it, on that line.
        guard bytes[lineStart..<closeTag.range.lowerBound].allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else {
            return (closeTag.range.lowerBound..<closeTag.range.lowerBound, "<key>\(escape(key))</key><string>\(escape(value))</string>")
        }
        let text = "\(lastKeyLineIndent)<key>\(escape(key))</key>\n\(lastKeyLineIndent)<string>\(escape(value))</string>\n"
        return (lineStart..<lineStart, text)
    }

    private func find(_ needle: String, from start: Int) -> Int? {
        let pattern = Array(needle.utf8)
        var index = start
        while index + pattern.count <= bytes.count {
            if bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }

    private func lineStart(of offset: Int) -> Int {
        var index = offset
        while index > 0, bytes[index - 1] != UInt8(ascii: "\n") { index -= 1 }
        return index
    }

    private func indentation(before offset: Int) -> String {
        let start = lineStart(of: offset)
        return String(decoding: bytes[start..<offset].prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }, as: UTF8.self)
    }

    private func escape(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }

    private func unescape(_ text: String) -> String {
        text.replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&amp;", with: "&")
    }
}
