import LanesPlatform

/// HTML escaping: every text that reaches a page passes through `escape`.
enum HTML {
    static func escape(_ text: String) -> String {
        MarkupText.escape(text, for: .html)
    }

    /// A query string component: unreserved characters as they are, everything else percent-encoded.
    static func queryComponent(_ text: String) -> String { PercentEncoding.encode(text) }
}
