/// One assignment in an `.xcconfig` file: `KEY[condition] = value`, with where it was written.
public struct XCConfigSetting: Sendable, Hashable {
    /// The full key as written, conditions included (`CODE_SIGN_IDENTITY[sdk=iphoneos*]`).
    public let key: String
    public let value: String
    public let file: String
    public let line: Int
}

/// A problem in an `.xcconfig` file: the file, the line and what to do.
public struct XCConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    public let file: String
    /// 1-based; nil when the file itself could not be read.
    public let line: Int?
    public let reason: String
    public var description: String { line.map { "\(file):\($0): \(reason)" } ?? "\(file): \(reason)" }
}

/// Reads `.xcconfig` files with their `#include "path"` and `#include? "path"` (optional) directives,
/// relative to the including file. File access is the caller's `read` closure (nil = file missing).
public struct XCConfigReader {
    public typealias ReadFile = (String) throws -> String?
    private let read: ReadFile

    public init(read: @escaping ReadFile) { self.read = read }

    /// All assignments in the order Xcode applies them: later ones override earlier ones.
    public func settings(at path: String) throws -> [XCConfigSetting] {
        var visiting: [String] = []
        return try settings(at: path, includedFrom: nil, optional: false, visiting: &visiting)
    }

    private func settings(at path: String, includedFrom: (file: String, line: Int)?, optional: Bool,
                          visiting: inout [String]) throws -> [XCConfigSetting] {
        guard !visiting.contains(path) else {
            throw XCConfigError(file: includedFrom?.file ?? path, line: includedFrom?.line,
                                reason: "#include cycle: \((visiting + [path]).joined(separator: " -> "))")
        }
        guard let text = try read(path) else {
            if optional { return [] }
            throw XCConfigError(file: includedFrom?.file ?? path, line: includedFrom?.line,
                                reason: "cannot read \(path)\(includedFrom == nil ? "" : " (included here)"); use #include? for files that may be absent")
        }
        visiting.append(path)
        defer { visiting.removeLast() }
        var result: [XCConfigSetting] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let lineNumber = index + 1
            let line = stripComment(rawLine).trimmingWhitespace()
            if line.isEmpty { continue }
            if line.hasPrefix("#include") {
                let isOptional = line.hasPrefix("#include?")
                guard let included = quotedPath(in: line) else {
                    throw XCConfigError(file: path, line: lineNumber, reason: "expected #include \"file.xcconfig\"")
                }
                let resolved = included.hasPrefix("/") ? included : directory(of: path) + included
                result += try settings(at: resolved, includedFrom: (path, lineNumber), optional: isOptional, visiting: &visiting)
                continue
            }
            guard let equals = assignmentIndex(in: line) else {
                throw XCConfigError(file: path, line: lineNumber, reason: "expected KEY = value")
            }
            let key = String(line[..<equals]).trimmingWhitespace()
            var value = String(line[line.index(after: equals)...]).trimmingWhitespace()
            if value.hasSuffix(";") { value.removeLast() }
            result.append(XCConfigSetting(key: key.replacing(" ", with: ""), value: value.trimmingWhitespace(), file: path, line: lineNumber))
        }
        return result
    }

    /// The `=` of `KEY[cond=value] = value`: the first one outside the condition brackets.
    private func assignmentIndex(in line: String) -> String.Index? {
        var depth = 0
        for index in line.indices {
            switch line[index] {
            case "[": depth += 1
            case "]": depth -= 1
            case "=" where depth == 0: return index
            default: break
            }
        }
        return nil
    }

    /// Xcode ends a line at `//` wherever it appears (a URL needs `/$()/`).
    private func stripComment(_ line: Substring) -> Substring {
        guard let range = line.firstRange(of: "//") else { return line }
        return line[..<range.lowerBound]
    }

    private func quotedPath(in line: String) -> String? {
        guard let open = line.firstIndex(of: "\""), let close = line[line.index(after: open)...].firstIndex(of: "\"") else {
            return nil
        }
        return String(line[line.index(after: open)..<close])
    }

    private func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
