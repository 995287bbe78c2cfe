import ArgumentParser
import Foundation
import LanesPlatform
import Lanes

/// How the signing commands fail: bad input (a configuration error) or a failed check (a lane
/// failure), reported by `lanes-tool`'s one error path.
enum SigningCLIFailure: Error {
    case badInput(String)
    case checkFailed(String)

    /// Runs `body`, turning a failure into the `LanesError` of its kind.
    static func reporting(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let failure as SigningCLIFailure {
            switch failure {
            case let .badInput(message): throw LanesError(.configuration, message)
            case let .checkFailed(message): throw LanesError(.laneFailure, message)
            }
        }
    }
}

enum SigningOutput {
    static func printJSON<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    static func printFields(_ fields: [(String, String)]) {
        let width = fields.map(\.0.count).max() ?? 0
        for (label, value) in fields {
            // Values come from certificates and profiles (names, subjects): shown, not obeyed.
            print(label.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + TerminalText.visible(value))
        }
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((TerminalText.visible(message, keepingLineBreaks: true) + "\n").utf8))
    }
}
