import Testing
@testable import Brewing

@Test func espresso() { #expect(brewTime(grams: 9) == 27) }
@Test func pourOver() { #expect(brewTime(grams: 15) == 44) }
@Test(arguments: [1, 2]) func ristretto(grams: Int) { #expect(brewTime(grams: grams) == 3) }
