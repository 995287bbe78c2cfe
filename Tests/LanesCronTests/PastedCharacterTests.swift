import Testing
import LanesCron

@Suite(.timeLimit(.minutes(3))) struct PastedCharacterTests {
    @Test(arguments: [
        ("H 0 * * 0\u{2013}4", 1, 10, "'\u{2013}' (U+2013 EN DASH) is not ASCII; type '-' instead: H 0 * * 0-4"),
        ("H\u{00A0}0 * * 0-4", 1, 2, "'\u{00A0}' (U+00A0 NO-BREAK SPACE) is not ASCII; type ' ' instead: H 0 * * 0-4"),
        ("TZ=Asia/Taipei\n30 0 * * 1\u{2014}5", 2, 11, "'\u{2014}' (U+2014 EM DASH) is not ASCII; type '-' instead: 30 0 * * 1-5"),
    ])
    func namesTheCharacterAndTheFix(spec: String, line: Int, column: Int, message: String) {
        #expect(throws: CronSyntaxError.self) { try CronPastedCharacters.check(spec) }
        do {
            try CronPastedCharacters.check(spec)
        } catch {
            #expect(error.message == "line \(line), column \(column): \(message)")
            #expect(error.lineNumber == line)
        }
    }

    @Test func asciiSpecsPass() throws {
        try CronPastedCharacters.check("TZ=America/New_York\nH H(0-7) * * 1-5\n# comment")
    }
}

@Suite(.timeLimit(.minutes(3))) struct LaneZoneTextTests {
    @Test func aLanesZoneBecomesTheFirstLineUnlessTheSpecHasOne() {
        #expect(CronSchedule.text("H 0 * * 0-4", defaultingToZone: "Asia/Taipei") == "TZ=Asia/Taipei\nH 0 * * 0-4")
        #expect(CronSchedule.text("  TZ=UTC\nH 0 * * *", defaultingToZone: "Asia/Taipei") == "  TZ=UTC\nH 0 * * *")
        #expect(CronSchedule.text("H 0 * * *", defaultingToZone: nil) == "H 0 * * *")
    }
}
