/// "Did you mean ...?" for a mistyped name: the known names closest to it by edit distance, and a
/// short list of the others, so that a Lanefile of 2,000 lanes still gets a one-line hint.
struct NameSuggestions {
    /// How many names a hint lists at most.
    static let listLimit = 8
    /// How many close names are suggested at most.
    static let suggestionLimit = 3

    let known: [String]

    /// Names within an edit distance of a third of the typed name's length (at least 2), closest
    /// first; a name that differs only in case, or that starts with what was typed, also counts.
    func closest(to typed: String) -> [String] {
        let lowered = typed.lowercased()
        let budget = max(2, typed.count / 3)
        let scored = known.compactMap { name -> (name: String, score: Int)? in
            let candidate = name.lowercased()
            if candidate == lowered { return (name, 0) }
            let distance = Self.editDistance(lowered, candidate, limit: budget)
            if distance <= budget { return (name, distance) }
            if lowered.count >= 3, candidate.hasPrefix(lowered) { return (name, budget + 1) }
            return nil
        }
        return scored.sorted { ($0.score, $0.name) < ($1.score, $1.name) }.prefix(Self.suggestionLimit).map(\.name)
    }

    /// `did you mean deploy? lanes: a, b, ... and 1992 more (lanes list shows them all)`.
    func hint(for typed: String, noun: String, listCommand: String) -> String {
        guard !known.isEmpty else { return "the Lanefile defines no \(noun)s" }
        var parts: [String] = []
        let close = closest(to: typed)
        if !close.isEmpty {
            parts.append("did you mean \(close.joined(separator: " or "))?")
        }
        let shown = known.prefix(Self.listLimit).joined(separator: ", ")
        let rest = known.count - Self.listLimit
        parts.append(rest > 0 ? "\(noun)s: \(shown) and \(rest) more (\(listCommand) shows them all)" : "\(noun)s: \(shown)")
        return parts.joined(separator: "\n  ")
    }

    /// Optimal string alignment distance (insertions, deletions, substitutions, adjacent swaps),
    /// stopping early once every path exceeds `limit`.
    static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let a = Array(a), b = Array(b)
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, beforePrevious[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > limit { return limit + 1 }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
