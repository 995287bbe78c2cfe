import LanesBuild
import LanesCron
import LanesGit
import LanesMatch
import LanesPlatform
import LanesSigning
import LanesTestSupport
import LanesUpload
import LanesXcode
import Testing
@testable import LanesRuntime

/// Every module's public errors have the one shape (`ClassifiedError`: kind, message, hint), keep
/// their own type, and get their exit status from the one table (`ExitStatus`).
@Suite(.timeLimit(.minutes(3))) struct ErrorShapeTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let error: any Error & Sendable
        let kind: ErrorKind
        let hint: String?
        var testDescription: String { String(describing: type(of: error)) }
    }

    static let cases: [Case] = [
        Case(error: LanesError(.usage, "unknown lane 'x'", hint: "lanes list"), kind: .usage, hint: "lanes list"),
        Case(error: ValidationErrors(kind: .environment, problems: ["missing KEYCHAIN_NAME"]), kind: .environment, hint: nil),
        Case(error: GitError(.authentication, "origin: authentication failed", hint: "set GIT_TOKEN"), kind: .environment, hint: "set GIT_TOKEN"),
        Case(error: GitError(.pushRejected, "main: rejected"), kind: .laneFailure, hint: nil),
        Case(error: SigningError.wrongPasswordOrDamaged(path: "dist.p12"), kind: .configuration, hint: nil),
        Case(error: SigningError.openSSL(operation: "PKCS12_parse", detail: "x"), kind: .laneFailure, hint: nil),
        Case(error: MatchError.passwordMissing(variable: "MATCH_PASSWORD"), kind: .configuration,
             hint: MatchError.passwordMissing(variable: "MATCH_PASSWORD").hint),
        Case(error: MatchError.storage("git fetch failed"), kind: .environment, hint: nil),
        Case(error: UploadError(.transfer, "s3: reset", hint: "try again"), kind: .laneFailure, hint: "try again"),
        Case(error: BuildError.artifactRefused(path: "Brewer.ipa", problem: "wrong bundle id"), kind: .laneFailure, hint: nil),
        Case(error: BuildError.option(name: "xcargs", problem: "unbalanced quote"), kind: .configuration, hint: nil),
        Case(error: XcodeProjectError.notAnXcodeProject(reason: "no project.pbxproj"), kind: .configuration, hint: nil),
        Case(error: CronSyntaxError(message: "minute 61 is out of range", lineNumber: 1, column: 3), kind: .configuration, hint: nil),
        Case(error: InstallationError("no Modules/Lanes.swiftmodule", hint: "reinstall"), kind: .environment, hint: "reinstall"),
        // A failed step keeps the shape of what the step threw.
        Case(error: StepFailure(stepID: "push_git_tags", index: 3, underlying: GitError(.authentication, "origin: refused", hint: "set GIT_TOKEN")),
             kind: .environment, hint: "set GIT_TOKEN"),
    ]

    @Test(arguments: cases) func hasTheShapeAndItsExitStatus(_ given: Case) throws {
        let shaped = try #require(given.error as? any ClassifiedError, "\(type(of: given.error)) has no error shape")
        #expect(shaped.lanesKind == given.kind)
        #expect((given.error as any Error).lanesKind == given.kind)
        #expect(ExitStatus(rawValue: shaped.lanesKind.exitStatus) == given.kind.status)
        #expect(shaped.hint == given.hint)
        #expect(!shaped.message.isEmpty && !shaped.message.contains("hint:"), "\(shaped.message)")
        // Printed the same way by every front door: the message, then the hint on its own line.
        let expected = given.hint.map { "\(shaped.message)\n  hint: \($0)" } ?? shaped.message
        #expect(shaped.shapedDescription == expected)
    }

    @Test func everyKindHasAStatusFromTheOneTable() {
        let kinds: [ErrorKind] = [.usage, .configuration, .environment, .laneFailure, .compilation, .internal, .interrupted]
        #expect(Set(kinds.map(\.status)) == Set(ExitStatus.allCases.filter { $0 != .success }))
    }
}
