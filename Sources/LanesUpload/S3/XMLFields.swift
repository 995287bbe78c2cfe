import LanesHTTP
/// Just enough XML for S3's answers: the text of named elements, and the blocks of repeated ones.
/// S3 responses are flat, namespace-prefixed at most on the root, and never use CDATA.
enum XMLFields {
    /// The text of every `<name>...</name>` in `xml`, unescaped, in order.
    static func values(_ name: String, in xml: Substring) -> [String] {
        blocks(name, in: xml).map { unescape(String($0)) }
    }

    static func value(_ name: String, in xml: Substring) -> String? { values(name, in: xml).first }

    /// The inner text of every `<name>...</name>`, raw.
    static func blocks(_ name: String, in xml: Substring) -> [Substring] {
        var results: [Substring] = []
        var rest = xml
        let open = "<\(name)>", close = "</\(name)>"
        while let start = rest.firstRange(of: open) {
            guard let end = rest[start.upperBound...].firstRange(of: close) else { break }
            results.append(rest[start.upperBound..<end.lowerBound])
            rest = rest[end.upperBound...]
        }
        return results
    }

    static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacing("&quot;", with: "\"").replacing("&apos;", with: "'").replacing("&lt;", with: "<")
            .replacing("&gt;", with: ">").replacing("&#34;", with: "\"").replacing("&amp;", with: "&")
    }

    static func escape(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;").replacing("\"", with: "&quot;")
    }
}
