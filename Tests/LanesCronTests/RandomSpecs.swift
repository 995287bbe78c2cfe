import LanesTestSupport

/// Random valid schedule lines, built from the grammar's term shapes with in-range values.
enum RandomSpecs {
    static let bounds: [ClosedRange<Int>] = [0...59, 0...23, 1...31, 1...12, 0...7]

    static func line(using random: inout SplitMix64) -> String {
        (0..<5).map { field($0, using: &random) }.joined(separator: " ")
    }

    static func field(_ index: Int, using random: inout SplitMix64) -> String {
        let termCount = Int.random(in: 1...3, using: &random)
        return (0..<termCount).map { _ in term(index, using: &random) }.joined(separator: ",")
    }

    static func term(_ index: Int, using random: inout SplitMix64) -> String {
        let range = bounds[index]
        let hashHigh = index == 2 ? 28 : (index == 4 ? 6 : range.upperBound)
        let a = Int.random(in: range, using: &random)
        let b = Int.random(in: a...range.upperBound, using: &random)
        switch Int.random(in: 0..<9, using: &random) {
        case 0: return "*"
        case 1: return "*/\(Int.random(in: 1...20, using: &random))"
        case 2: return "\(a)"
        case 3: return "\(a)-\(b)"
        case 4: return "\(a)-\(b)/\(Int.random(in: 1...10, using: &random))"
        case 5: return "H"
        case 6: return "H/\(Int.random(in: 1...(hashHigh - range.lowerBound + 1), using: &random))"
        case 7: return "H(\(a)-\(b))"
        default: return "H(\(a)-\(b))/\(Int.random(in: 1...(b - a + 1), using: &random))"
        }
    }
}
