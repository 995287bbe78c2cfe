/// `lanes ios beta`: fastlane's habit of naming a lane with its platform. A Lanefile's lanes have one
/// name, so the words that fastlane takes are answered with the lane lanes runs instead.
enum FastlanePlatformWords {
    static let platforms: Set<String> = ["ios", "android", "mac", "tvos", "watchos", "visionos"]

    /// The usage error for `PLATFORM LANE ...` when PLATFORM is no lane of the Lanefile but LANE (or
    /// `PLATFORM_LANE`, the importer's name for a lane several platforms define) is.
    static func suggestion(for words: [String], lanes: [String]) -> LanesError? {
        guard words.count >= 2, platforms.contains(words[0]), !lanes.contains(words[0]) else { return nil }
        // Option names only: a value may be a secret, and this line goes to the terminal and CI logs.
        let rest = words.dropFirst(2).map { word in word.split(separator: ":", maxSplits: 1).count == 2 ? "\(word.prefix { $0 != ":" }):…" : "…" }
        for candidate in ["\(words[0])_\(words[1])", words[1]] where lanes.contains(candidate) {
            let command = (["lanes", candidate] + rest).joined(separator: " ")
            return LanesError(.usage, "`lanes \(words[0]) \(words[1])` is fastlane's way of naming a lane; here it is `\(command)`",
                              hint: "a Lanefile's lane has one name (`lanes list` shows them)")
        }
        return nil
    }
}
