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

    /// `KEY=value` lines; `export` prefixes, comments, blank lines and single or double quotes allowed.
    static func parse(_ text: String, file: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = rawLine.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = String(line.dropFirst(7)).trimmingWhitespace() }
            guard let equals = line.firstIndex(of: "=") else {
                throw LanesError(.configuration, "\(file):\(number + 1): expected KEY=value, found '\(line)'")
            }
            let key = String(line[..<equals]).trimmingWhitespace()
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw LanesError(.configuration, "\(file):\(number + 1): '\(key)' is not a valid variable name")
            }
            var value = String(line[line.index(after: equals)...]).trimmingWhitespace()
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
                if first == "\"" { value = value.replacing("\\n", with: "\n") }
            } else if let comment = value.firstRange(of: " #") {
                value = String(value[..<comment.lowerBound]).trimmingWhitespace()
            }
            result[key] = value
        }
        return result
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
