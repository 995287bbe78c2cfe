import LanesAppStoreConnect
import Testing
import LanesHTTP

struct BuildNumberTests {
    @Test(arguments: [("1.2.9", "1.2.10"), ("99", "100"), ("1.2", "1.2.1"), ("9", "10.0"), ("2026.1.9", "2026.1.10")])
    func laterNumbersSortAfter(_ pair: (String, String)) {
        #expect(BuildNumber.isOrderedBefore(pair.0, pair.1))
        #expect(!BuildNumber.isOrderedBefore(pair.1, pair.0))
    }

    @Test func equalNumbersAreNotOrdered() {
        #expect(!BuildNumber.isOrderedBefore("1.0", "1"))
        #expect(!BuildNumber.isOrderedBefore("1", "1.0"))
    }

    @Test func theHighestIsNotTheLastInTextOrder() {
        #expect(BuildNumber.highest(["99", "100", "7", "1.2.10", "1.2.9"]) == "100")
        #expect(BuildNumber.highest(["1.2.9", "1.2.10"]) == "1.2.10")
        #expect(BuildNumber.highest([String]()) == nil)
    }

    @Test func fastlanePlatformNames() {
        #expect(AppStorePlatform(fastlane: "ios") == .ios)
        #expect(AppStorePlatform(fastlane: "osx") == .macOS)
        #expect(AppStorePlatform(fastlane: "appletvos") == .tvOS)
        #expect(AppStorePlatform(fastlane: "xros") == .visionOS)
        #expect(AppStorePlatform(fastlane: "android") == nil)
    }
}
