/// How much coffee and water one brew takes, scaled from a method's ratio.
public struct Recipe: Equatable, Sendable {
    public enum Problem: Error, Equatable {
        /// The amount asked for is zero, negative or not a number.
        case notAPositiveAmount(Double)
    }

    public let method: BrewMethod
    /// Ground coffee, in grams.
    public let coffeeGrams: Double
    /// Water poured, in grams (1 g of water is 1 ml).
    public let waterGrams: Double

    /// The recipe that yields about `cupMilliliters` in the cup. Grounds keep about twice their
    /// weight in water (none for espresso, whose ratio is already cup-side), so pour that extra.
    public init(method: BrewMethod, cupMilliliters: Double) throws(Problem) {
        guard cupMilliliters.isFinite, cupMilliliters > 0 else { throw .notAPositiveAmount(cupMilliliters) }
        let retainedPerGram = method == .espresso ? 0 : Recipe.waterRetainedPerGramOfGrounds
        let coffee = cupMilliliters / (method.waterPerGramOfCoffee - retainedPerGram)
        self.method = method
        self.coffeeGrams = Recipe.rounded(coffee)
        self.waterGrams = Recipe.rounded(coffee * method.waterPerGramOfCoffee)
    }

    /// What ends up in the cup once the grounds have kept their share.
    public var cupMilliliters: Double {
        let retainedPerGram = method == .espresso ? 0 : Recipe.waterRetainedPerGramOfGrounds
        return Recipe.rounded(waterGrams - coffeeGrams * retainedPerGram)
    }

    /// One line for a person: "pour-over: 18.8 g coffee, 300.0 g water, 3:30".
    public var summary: String {
        let minutes = method.contactSeconds / 60, seconds = method.contactSeconds % 60
        let clock = "\(minutes):" + (seconds < 10 ? "0" : "") + "\(seconds)"
        return "\(method.rawValue): \(Recipe.tenths(coffeeGrams)) g coffee, \(Recipe.tenths(waterGrams)) g water, \(clock)"
    }

    static let waterRetainedPerGramOfGrounds = 2.0

    /// Kitchen scales show tenths of a gram.
    static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    static func tenths(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
