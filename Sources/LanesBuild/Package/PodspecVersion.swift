/// The `version` of a podspec (or any Ruby file holding `x.version = '1.2.3'`), read and rewritten
/// by fastlane's rules (its `PodspecHelper`, behind `version_bump_podspec`): the first line that sets
/// `<word>.version` (or `version` alone without the prefix rule) to a quoted
/// `MAJOR[.MINOR][.PATCH][.APPENDIX...][-PRERELEASE]`, outside a `#` comment, case-insensitively.
/// A bump gives `MAJOR.MINOR.PATCH` (missing parts count as 0, the appendix and pre-release go);
/// every line the rule matches is rewritten with the first match's quoting, as fastlane's `gsub` does.
public struct PodspecVersion: Sendable {
    public enum Bump: String, Sendable, CaseIterable {
        case patch, minor, major
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// No line sets a version the rule reads.
        case noVersion
        /// A number too large to count with.
        case numberTooLarge(String)

        public var description: String {
            switch self {
            case .noVersion: return "no line sets a version such as s.version = '1.2.3'"
            case .numberTooLarge(let value): return "the version \(value) has a number too large to raise"
            }
        }
    }

    /// The file's text, as read.
    public let text: String
    /// The version the first matching line holds (`1.4.14.4.1-beta`).
    public let value: String
    private let major: String
    private let minor: String?
    private let patch: String?
    private let begin: String
    private let end: String
    private let requireVariablePrefix: Bool

    /// Reads the version of `text`. `requireVariablePrefix` (fastlane's default, true) wants a
    /// `s.` before `version`; false also reads `version = '1.0'` of a plain Ruby file.
    public init(text: String, requireVariablePrefix: Bool = true) throws(Failure) {
        guard let match = text.firstMatch(of: Self.rule(requireVariablePrefix: requireVariablePrefix)) else { throw .noVersion }
        func group(_ name: String) -> String? { match.output[name]?.substring.map(String.init) }
        self.text = text
        self.requireVariablePrefix = requireVariablePrefix
        value = group("value") ?? ""
        major = group("major") ?? "0"
        minor = group("minor")
        patch = group("patch")
        begin = group("begin") ?? ""
        end = group("end") ?? ""
    }

    /// The version raised by `bump`: `1.4.2` gives `1.4.3`, `1.5.0` or `2.0.0`.
    public func bumped(_ bump: Bump) throws(Failure) -> String {
        var (major, minor, patch) = try numbers()
        switch bump {
        case .patch: patch += 1
        case .minor: minor += 1; patch = 0
        case .major: major += 1; minor = 0; patch = 0
        }
        return "\(major).\(minor).\(patch)"
    }

    /// The version with another appendix: `1.4.14.4.1` with `5` gives `1.4.14.5` (one leading dot of
    /// the appendix is dropped).
    public func withAppendix(_ appendix: String) throws(Failure) -> String {
        let (major, minor, patch) = try numbers()
        let trimmed = appendix.hasPrefix(".") ? String(appendix.dropFirst()) : appendix
        return "\(major).\(minor).\(patch).\(trimmed)"
    }

    /// The file's text with every matching line set to `version`, ending in a newline as Ruby's
    /// `puts` writes it.
    public func updated(to version: String) -> String {
        let replacement = begin + version + end
        let updated = text.replacing(Self.rule(requireVariablePrefix: requireVariablePrefix)) { _ in replacement }
        return updated.hasSuffix("\n") ? updated : updated + "\n"
    }

    /// fastlane's expression, with `^` at every line start; `[^#]` also crosses lines, as Ruby's does.
    private static func rule(requireVariablePrefix: Bool) -> Regex<AnyRegexOutput> {
        let prefix = requireVariablePrefix ? #"\w\."# : ""
        let pattern = #"^(?<begin>[^#]*"# + prefix + #"version\s*=\s*['"])"#
            + #"(?<value>(?<major>[0-9]+)(\.(?<minor>[0-9]+))?(\.(?<patch>[0-9]+))?(?<appendix>(\.[0-9]+)*)?(-(?<prerelease>(.+)))?)"#
            + #"(?<end>['"])"#
        do {
            return try Regex(pattern).anchorsMatchLineEndings().ignoresCase().asciiOnlyWordCharacters()
        } catch {
            preconditionFailure("the podspec version pattern does not compile: \(error)")
        }
    }

    private func numbers() throws(Failure) -> (Int, Int, Int) {
        func number(_ digits: String?) throws(Failure) -> Int {
            guard let digits else { return 0 }
            guard let value = Int(digits) else { throw .numberTooLarge(self.value) }
            return value
        }
        return (try number(major), try number(minor), try number(patch))
    }
}
