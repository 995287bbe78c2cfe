import XCTest
@testable import Brewing

final class BrewingXCTests: XCTestCase {
    func testShortBrew() { XCTAssertEqual(brewTime(grams: 10), 30) }
    func testLongBrew() { XCTAssertEqual(brewTime(grams: 20), 61, "a <long> brew & more") }
    func testThrows() throws { throw CocoaError(.fileNoSuchFile) }
}
