import LanesBuild
// PropertyListSerialization (an ExportOptions.plist given as export_options) is Foundation's.
internal import Foundation

/// `export_options` on the command line is a JSON object, as ExportOptions.plist holds it:
/// `export_options:{"signingStyle":"manual","provisioningProfiles":{"works.sth.brewer":"Brewer_Staging"}}`.
extension ExportOptions: OptionValue, CustomStringConvertible {
    public static var typeName: String { "JSON object" }

    public init?(optionText: String) {
        guard let decoded = try? JSONDecoder().decode([String: JSONOptionValue].self, from: Data(optionText.utf8)) else { return nil }
        self.init(decoded.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value.exportOptionValue) })
    }

    public var description: String {
        "{" + entries.map { entry in
            let value: String = switch entry.value {
            case .string(let text): "\"\(text)\""
            case .bool(let flag): String(flag)
            case .dictionary(let map): "{" + map.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\"\($0.value)\"" }.joined(separator: ",") + "}"
            }
            return "\"\(entry.key)\":\(value)"
        }.joined(separator: ",") + "}"
    }
}

/// One value of the JSON object: a string, a Boolean, or a dictionary of strings.
private enum JSONOptionValue: Decodable {
    case string(String), bool(Bool), dictionary([String: String])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) { self = .bool(flag); return }
        if let text = try? container.decode(String.self) { self = .string(text); return }
        self = .dictionary(try container.decode([String: String].self))
    }

    var exportOptionValue: ExportOptionValue {
        switch self {
        case .string(let text): .string(text)
        case .bool(let flag): .bool(flag)
        case .dictionary(let map): .dictionary(map)
        }
    }
}

/// gym's `export_options`: a dictionary of ExportOptions.plist keys, or the path of an
/// ExportOptions.plist whose keys are read (fastlane's `ensure_export_options_is_hash`). In a
/// Lanefile a dictionary literal or a string; on the command line a JSON object or a path.
public enum ExportOptionsSource: Sendable, Equatable, OptionValue, ExpressibleByDictionaryLiteral, ExpressibleByStringLiteral,
                                 CustomStringConvertible {
    case options(ExportOptions)
    case plist(String)

    public init(dictionaryLiteral elements: (String, any ExportOptionConvertible)...) {
        self = .options(ExportOptions(elements.map { (key: $0.0, value: $0.1.exportOptionValue) }))
    }

    public init(stringLiteral path: String) { self = .plist(path) }

    public static var typeName: String { "JSON object or .plist path" }

    public init?(optionText: String) {
        if optionText.hasPrefix("{") {
            guard let options = ExportOptions(optionText: optionText) else { return nil }
            self = .options(options)
        } else {
            guard !optionText.isEmpty else { return nil }
            self = .plist(optionText)
        }
    }

    public var description: String {
        switch self {
        case .options(let options): options.description
        case .plist(let path): path
        }
    }

    /// The options: the dictionary, or the plist's top-level keys (strings, Booleans, dictionaries
    /// of strings, as ExportOptions.plist holds them).
    func resolved(_ resolve: (String) -> String) throws -> ExportOptions {
        switch self {
        case .options(let options): return options
        case .plist(let path):
            let file = resolve(path)
            guard let data = FileManager.default.contents(atPath: file) else {
                throw LanesError(.configuration, "build_app: export_options \(file) cannot be read", hint: "give the path of an ExportOptions.plist, or a dictionary")
            }
            guard let dictionary = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
                throw LanesError(.configuration, "build_app: export_options \(file) is not a property list dictionary")
            }
            var entries: [(key: String, value: ExportOptionValue)] = []
            for (key, value) in dictionary.sorted(by: { $0.key < $1.key }) {
                if let flag = value as? Bool, !(value is String) { entries.append((key, .bool(flag))); continue }
                if let text = value as? String { entries.append((key, .string(text))); continue }
                if let map = value as? [String: String] { entries.append((key, .dictionary(map))); continue }
                throw LanesError(.configuration, "build_app: export_options \(file): \(key) is not a string, a Boolean or a dictionary of strings")
            }
            return ExportOptions(entries)
        }
    }
}
