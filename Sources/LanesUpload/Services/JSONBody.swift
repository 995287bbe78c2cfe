#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesHTTP

/// JSON in and out of HTTP bodies, through Codable.
enum JSONBody {
    static func encode<Value: Encodable>(_ value: Value) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? Array(encoder.encode(value))) ?? []
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from response: HTTPResponse, destination: String, what: String) throws(UploadError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: Data(response.body))
        } catch {
            throw .transfer(destination, "the answer to \(what) is not the JSON expected (\(response.status), \(response.body.count) bytes)")
        }
    }
}

/// A secret read from a variable that holds either a file path or the value itself.
enum PathOrValue {
    /// The variable's value if it looks like the content (`looksLikeContent`), else the file it names.
    static func read(_ variable: String, from environment: [String: String], for destination: String,
                     looksLikeContent: (String) -> Bool) throws(UploadError) -> (text: String, inline: Bool)? {
        guard let value = environment[variable], !value.isEmpty else { return nil }
        if looksLikeContent(value) { return (value, true) }
        guard let bytes = try? LanesPlatformFile.read(value) else {
            throw UploadError(.environment, "\(destination): \(variable) names \(value), which cannot be read",
                              hint: "set \(variable) to the file's path or to its contents")
        }
        return (bytes, false)
    }
}
