public import LanesPlatform

/// The JSON value lanes writes and reads (`LanesPlatform.JSONValue`), under the name Lanefiles and
/// step results have always used.
public typealias JSONValue = LanesPlatform.JSONValue

extension JSONValue {
    /// The JSON text with every string value redacted before it is quoted, so that no secret, however
    /// short or full of metacharacters, can change the document's structure.
    public func serialized(redactor: Redactor?) -> String {
        guard let redactor else { return serialized }
        return mappingValues(redactor.redact).serialized
    }

    /// Every string value (not the keys, which lanes writes itself) passed through `transform`.
    func mappingValues(_ transform: (String) -> String) -> JSONValue {
        switch self {
        case .string(let text): .string(transform(text))
        case .number, .bool, .null: self
        case .array(let values): .array(values.map { $0.mappingValues(transform) })
        case .object(let fields): .object(fields.map { ($0.0, $0.1.mappingValues(transform)) })
        }
    }

}
