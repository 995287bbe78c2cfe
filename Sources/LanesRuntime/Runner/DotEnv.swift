internal import LanesPlatform

/// fastlane's dotenv behaviour: `.env.default`, then `.env`, then `.env.NAME` for each name of
/// `--env NAME[,NAME...]` in order, each overriding the one before; the real environment overrides them all.
struct DotEnv {
    let directory: String
    var diagnostics = Diagnostics.silent

    func load(environmentNames: [String], over process: [String: String]) throws -> [String: String] {
        for name in environmentNames where name.isEmpty || name.contains("/") {
            throw LanesError(.usage, "--env takes a name such as staging, not '\(name)'")
        }
        let named = environmentNames.map { ".env.\($0)" }
        var variables: [String: String] = [:]
        for file in [".env.default", ".env"] + named {
            let path = directory + "/" + file
            guard let text = try readIfPresent(path) else {
                if named.contains(file) {
                    throw LanesError(.configuration, "--env \(file.dropFirst(5)): \(path) does not exist")
                }
                continue
            }
            let parsed = try Self.parse(text, file: path)
            diagnostics.debug("read \(path): \(parsed.keys.sorted().joined(separator: ", "))")
            variables.merge(parsed) { $1 }
        }
        return variables.merging(process) { $1 }
    }

    /// `KEY=value` lines; `export` prefixes, comments, blank lines, single or double quotes (which
    /// may span lines), LF or CRLF line ends, and a leading UTF-8 byte-order mark are allowed.
    /// Errors name the file and line and say what is wrong, never the line's text: a malformed
    /// line is often a pasted secret, and nothing is registered for redaction yet.
    static func parse(_ text: String, file: String) throws -> [String: String] {
        var parser = DotEnvParser(text: text)
        do {
            return try parser.parse()
        } catch {
            throw LanesError(.configuration, "\(file):\(error.line): \(error.reason)")
        }
    }

    private func readIfPresent(_ path: String) throws -> String? {
        guard FilePath.exists(path) else { return nil }
        do {
            return try FilePath.read(path)
        } catch {
            throw LanesError(.configuration, "\(error)")
        }
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        String(drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" }).reversed().drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" }).reversed())
    }
}

/// The dotenv grammar, on Unicode scalars: a `String` treats `\r\n` as one character, so
/// splitting on `"\n"` would read a CRLF file as a single line. Public for the fuzz command.
public struct DotEnvParser {
    /// What is wrong, and on which line; never the line's text.
    public struct Problem: Error, Sendable {
        public let line: Int
        public let reason: String
    }

    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var line = 1

    public init(text: String) {
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }  // a byte-order mark is no part of the first name
        self.scalars = scalars
    }

    public mutating func parse() throws(Problem) -> [String: String] {
        var result: [String: String] = [:]
        while position < scalars.count {
            skip { $0 == " " || $0 == "\t" }
            guard let next = peek else { break }
            if next == "\n" || next == "\r" { consumeLineEnd(); continue }
            if next == "#" { skip { $0 != "\n" }; continue }
            let startLine = line
            var name = readWhile { $0 != "=" && $0 != "\n" && $0 != "\r" && $0 != " " && $0 != "\t" }
            if name == "export", peek == " " || peek == "\t" {
                skip { $0 == " " || $0 == "\t" }
                name = readWhile { $0 != "=" && $0 != "\n" && $0 != "\r" && $0 != " " && $0 != "\t" }
            }
            skip { $0 == " " || $0 == "\t" }
            guard peek == "=" else {
                throw Problem(line: startLine, reason: "expected KEY=value, found a line without '=' (its text is not shown: it may hold a secret)")
            }
            guard let first = name.unicodeScalars.first, !("0"..."9").contains(first),
                  name.unicodeScalars.allSatisfy(Self.isNameScalar) else {
                throw Problem(line: startLine, reason: "the name before '=' is not a valid variable name (use letters, digits and _, not starting with a digit)")
            }
            position += 1
            skip { $0 == " " || $0 == "\t" }
            result[name] = try readValue(name: name, startLine: startLine)
        }
        return result
    }

    private mutating func readValue(name: String, startLine: Int) throws(Problem) -> String {
        guard peek == "\"" || peek == "'" else {
            var value = readWhile { $0 != "\n" && $0 != "\r" }
            if let comment = value.firstRange(of: " #") ?? value.firstRange(of: "\t#") { value = String(value[..<comment.lowerBound]) }
            if value.hasPrefix("#") { value = "" }
            return value.trimmingWhitespace()
        }
        // Quoted parts next to each other join, as in a shell: 'it'"'"'s'.
        var value = String.UnicodeScalarView()
        while let quote = peek, quote == "\"" || quote == "'" {
            position += 1
            try readQuoted(until: quote, into: &value, name: name, startLine: startLine)
        }
        skip { $0 == " " || $0 == "\t" }
        if let next = peek, next == "#" { skip { $0 != "\n" } }
        guard peek == nil || peek == "\n" || peek == "\r" else {
            throw Problem(line: line, reason: "unexpected text after the closing quote of \(name)'s value")
        }
        return String(value)
    }

    private mutating func readQuoted(until quote: Unicode.Scalar, into value: inout String.UnicodeScalarView,
                                     name: String, startLine: Int) throws(Problem) {
        while true {
            guard let scalar = peek else {
                throw Problem(line: startLine, reason: "the quoted value of \(name) is never closed (a \(quote == "\"" ? "double" : "single") quote is missing)")
            }
            position += 1
            if scalar == quote { return }
            if scalar == "\r", peek == "\n" { continue }  // CRLF inside a value reads as LF
            if scalar == "\n" { line += 1 }
            if quote == "\"", scalar == "\\", let escaped = peek {
                position += 1
                switch escaped {
                case "n": value.append("\n")
                case "r": value.append("\r")
                case "t": value.append("\t")
                case "\"", "\\", "$": value.append(escaped)
                default: value.append("\\"); value.append(escaped)
                }
                continue
            }
            value.append(scalar)
        }
    }

    private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
    }

    private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private mutating func consumeLineEnd() {
        if peek == "\r" { position += 1 }
        if peek == "\n" { position += 1 }
        line += 1
    }

    private mutating func skip(while predicate: (Unicode.Scalar) -> Bool) {
        while let scalar = peek, predicate(scalar) { position += 1 }
    }

    private mutating func readWhile(_ predicate: (Unicode.Scalar) -> Bool) -> String {
        var result = String.UnicodeScalarView()
        while let scalar = peek, predicate(scalar) { result.append(scalar); position += 1 }
        return String(result)
    }
}
