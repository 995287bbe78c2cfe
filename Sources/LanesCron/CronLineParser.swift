/// Parses one schedule line exactly as Jenkins' ANTLR4 `CrontabParser` does, including the order in
/// which it reads tokens and the messages of ANTLR's default error strategy (`extraneous input`,
/// `missing X at`, `mismatched input`). Jenkins aborts on the first reported error, so this parser
/// never recovers; it only has to decide which message ANTLR would report first.
///
/// The comments name the ANTLR mechanism each step reproduces: `sync` before a decision,
/// `match` with single-token deletion/insertion, and the "next tokens context" that a failed
/// `sync` at an optional block remembers for a later `mismatched input` report.
struct CronLineParser {
    /// The result of a line: Jenkins' raw bit masks per field, or an alias and its expansion.
    struct Fields {
        /// minute, hour, day-of-month, month as Java `long` masks; day-of-week as Jenkins' `int`
        /// (after moving bit 7 to bit 0).
        var masks: [UInt64]
        /// The alias expansion (`H H * * *` for `@daily`), which replaces the line's text.
        var aliasExpansion: String?
    }

    private var tokens: CronTokenStream
    /// ANTLR's `nextTokensContext`: the expectation recorded by the last `sync` that let an
    /// optional block be skipped without seeing a token it could start with.
    private var savedExpectation: CronTokenSet?

    private static let termStart = CronTokenSet([.number, .star, .hash])
    private static let lineStart = CronTokenSet([.number, .star, .at, .hash])
    private static let keywordSet = CronTokenSet(CronTokenKind.keywords)

    private init(line: String) {
        tokens = CronTokenStream(line: line)
    }

    /// Parses `line`, drawing `H` values from `hash` in source order.
    static func parse(_ line: String, hash: inout JenkinsHash) throws(CronLineError) -> Fields {
        var parser = CronLineParser(line: line)
        return try parser.startRule(hash: &hash)
    }

    // MARK: Rules

    private mutating func startRule(hash: inout JenkinsHash) throws(CronLineError) -> Fields {
        try syncBlock(expecting: Self.lineStart)
        if try tokens.kind(1) == .at {
            try tokens.consume()
            try syncBlock(expecting: Self.keywordSet)
            let keyword = try tokens.kind(1)
            try tokens.consume()
            let expansion = Self.expansion(of: keyword)
            var fields = try Self.parse(expansion, hash: &hash)
            fields.aliasExpansion = expansion
            return fields
        }
        var masks: [UInt64] = []
        for field in CronField.allCases {
            masks.append(try expr(field, hash: &hash))
            if field == .dayOfWeek {
                try match(.endOfInput, followedBy: CronTokenSet([.endOfInput]))
            } else {
                try match(.whitespace, followedBy: Self.termStart)
            }
        }
        var dayOfWeek = UInt64(UInt32(truncatingIfNeeded: masks[4]))  // Jenkins keeps day-of-week in an int
        if dayOfWeek & (1 << 7) != 0 { dayOfWeek = (dayOfWeek | 1) & ~(1 << 7) }
        masks[4] = dayOfWeek
        return Fields(masks: masks, aliasExpansion: nil)
    }

    private static func expansion(of keyword: CronTokenKind) -> String {
        switch keyword {
        case .yearly, .annually: "H H H H *"
        case .monthly: "H H H * *"
        case .weekly: "H H * * H"
        case .daily: "H H * * *"
        case .midnight: "H H(0-2) * * *"
        default: "H * * * *"  // hourly; `syncBlock` admitted only keywords
        }
    }

    /// `expr: term (',' expr)?`, as a loop.
    private mutating func expr(_ field: CronField, hash: inout JenkinsHash) throws(CronLineError) -> UInt64 {
        var mask: UInt64 = 0
        while true {
            mask |= try term(field, hash: &hash)
            if try tokens.kind(1) == .comma {
                savedExpectation = nil
                try tokens.consume()
            } else {
                if savedExpectation == nil {
                    savedExpectation = CronTokenSet([.comma]).union(Self.follow(field))
                }
                return mask
            }
        }
    }

    private mutating func term(_ field: CronField, hash: inout JenkinsHash) throws(CronLineError) -> UInt64 {
        try syncBlock(expecting: Self.termStart)
        let afterTerm = CronTokenSet([.comma]).union(Self.follow(field))
        let afterStep = CronTokenSet([.slash]).union(afterTerm)
        switch try tokens.kind(1) {
        case .number:
            // The grammar needs a second token to tell `N-M` from `N`.
            if try tokens.kind(2) == .minus {
                let start = try number(followedBy: CronTokenSet([.minus]))
                try match(.minus, followedBy: CronTokenSet([.number]))
                let end = try number(followedBy: afterStep)
                let step = try optionalStep(field)
                return try range(start, end, step: step, field)
            }
            let value = try number(followedBy: afterTerm)
            try checkRange(value, field)
            return 1 << UInt64(value & 63)
        case .star:
            try tokens.consume()
            let step = try optionalStep(field)
            return try range(Int32(field.bounds.lowerBound), Int32(field.bounds.upperBound), step: step, field)
        default:  // `H`; `syncBlock` admitted nothing else
            if try tokens.kind(2) == .openParen {
                try tokens.consume()
                try tokens.consume()
                let start = try number(followedBy: CronTokenSet([.minus]))
                try match(.minus, followedBy: CronTokenSet([.number]))
                let end = try number(followedBy: CronTokenSet([.closeParen]))
                try match(.closeParen, followedBy: afterStep)
                let step = try optionalStep(field)
                return try hashed(start, end, step: step, field, hash: &hash)
            }
            try tokens.consume()
            let step = try optionalStep(field)
            return try hashed(Int32(field.bounds.lowerBound), Int32(field.hashUpperBound), step: step, field, hash: &hash)
        }
    }

    /// `('/' token)?`; 1 (Jenkins' `NO_STEP`) when absent.
    private mutating func optionalStep(_ field: CronField) throws(CronLineError) -> Int32 {
        guard try tokens.kind(1) == .slash else {
            if savedExpectation == nil {
                savedExpectation = CronTokenSet([.slash, .comma]).union(Self.follow(field))
            }
            return 1
        }
        savedExpectation = nil
        try tokens.consume()
        return try number(followedBy: CronTokenSet([.comma]).union(Self.follow(field)))
    }

    /// `token: TOKEN { Integer.parseInt }`. The number is parsed after the token is consumed, so a
    /// lexer error in the next token wins over an overflow.
    private mutating func number(followedBy follow: CronTokenSet) throws(CronLineError) -> Int32 {
        let token = try match(.number, followedBy: follow)
        let digits = token.text.drop { $0 == "0" }
        guard digits.count <= 10, let value = Int32(digits.isEmpty ? "0" : String(digits)) else {
            throw .numberFormat(text: token.text)
        }
        return value
    }

    /// What may follow a field's expression: the separator, or the end of the line after the last field.
    private static func follow(_ field: CronField) -> CronTokenSet {
        field == .dayOfWeek ? CronTokenSet([.endOfInput]) : CronTokenSet([.whitespace])
    }

    // MARK: ANTLR's DefaultErrorStrategy

    /// `sync` before a block whose alternatives all start with a token from `expected`.
    private mutating func syncBlock(expecting expected: CronTokenSet) throws(CronLineError) {
        let current = try tokens.look(1)
        if expected.contains(current.kind) {
            savedExpectation = nil
            return
        }
        if expected.contains(try tokens.kind(2)) {
            throw .recognition(column: current.column, message: "extraneous input \(current.errorDisplay) expecting \(expected.description)")
        }
        throw .recognition(column: current.column, message: "mismatched input \(current.errorDisplay) expecting \(expected.description)")
    }

    /// `match(kind)`; `follow` is what ANTLR's single-token insertion would accept after `kind`.
    @discardableResult
    private mutating func match(_ kind: CronTokenKind, followedBy follow: CronTokenSet) throws(CronLineError) -> CronToken {
        let current = try tokens.look(1)
        if current.kind == kind {
            try tokens.consume()
            return current
        }
        let expected = CronTokenSet([kind])
        if try tokens.kind(2) == kind {
            throw .recognition(column: current.column, message: "extraneous input \(current.errorDisplay) expecting \(expected.description)")
        }
        if follow.contains(current.kind) {
            throw .recognition(column: current.column, message: "missing \(expected.description) at \(current.errorDisplay)")
        }
        let reported = savedExpectation ?? expected
        throw .recognition(column: current.column, message: "mismatched input \(current.errorDisplay) expecting \(reported.description)")
    }

    // MARK: Jenkins' BaseParser checks, reported at the token after the term

    private mutating func fail(_ message: String) throws(CronLineError) -> Never {
        throw .recognition(column: try tokens.look(1).column, message: message)
    }

    private mutating func checkRange(_ value: Int32, _ field: CronField) throws(CronLineError) {
        let bounds = field.bounds
        if value < bounds.lowerBound || value > bounds.upperBound {
            try fail(Self.outOfRange(Int64(value), Int64(bounds.lowerBound), Int64(bounds.upperBound)))
        }
    }

    private static func outOfRange(_ value: Int64, _ low: Int64, _ high: Int64) -> String {
        "\(JavaNumberFormat.grouped(value)) is an invalid value. Must be within \(JavaNumberFormat.grouped(low)) and \(JavaNumberFormat.grouped(high))"
    }

    /// `doRange`: Java `int` arithmetic, so a huge step wraps around exactly as in Jenkins.
    private mutating func range(_ start: Int32, _ end: Int32, step: Int32, _ field: CronField) throws(CronLineError) -> UInt64 {
        try checkRange(start, field)
        try checkRange(end, field)
        if step <= 0 { try fail("step must be positive, but found \(JavaNumberFormat.grouped(step))") }
        if start > end { try fail("You mean \(JavaNumberFormat.grouped(end))-\(JavaNumberFormat.grouped(start))?") }
        var mask: UInt64 = 0
        var value = start
        while value <= end {
            mask |= 1 << UInt64(UInt32(bitPattern: value) & 63)
            value = value &+ step
        }
        return mask
    }

    /// `doHash`: one draw for `H`/`H(a-b)` (also with `/1`), one draw for the offset of `H/n`.
    private mutating func hashed(_ start: Int32, _ end: Int32, step: Int32, _ field: CronField, hash: inout JenkinsHash) throws(CronLineError) -> UInt64 {
        try checkRange(start, field)
        try checkRange(end, field)
        let width = Int64(end) - Int64(start) + 1
        if Int64(step) > width { try fail(Self.outOfRange(Int64(step), 1, width)) }
        if step > 1 {
            var mask: UInt64 = 0
            var value = hash.next(step) + start
            while value <= end {
                mask |= 1 << UInt64(value & 63)
                value += step
            }
            return mask
        }
        if step <= 0 { try fail("step must be positive, but found \(JavaNumberFormat.grouped(step))") }
        return 1 << UInt64((start + hash.next(Int32(width))) & 63)
    }
}
