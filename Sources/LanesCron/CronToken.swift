/// Token types of Jenkins' `CrontabLexer.g4`; raw values are ANTLR's token type numbers, which fix
/// the order in which "expecting {…}" sets are printed.
enum CronTokenKind: Int, CaseIterable, Sendable {
    case endOfInput = 0  // ANTLR's EOF is -1; 0 keeps the set bit arithmetic simple and still sorts first
    case number = 1
    case whitespace = 2
    case minus = 3
    case star = 4
    case slash = 5
    case comma = 6
    case at = 7
    case hash = 8  // `H`
    case openParen = 9
    case closeParen = 10
    case yearly = 11
    case annually = 12
    case monthly = 13
    case weekly = 14
    case daily = 15
    case midnight = 16
    case hourly = 17

    /// How ANTLR's vocabulary names this token type in "expecting" sets.
    var displayName: String {
        switch self {
        case .endOfInput: "<EOF>"
        case .number: "TOKEN"
        case .whitespace: "WS"
        case .minus: "'-'"
        case .star: "'*'"
        case .slash: "'/'"
        case .comma: "','"
        case .at: "'@'"
        case .hash: "'H'"
        case .openParen: "'('"
        case .closeParen: "')'"
        case .yearly: "'yearly'"
        case .annually: "'annually'"
        case .monthly: "'monthly'"
        case .weekly: "'weekly'"
        case .daily: "'daily'"
        case .midnight: "'midnight'"
        case .hourly: "'hourly'"
        }
    }

    /// The alias keywords, in grammar order.
    static let keywords: [CronTokenKind] = [.yearly, .annually, .monthly, .weekly, .daily, .midnight, .hourly]

    var keywordText: String? {
        switch self {
        case .yearly: "yearly"
        case .annually: "annually"
        case .monthly: "monthly"
        case .weekly: "weekly"
        case .daily: "daily"
        case .midnight: "midnight"
        case .hourly: "hourly"
        default: nil
        }
    }
}

/// A set of token kinds, printed the way ANTLR prints an `IntervalSet`.
struct CronTokenSet: Equatable, Sendable {
    private var bits: UInt32

    init(_ kinds: [CronTokenKind]) {
        bits = 0
        for kind in kinds { bits |= 1 << UInt32(kind.rawValue) }
    }

    func contains(_ kind: CronTokenKind) -> Bool { bits & (1 << UInt32(kind.rawValue)) != 0 }

    func union(_ other: CronTokenSet) -> CronTokenSet {
        var result = self
        result.bits |= other.bits
        return result
    }

    /// `WS` for one element, `{WS, '/', ','}` for several.
    var description: String {
        let names = CronTokenKind.allCases.filter(contains).map(\.displayName)
        return names.count == 1 ? names[0] : "{" + names.joined(separator: ", ") + "}"
    }
}

/// One lexed token: its kind, its text and the 0-based column (in Unicode scalars) where it starts.
struct CronToken: Sendable {
    var kind: CronTokenKind
    var text: String
    var column: Int

    /// ANTLR's `getTokenErrorDisplay`: the text in single quotes with `\n`, `\r`, `\t` escaped.
    var errorDisplay: String {
        if kind == .endOfInput { return "'<EOF>'" }
        return "'" + CronToken.escapeControlCharacters(text) + "'"
    }

    static func escapeControlCharacters(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
