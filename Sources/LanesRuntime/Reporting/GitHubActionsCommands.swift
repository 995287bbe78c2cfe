/// GitHub Actions' workflow commands: a step's output folds into a `::group::`, a failure becomes an
/// `::error` annotation on the Lanefile line that declares the failing lane.
/// https://docs.github.com/actions/reference/workflow-commands-for-github-actions
struct GitHubActionsCommands: Sendable {
    /// The Lanefile, relative to the workspace when it is inside it (as annotations want).
    let file: String
    /// Where each lane is declared in the Lanefile.
    let laneLines: [String: Int]

    func group(_ title: String) -> String { "::group::\(Self.escapedData(title))" }
    let endGroup = "::endgroup::"

    func error(lane: String, message: String) -> String {
        var properties = ["file=\(Self.escapedProperty(file))"]
        if let line = laneLines[lane] { properties.append("line=\(line)") }
        properties.append("title=\(Self.escapedProperty("lane \(lane) failed"))")
        return "::error \(properties.joined(separator: ","))::\(Self.escapedData(message))"
    }

    /// A message may span lines: `%`, CR and LF are percent-encoded.
    static func escapedData(_ text: String) -> String {
        text.replacing("%", with: "%25").replacing("\r", with: "%0D").replacing("\n", with: "%0A")
    }

    /// Property values also escape the `:` and `,` that delimit them.
    static func escapedProperty(_ text: String) -> String {
        escapedData(text).replacing(":", with: "%3A").replacing(",", with: "%2C")
    }
}
