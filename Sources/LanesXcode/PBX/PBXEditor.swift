/// Collects edits against one `PBXDocument` and applies them together. Each edit replaces only the bytes
/// of one value, or inserts one new `key = value;` where Xcode would put it: before the first key that
/// sorts after it, on its own line with the neighbours' indentation (or inline in a one-line object).
/// Every other byte of the file stays as it was.
public struct PBXEditor: Sendable {
    public let document: PBXDocument
    private var edits: [Edit] = []

    private struct Edit: Sendable {
        /// Identifies the edited slot so that setting the same key twice keeps the last value.
        let slot: Slot
        let range: Range<Int>
        let text: String
        /// Orders insertions at the same offset: by key, as Xcode sorts them.
        let key: [UInt8]
    }

    private struct Slot: Hashable, Sendable {
        let dictionaryStart: Int
        let key: String
    }

    public init(document: PBXDocument) {
        self.document = document
    }

    public var hasEdits: Bool { !edits.isEmpty }

    /// Sets `key` to `value` in `dictionary` (a dictionary of `document`): replaces the existing value's
    /// bytes, or inserts the entry in sorted position. Setting a key to the value it already has (same
    /// rendering) is not an edit.
    public mutating func set(_ key: String, to value: PBXNewValue, in dictionary: PBXDictionary) {
        let slot = Slot(dictionaryStart: dictionary.range.lowerBound, key: key)
        edits.removeAll { $0.slot == slot }
        if let entry = dictionary.entry(key) {
            let indent = indentation(ofLineAt: entry.range.lowerBound)
            let multiline = isOnOwnLine(entry.range.lowerBound)
            let text = value.rendered(indent: indent, multiline: multiline)
            let old = String(decoding: document.bytes[entry.value.range], as: UTF8.self)
            guard old != text else { return }
            edits.append(Edit(slot: slot, range: entry.value.range, text: text, key: Array(key.utf8)))
            return
        }
        edits.append(insertion(of: key, value: value, into: dictionary, slot: slot))
    }

    /// Drops any pending edit of `key` in `dictionary`: the file keeps what it has there.
    public mutating func discard(_ key: String, in dictionary: PBXDictionary) {
        let slot = Slot(dictionaryStart: dictionary.range.lowerBound, key: key)
        edits.removeAll { $0.slot == slot }
    }

    /// The edited file, parsed again.
    public func apply() throws(PBXParseError) -> PBXDocument {
        guard !edits.isEmpty else { return document }
        return try PBXDocument(bytes: try appliedBytes(), path: document.path)
    }

    /// The edited file's bytes. Each inserted or replaced text is checked to parse as the complete
    /// entry or value it stands for; since the bytes around it are unchanged, the whole file still
    /// parses, without the cost of reading a large file twice. Throws (and the caller writes nothing)
    /// if a text does not parse, which would be a bug in the editor.
    public func appliedBytes() throws(PBXParseError) -> [UInt8] {
        guard !edits.isEmpty else { return document.bytes }
        let ordered = edits.enumerated().sorted { lhs, rhs in
            if lhs.element.range.lowerBound != rhs.element.range.lowerBound {
                return lhs.element.range.lowerBound < rhs.element.range.lowerBound
            }
            return lhs.element.key.lexicographicallyPrecedes(rhs.element.key)
        }.map(\.element)
        var output: [UInt8] = []
        output.reserveCapacity(document.bytes.count + edits.reduce(0) { $0 + $1.text.utf8.count })
        var position = 0
        for edit in ordered {
            try verify(edit)
            output.append(contentsOf: document.bytes[position..<edit.range.lowerBound])
            output.append(contentsOf: edit.text.utf8)
            position = max(position, edit.range.upperBound)
        }
        output.append(contentsOf: document.bytes[position...])
        return output
    }

    /// An insertion must read as exactly one `key = value;` entry, a replacement as exactly one value.
    private func verify(_ edit: Edit) throws(PBXParseError) {
        let isInsertion = edit.range.isEmpty
        let wrapped = isInsertion ? "{" + edit.text + "}" : "{k = " + edit.text + ";}"
        let value = try PBXParser.parse(Array(wrapped.utf8), path: document.path)
        guard case .dictionary(let dictionary) = value, dictionary.entries.count == 1,
              !isInsertion || dictionary.entries[0].key.value == String(decoding: edit.key, as: UTF8.self) else {
            throw PBXParseError(reason: "internal error: the edit of \(String(decoding: edit.key, as: UTF8.self)) does not read back as one entry",
                                offset: edit.range.lowerBound, in: document.bytes, path: document.path)
        }
    }

    private func insertion(of key: String, value: PBXNewValue, into dictionary: PBXDictionary, slot: Slot) -> Edit {
        let keyBytes = Array(key.utf8)
        let closingBrace = dictionary.range.upperBound - 1
        let follower = dictionary.entries.first { keyBytes.lexicographicallyPrecedes(Array($0.key.value.utf8)) }
        let multiline = dictionary.entries.first.map { isOnOwnLine($0.range.lowerBound) } ?? isOnOwnLine(closingBrace)
        guard multiline else {
            let offset = follower?.range.lowerBound ?? closingBrace
            let text = PBXQuoting.render(key) + " = " + value.rendered(indent: "", multiline: false) + "; "
            return Edit(slot: slot, range: offset..<offset, text: text, key: keyBytes)
        }
        let offset: Int
        let indent: String
        if let follower {
            offset = lineStart(of: follower.range.lowerBound)
            indent = indentation(ofLineAt: follower.range.lowerBound)
        } else if let last = dictionary.entries.last {
            offset = lineStart(of: closingBrace)
            indent = indentation(ofLineAt: last.range.lowerBound)
        } else {
            offset = lineStart(of: closingBrace)
            indent = indentation(ofLineAt: closingBrace) + "\t"
        }
        let text = indent + PBXQuoting.render(key) + " = " + value.rendered(indent: indent, multiline: true) + ";\n"
        return Edit(slot: slot, range: offset..<offset, text: text, key: keyBytes)
    }

    private func lineStart(of offset: Int) -> Int {
        var index = offset
        while index > 0, document.bytes[index - 1] != UInt8(ascii: "\n") { index -= 1 }
        return index
    }

    /// Whether only spaces and tabs precede `offset` on its line.
    private func isOnOwnLine(_ offset: Int) -> Bool {
        document.bytes[lineStart(of: offset)..<offset].allSatisfy { $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: " ") }
    }

    private func indentation(ofLineAt offset: Int) -> String {
        let start = lineStart(of: offset)
        var end = start
        while end < document.bytes.count, document.bytes[end] == UInt8(ascii: "\t") || document.bytes[end] == UInt8(ascii: " ") {
            end += 1
        }
        return String(decoding: document.bytes[start..<end], as: UTF8.self)
    }
}
