/// The CI service a lane runs under, told from the variables each one sets. Decides how step banners
/// and failures are printed (GitHub Actions folds groups and annotates errors) and what `lanes env` reports.
public enum CISystem: String, Sendable, CaseIterable {
    case githubActions = "GitHub Actions"
    case gitlab = "GitLab CI"
    case buildkite = "Buildkite"
    case jenkins = "Jenkins"

    /// The CI system `environment` comes from, or nil on a developer's machine. Services that set a
    /// variable of their own are checked before Jenkins, whose `BUILD_NUMBER` others reuse.
    public static func detect(in environment: [String: String]) -> CISystem? {
        func isSet(_ name: String) -> Bool { !(environment[name] ?? "").isEmpty }
        if environment["GITHUB_ACTIONS"] == "true" { return .githubActions }
        if isSet("GITLAB_CI") { return .gitlab }
        if environment["BUILDKITE"] == "true" { return .buildkite }
        if isSet("JENKINS_URL") || isSet("JENKINS_HOME") || (isSet("BUILD_NUMBER") && isSet("JOB_NAME")) { return .jenkins }
        return nil
    }
}

/// What the terminal lanes writes to can show: colours and a live status line.
public struct TerminalCapabilities: Sendable, Equatable {
    /// ANSI colours.
    public let colors: Bool
    /// A status line rewritten in place (`\r`, erase to end of line): a real terminal only.
    public let liveStatus: Bool

    public init(colors: Bool, liveStatus: Bool) {
        self.colors = colors
        self.liveStatus = liveStatus
    }

    /// `NO_COLOR` (no-color.org) wins; then `FORCE_COLOR` or `CLICOLOR_FORCE` (anything but empty
    /// or `0`) force colours off a terminal, as CI log viewers that render them want; `TERM=dumb`
    /// and a pipe or file get plain text.
    public init(isTerminal: Bool, environment: [String: String]) {
        func enabled(_ name: String) -> Bool {
            guard let value = environment[name] else { return false }
            return !value.isEmpty && value != "0" && value.lowercased() != "false"
        }
        let dumb = environment["TERM"] == "dumb"
        if !(environment["NO_COLOR"] ?? "").isEmpty {
            colors = false
        } else if enabled("FORCE_COLOR") || enabled("CLICOLOR_FORCE") {
            colors = true
        } else {
            colors = isTerminal && !dumb
        }
        liveStatus = isTerminal && !dumb
    }
}
