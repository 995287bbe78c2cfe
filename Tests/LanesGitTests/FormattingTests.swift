import Testing
@testable import LanesGit

@Suite(.timeLimit(.minutes(3))) struct FormattingTests {
    @Test(arguments: [
        ("https://user:secret@github.com/team/app.git", "https://********@github.com/team/app.git"),
        ("fatal: could not read from 'http://tok@host:8080/x' now", "fatal: could not read from 'http://********@host:8080/x' now"),
        ("https://github.com/team/app.git", "https://github.com/team/app.git"),
        ("git@github.com:team/app.git", "git@github.com:team/app.git"),
        ("a https://a:b@h/x and ssh://git:p@h2/y", "a https://********@h/x and ssh://********@h2/y"),
        ("/local/path.git", "/local/path.git"),
    ])
    func redactsUserinfoInURLs(input: String, expected: String) {
        #expect(URLRedaction.redact(input) == expected)
    }

    @Test(arguments: [
        (Int64(0), 0, "1970-01-01T00:00:00+00:00"),
        (Int64(1_709_290_800), 60, "2024-03-01T12:00:00+01:00"),
        (Int64(951_782_400), -330, "2000-02-28T18:30:00-05:30"),
        (Int64(-86_401), 0, "1969-12-30T23:59:59+00:00"),
    ])
    func formatsGitTimesLikeGitLogAI(seconds: Int64, offset: Int, expected: String) {
        #expect(GitTime(secondsSince1970: seconds, offsetMinutes: offset).iso8601 == expected)
    }

    @Test func objectIDAcceptsOnlyFullHexNames() {
        #expect(ObjectID(hex: "ABCDEF0123456789abcdef0123456789abcdef01")?.hex == "abcdef0123456789abcdef0123456789abcdef01")
        #expect(ObjectID(hex: "abc") == nil)
        #expect(ObjectID(hex: String(repeating: "g", count: 40)) == nil)
    }
}
