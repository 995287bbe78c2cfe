import LanesBuild
#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

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
