import BrewerKit
import Testing

@Suite struct RecipeTests {
    /// The point of a recipe: whatever the method and size, the cup holds what was asked for
    /// (to within the scale's tenth of a gram), once the grounds have kept their water.
    @Test(arguments: BrewMethod.allCases, [30.0, 250, 355, 1000])
    func theCupHoldsWhatWasAskedFor(method: BrewMethod, milliliters: Double) throws {
        let recipe = try Recipe(method: method, cupMilliliters: milliliters)
        #expect(abs(recipe.cupMilliliters - milliliters) <= 0.2, "\(recipe.summary)")
        // Water follows the method's ratio, up to the rounding of both amounts to tenths.
        let ratio = method.waterPerGramOfCoffee
        #expect(abs(recipe.waterGrams - recipe.coffeeGrams * ratio) <= 0.05 + 0.05 * ratio)
    }

    @Test func pourOverForOneMug() throws {
        let recipe = try Recipe(method: .pourOver, cupMilliliters: 280)
        #expect(recipe.coffeeGrams == 20)
        #expect(recipe.waterGrams == 320)
        #expect(recipe.summary == "pour-over: 20.0 g coffee, 320.0 g water, 3:30")
    }

    @Test func espressoKeepsItsRatioInTheCup() throws {
        let doubleShot = try Recipe(method: .espresso, cupMilliliters: 36)
        #expect(doubleShot.coffeeGrams == 18)
        #expect(doubleShot.summary == "espresso: 18.0 g coffee, 36.0 g water, 0:28")
    }

    @Test(arguments: [0.0, -250, .nan, .infinity])
    func refusesAmountsThatAreNotPositive(milliliters: Double) {
        #expect(throws: Recipe.Problem.self) { try Recipe(method: .frenchPress, cupMilliliters: milliliters) }
    }

    @Test func aStrongerRatioTakesMoreCoffeeForTheSameCup() throws {
        let weakestFirst = BrewMethod.allCases.sorted { $0.waterPerGramOfCoffee > $1.waterPerGramOfCoffee }
        let coffee = try weakestFirst.map { try Recipe(method: $0, cupMilliliters: 250).coffeeGrams }
        #expect(coffee == coffee.sorted() && Set(coffee).count == coffee.count, "\(coffee)")
    }
}
