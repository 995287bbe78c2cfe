/// One schedule line after parsing.
public struct CronEntry: Sendable, Hashable {
    /// 1-based physical line number in the schedule text.
    public let lineNumber: Int
    /// The line as written, trimmed.
    public let line: String
    /// What Jenkins evaluates: the line itself, or the expansion of an alias (`@daily` → `H H * * *`).
    public let effectiveSpec: String
    /// The resolved values.
    public let table: CronTable
}

/// A schedule text as Jenkins' "Build periodically" field takes it: one schedule per line, blank
/// lines and `#` comment lines ignored, an optional `TZ=<zone>` first line, `H` resolved from a seed.
public struct CronSchedule: Sendable {
    /// The schedule lines in order; empty when the text holds none (it then never fires).
    public let entries: [CronEntry]
    /// The id from a `TZ=` first line. Unlike Jenkins, lanes applies it to alias lines too.
    public let timeZoneIdentifier: String?
    /// The rules for `timeZoneIdentifier`.
    public var timeZone: (any CronTimeZone)? { hasOwnZone ? ownZone : nil }
    /// The `TZ=` zone when `hasOwnZone`, else a placeholder: kept non-optional so that fire-time
    /// computation passes it on without copying an optional existential.
    let ownZone: any CronTimeZone
    let hasOwnZone: Bool
    /// Jenkins' sanity warning (the first line's that has one), or nil.
    public let warning: String?
    /// The entries' tables, kept apart so that fire-time computation touches no reference counts.
    let tables: [CronTable]

    /// Parses `text` exactly as Jenkins' `CronTabList.create(text, Hash.from(seed))` does.
    /// - Parameters:
    ///   - seed: The job's full name, which seeds `H`. Nil: every `H` takes its lowest value.
    ///   - timeZones: Resolves a `TZ=` id to zone rules.
    public init(parsing text: String, seed: String?, timeZones: some CronTimeZoneResolver = SystemTimeZoneResolver()) throws(CronSyntaxError) {
        var hash = JenkinsHash(seed: seed)
        var entries: [CronEntry] = []
        var zoneIdentifier: String?
        var zone: (any CronTimeZone)?
        for (index, rawLine) in Self.javaLines(text).enumerated() {
            let lineNumber = index + 1
            let line = Self.javaTrim(rawLine)
            if lineNumber == 1, line.unicodeScalars.starts(with: "TZ=".unicodeScalars) {
                let identifier = Self.removingEvery("TZ=", from: line)
                guard JavaTimeZoneIdentifiers.contains(identifier) else {
                    throw CronSyntaxError(message: "Invalid or unsupported timezone '\(identifier)'", lineNumber: 1, column: nil)
                }
                guard let resolved = timeZones.timeZone(identifier: identifier) else {
                    throw CronSyntaxError(
                        message: "Time zone '\(identifier)' is valid in Jenkins but unknown to this system's time-zone database; install tzdata or pick another zone",
                        lineNumber: 1, column: nil)
                }
                zoneIdentifier = identifier
                zone = resolved
                continue
            }
            if line.isEmpty || line.unicodeScalars.first == "#" { continue }
            do {
                let fields = try CronLineParser.parse(line, hash: &hash)
                let masks = fields.masks
                let table = CronTable(minutes: masks[0], hours: masks[1], daysOfMonth: masks[2], months: masks[3], daysOfWeek: masks[4])
                entries.append(CronEntry(lineNumber: lineNumber, line: line, effectiveSpec: fields.aliasExpansion ?? line, table: table))
            } catch {
                let column: Int? = if case let .recognition(column, _) = error { column } else { nil }
                throw CronSyntaxError(
                    message: "Invalid input: \"\(line)\": \(error.message(lineNumber: lineNumber))", lineNumber: lineNumber, column: column)
            }
        }
        self.entries = entries
        tables = entries.map(\.table)
        timeZoneIdentifier = zoneIdentifier
        ownZone = zone ?? FixedOffsetTimeZone.utc
        hasOwnZone = zone != nil
        warning = entries.lazy.compactMap { CronSanity.warning(spec: $0.effectiveSpec, table: $0.table) }.first
    }

    /// `text` with `TZ=<zone>` as its first line, unless `zone` is nil or the text has a `TZ=` line
    /// already: how a lane's `.timeZone(...)` applies to its specs.
    public static func text(_ text: String, defaultingToZone zone: String?) -> String {
        guard let zone, !javaTrim(javaLines(text).first ?? "").unicodeScalars.starts(with: "TZ=".unicodeScalars) else { return text }
        return "TZ=\(zone)\n\(text)"
    }

    /// Java's `text.split("\\r?\\n")`: a lone `\r` stays in the line; trailing empty lines are dropped.
    static func javaLines(_ text: String) -> [String] {
        var lines: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\n" {
                if current.last == "\r" { current.removeLast() }
                lines.append(String(current))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        lines.append(String(current))
        while lines.count > 1, lines.last?.isEmpty == true { lines.removeLast() }
        if lines == [""], !text.isEmpty { return [] }
        return lines
    }

    /// Java's `String.replace(target, "")`, scalar by scalar.
    static func removingEvery(_ target: String, from text: String) -> String {
        let pattern = Array(target.unicodeScalars)
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index...].starts(with: pattern) {
                index += pattern.count
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        return String(result)
    }

    /// Java's `String.trim()`: removes every character up to U+0020 at both ends.
    static func javaTrim(_ line: String) -> String {
        let scalars = line.unicodeScalars
        guard let first = scalars.firstIndex(where: { $0.value > 0x20 }) else { return "" }
        let last = scalars.lastIndex { $0.value > 0x20 }!
        return String(scalars[first...last])
    }
}
