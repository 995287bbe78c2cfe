/// Deterministic pseudo-random numbers (SplitMix64), so a failing run can be replayed with --seed.
struct FuzzRandom {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// Inputs: grammar-built lines, mutated corpus specs, and random strings over the spec alphabet.
enum FuzzInputs {
    static let fragments = [
        "*", "H", "H(", ")", "-", "/", ",", " ", "\t", "  ", "@", "#", "\n", "\r\n", "\r", "TZ=", "UTC",
        "America/New_York", "0", "7", "59", "60", "31", "12", "2147483647", "2147483648", "99999999999", "000",
        "yearly", "annually", "monthly", "weekly", "daily", "midnight", "hourly", "h", "y", "m", "d",
        "JAN", "MON", "?", "L", "W", "é", "١", "🙂", "\u{0}", "\u{1F}", "\u{2028}", "H/1000000", "*/0",
    ]
    static let alphabet = Array("0123456789 \t-*/,@H()#TZ=\n\rhdmwyalrsuv?LWJ;.x".unicodeScalars) + ["é", "١", "\u{0}", "\u{85}"]

    static func next(corpus: [String], random: inout FuzzRandom) -> String {
        switch random.below(10) {
        case 0...3: return mutate(corpus.isEmpty ? "H * * * *" : random.pick(corpus), random: &random)
        case 4...6: return grammarLine(random: &random)
        case 7: return mutate(grammarLine(random: &random) + "\n" + grammarLine(random: &random), random: &random)
        case 8: return (0..<random.below(12)).map { _ in random.pick(fragments) }.joined()
        default:
            var scalars = String.UnicodeScalarView()
            for _ in 0..<random.below(30) { scalars.append(random.pick(alphabet)) }
            return String(scalars)
        }
    }

    static func grammarLine(random: inout FuzzRandom) -> String {
        if random.below(12) == 0 { return "@" + random.pick(["yearly", "annually", "monthly", "weekly", "daily", "midnight", "hourly"]) }
        let bounds = [0...59, 0...23, 1...31, 1...12, 0...7]
        return bounds.map { range in
            (0...random.below(3)).map { _ in
                let a = range.lowerBound + random.below(range.count)
                let b = a + random.below(range.upperBound - a + 1)
                switch random.below(8) {
                case 0: return "*"
                case 1: return "*/\(1 + random.below(70))"
                case 2: return "\(a)"
                case 3: return "\(a)-\(b)/\(1 + random.below(12))"
                case 4: return "H"
                case 5: return "H/\(1 + random.below(30))"
                case 6: return "H(\(a)-\(b))"
                default: return "\(a)-\(b)"
                }
            }.joined(separator: ",")
        }.joined(separator: random.pick([" ", "\t", "  "]))
    }

    static func mutate(_ text: String, random: inout FuzzRandom) -> String {
        var scalars = Array(text.unicodeScalars)
        for _ in 0...random.below(4) {
            let position = scalars.isEmpty ? 0 : random.below(scalars.count + 1)
            switch random.below(6) {
            case 0: scalars.insert(random.pick(alphabet), at: position)
            case 1: if position < scalars.count { scalars.remove(at: position) }
            case 2: if position < scalars.count { scalars[position] = random.pick(alphabet) }
            case 3: scalars.insert(contentsOf: random.pick(fragments).unicodeScalars, at: position)
            case 4:
                if !scalars.isEmpty {
                    let start = random.below(scalars.count)
                    let end = min(scalars.count, start + 1 + random.below(6))
                    scalars.insert(contentsOf: scalars[start..<end], at: position)
                }
            default: if position < scalars.count { scalars.removeSubrange(position..<min(scalars.count, position + 1 + random.below(4))) }
            }
        }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars)
        return String(result)
    }
}
