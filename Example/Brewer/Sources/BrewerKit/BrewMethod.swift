/// A way of making coffee, with the coffee-to-water ratio it is usually brewed at.
public enum BrewMethod: String, CaseIterable, Sendable {
    case pourOver = "pour-over"
    case frenchPress = "french-press"
    case aeroPress = "aeropress"
    case espresso

    /// Grams of water per gram of ground coffee (espresso counts the liquid in the cup).
    public var waterPerGramOfCoffee: Double {
        switch self {
        case .pourOver: 16
        case .frenchPress: 15
        case .aeroPress: 12
        case .espresso: 2
        }
    }

    /// Grams of water each gram of spent grounds keeps. Immersion and filter brews lose about
    /// twice the coffee's weight; an espresso ratio is already counted in the cup.
    public var waterKeptPerGramOfCoffee: Double {
        self == .espresso ? 0 : 2
    }

    /// How long the water and the coffee stay in contact, in seconds.
    public var contactSeconds: Int {
        switch self {
        case .pourOver: 210
        case .frenchPress: 240
        case .aeroPress: 90
        case .espresso: 28
        }
    }
}
