/// A value to write into a `project.pbxproj`. Dictionaries are written with sorted keys, as Xcode does.
public indirect enum PBXNewValue: Sendable, Hashable {
    case string(String)
    case array([PBXNewValue])
    case dictionary([String: PBXNewValue])

    /// Renders the value as Xcode would at a place whose line is indented by `indent`; `multiline`
    /// is false inside one-line objects such as `{isa = PBXBuildFile; fileRef = ...; }`.
    func rendered(indent: String, multiline: Bool) -> String {
        switch self {
        case .string(let text):
            return PBXQuoting.render(text)
        case .array(let elements):
            guard multiline else {
                return "(" + elements.map { $0.rendered(indent: indent, multiline: false) + ", " }.joined() + ")"
            }
            let inner = indent + "\t"
            let lines = elements.map { inner + $0.rendered(indent: inner, multiline: true) + ",\n" }
            return "(\n" + lines.joined() + indent + ")"
        case .dictionary(let entries):
            let sorted = entries.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            guard multiline else {
                return "{" + sorted.map { PBXQuoting.render($0.key) + " = " + $0.value.rendered(indent: indent, multiline: false) + "; " }.joined() + "}"
            }
            let inner = indent + "\t"
            let lines = sorted.map { inner + PBXQuoting.render($0.key) + " = " + $0.value.rendered(indent: inner, multiline: true) + ";\n" }
            return "{\n" + lines.joined() + indent + "}"
        }
    }
}

extension PBXValue {
    /// The value as a writable value; data tokens become their hexadecimal text.
    public var newValue: PBXNewValue {
        switch self {
        case .string(let string): .string(string.value)
        case .data(let data): .string(data.bytes.map { String($0, radix: 16) }.joined())
        case .array(let array): .array(array.elements.map(\.newValue))
        case .dictionary(let dictionary):
            .dictionary(Dictionary(dictionary.entries.map { ($0.key.value, $0.value.newValue) }, uniquingKeysWith: { _, last in last }))
        }
    }
}
