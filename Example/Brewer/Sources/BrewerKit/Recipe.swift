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

    /// The recipe that yields about `cupMilliliters` in the cup: the grounds keep some of the
    /// water poured, so pour that much more.
    public init(method: BrewMethod, cupMilliliters: Double) throws(Problem) {
        guard cupMilliliters.isFinite, cupMilliliters > 0 else { throw .notAPositiveAmount(cupMilliliters) }
        let coffee = cupMilliliters / (method.waterPerGramOfCoffee - method.waterKeptPerGramOfCoffee)
        self.method = method
        self.coffeeGrams = Recipe.rounded(coffee)
        self.waterGrams = Recipe.rounded(coffee * method.waterPerGramOfCoffee)
    }

    /// What ends up in the cup once the grounds have kept their share.
    public var cupMilliliters: Double {
        Recipe.rounded(waterGrams - coffeeGrams * method.waterKeptPerGramOfCoffee)
    }

    /// One line for a person, such as "pour-over: 20.0 g coffee, 320.0 g water, 3:30".
    public var summary: String {
        let minutes = method.contactSeconds / 60, seconds = method.contactSeconds % 60
        let clock = "\(minutes):" + (seconds < 10 ? "0" : "") + "\(seconds)"
        return "\(method.rawValue): \(Recipe.tenths(coffeeGrams)) g coffee, \(Recipe.tenths(waterGrams)) g water, \(clock)"
    }

    /// Kitchen scales show tenths of a gram.
    static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    static func tenths(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
