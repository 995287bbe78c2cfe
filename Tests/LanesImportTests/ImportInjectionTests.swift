import Foundation
@testable import LanesImport
import LanesTestSupport
import Testing

/// Fastfile text never becomes Lanefile code (issue 31): names, keys, strings and comments reach the
/// Lanefile only through `SwiftText`, so `pwned()` written anywhere a Fastfile holds text is never an
/// identifier of the generated Swift, whatever quotes, backslashes or line ends surround it.
@Suite(.timeLimit(.minutes(3))) struct ImportInjectionTests {
    static let canary = "pwned"

    /// The identifiers the Lanefile's code uses, and what would let text escape a literal or a comment.
    static func injected(_ result: ImportResult) -> [String] {
        let scan = SwiftTokenScan(result.lanefile)
        var found = scan.problems
        for identifier in scan.codeIdentifiers where identifier.name == canary {
            found.append("line \(identifier.line): `\(canary)` is code: \(result.lanefile.split(separator: "\n", omittingEmptySubsequences: false)[identifier.line - 1])")
        }
        for scalar in result.lanefile.unicodeScalars where scalar != "\n" && scalar != "\t" && SwiftText.needsEscape(scalar) {
            found.append("a raw U+\(String(scalar.value, radix: 16, uppercase: true)) in the Lanefile")
        }
        // Code outside the translated statements: `import` only in the header.
        for identifier in scan.codeIdentifiers where identifier.name == "import" && identifier.line > 4 {
            found.append("line \(identifier.line): an import below the header")
        }
        return found
    }

    @Test func optionKeyWithAnInterpolationStaysText() {
        let result = FastlaneImporter.importRuby(#"""
            lane :beta do |options|
              puts options['s\(pwned())']
              puts options["t\\(pwned())"]
            end
            """#)
        #expect(Self.injected(result) == [])
        #expect(result.lanefile.contains(#"LaneOption<String?>("s\\(pwned())""#))
    }

    @Test func swiftFastfileOptionKeyWithAnInterpolationStaysText() {
        let result = FastlaneImporter.importSwift(#"""
            class Fastfile: LaneFile {
                func betaLane(withOptions options: [String: String]?) {
                    echo(message: options?["k\\(pwned())"] ?? "none")
                }
            }
            """#)
        #expect(Self.injected(result) == [])
    }

    @Test func lineEndInAPlatformNameStaysInItsComment() {
        for end in ["\n", "\r", "\r\n", "\u{2028}", "\u{85}"] {
            let result = FastlaneImporter.importRuby("platform \"ios\(end)pwned()\" do\n  before_all do\n    puts 'x'\n  end\n  lane :beta do\n    puts 'y'\n  end\nend\n")
            #expect(Self.injected(result) == [], "line end \(end.unicodeScalars.map { $0.value })")
        }
    }

    @Test func lineEndInATopLevelEnvNameStaysInItsComment() {
        for end in ["\n", "\r", "\u{2029}"] {
            let result = FastlaneImporter.importRuby("ENV[\"A\(end)import Glibc\(end)let x = pwned()\"] = \"v\"\nlane :beta do\n  puts 'y'\nend\n")
            #expect(Self.injected(result) == [], "line end \(end.unicodeScalars.map { $0.value })")
        }
    }

    @Test func carriageReturnInATodoStatementEndsNoComment() {
        // `=~` is not translated: the statement is quoted in a TODO block, and a lone CR in it must not end the comment.
        let result = FastlaneImporter.importRuby("lane :beta do\n  x = 'a' =~ /b/ # \r pwned()\n  puts 'after'\nend\n")
        #expect(Self.injected(result) == [])
        // What follows the CR is Ruby's comment, an editor's next line: quoted and stopping, never run.
        #expect(result.report.todos.map(\.line) == [2, 3])
        #expect(result.lanefile.contains(#"try importTODO(line: 3, "line 3 starts after a line end only editors show"#))
        // A CR inside a string of a statement quoted in a TODO block: every line of the quote is a comment.
        let inString = FastlaneImporter.importRuby("lane :beta do\n  x = 'a\r pwned()' =~ /b/\n  puts 'after'\nend\n")
        #expect(Self.injected(inString) == [])
        #expect(inString.report.todos.map(\.line) == [2])
    }

    @Test func crlfFastfileGivesTheSameLanefileAsLF() {
        let text = "lane :beta do\n  x = [1,\n    2].map { |n| n * 2 }\n  gym(scheme: 'App',\n      clean: true)\nend\n"
        let lf = FastlaneImporter.importRuby(text)
        let crlf = FastlaneImporter.importRuby(text.replacing("\n", with: "\r\n"))
        #expect(crlf.lanefile == lf.lanefile)
        #expect(Self.injected(crlf) == [])
        #expect(crlf.lineMap == lf.lineMap)
    }

    @Test func editorLineSeparatorsAreNormalisedAndNeverReachTheLanefile() {
        for end in ["\u{2028}", "\u{2029}", "\u{85}", "\r"] {
            let text = "lane :beta do\(end)  puts 'one'\(end)  y = `ls` =~ /x/\(end)  puts 'two'\(end)end\(end)"
            let result = FastlaneImporter.importRuby(text)
            #expect(Self.injected(result) == [])
            // Ruby reads one line where an editor shows four: the lane stops at the first line it cannot trust.
            #expect(result.report.todos.map(\.line) == [2, 3, 4], "line end \(end.unicodeScalars.map { $0.value })")
            #expect(!result.lanefile.contains("try echo(\"one\")"))
        }
    }

    @Test func lineEndInAChdirFolderStaysInItsComment() {
        let result = FastlaneImporter.importRuby("lane :beta do\n  Dir.chdir(\"..\\npwned()\\n\") do\n    sh 'ls'\n  end\nend\n")
        #expect(Self.injected(result) == [])
    }

    @Test func bidirectionalControlsAreShownEscaped() {
        let result = FastlaneImporter.importRuby("lane :beta do\n  puts 'a\u{202E}b'\n  x = 'c\u{2066}' =~ /d/\nend\n")
        #expect(Self.injected(result) == [])
        #expect(result.lanefile.contains(#"\u{202e}"#))
    }

    @Test func sevenHundredStringsJoinedByPlusImportWithoutRecursion() {
        // Issue 31: 700 strings joined by `+` (4 KB) crashed the importer (a call per term).
        let terms = (0 ..< 700).map { "\"s\($0)\"" }.joined(separator: " + ")
        let result = FastlaneImporter.importRuby("lane :beta do\n  message = \(terms)\n  puts message\nend\n")
        #expect(result.lanefile.contains(#"let message = ["s0", "s1""#))
        #expect(result.report.todos.isEmpty)
        // Deeper than any stack: a chain of 100,000 terms is read in a loop too.
        let long = (0 ..< 100_000).map { _ in "'x'" }.joined(separator: " + ")
        let deep = FastlaneImporter.importRuby("lane :beta do\n  message = \(long)\n  puts message if a && \(Array(repeating: "b", count: 50_000).joined(separator: " && "))\nend\n")
        #expect(deep.lanefile.contains("let lanes = Lanefile {"))
        #expect(deep.report.todos.map(\.line) == [2, 3])
    }

    @Test func literalTokenAndPasswordNeverReachAFastlaneCommandLine() {
        let result = FastlaneImporter.importRuby("""
            lane :beta do
              some_plugin_upload(api_token: "tok-8d1f2a9c", password: 'hunter2-very-secret', file: "App.ipa")
              other_plugin(webhook: "https://hooks.slack.com/services/T000/B000/XXXXXXXX")
            end
            """)
        for value in ["tok-8d1f2a9c", "hunter2-very-secret", "hooks.slack.com"] {
            #expect(!result.lanefile.contains(value))
            #expect(!result.report.markdown.contains(value))
            #expect(!result.report.json.contains(value))
        }
        #expect(result.lanefile.contains(#""file:App.ipa""#))
        #expect(result.report.secretsToCreate.map(\.name) == ["SOME_PLUGIN_UPLOAD_API_TOKEN", "SOME_PLUGIN_UPLOAD_PASSWORD", "OTHER_PLUGIN_WEBHOOK"])
    }

    @Test func topLevelSecretEnvValueIsInNoReportOrLanefile() {
        let result = FastlaneImporter.importRuby("""
            ENV["MATCH_PASSWORD"] = "correct-horse-battery"
            ENV['MATCH_GIT_BASIC_AUTHORIZATION'] = 'dXNlcjpwYXNz'
            ENV["FASTLANE_XCODEBUILD_SETTINGS_TIMEOUT"] = "120"
            lane :beta do
              ENV["SLACK_URL"] = "https://hooks.slack.com/services/T1/B1/abc"
              puts 'x'
            end
            """)
        for value in ["correct-horse-battery", "dXNlcjpwYXNz", "hooks.slack.com"] {
            #expect(!result.lanefile.contains(value))
            #expect(!result.report.markdown.contains(value))
            #expect(!result.report.json.contains(value))
        }
        #expect(result.lanefile.contains("FASTLANE_XCODEBUILD_SETTINGS_TIMEOUT=120"))
        #expect(result.report.secretsToCreate.map(\.name).contains("MATCH_PASSWORD"))
    }

    // MARK: Fuzzing

    /// Text that tries to leave a literal or a comment, each ending in a call of `pwned`.
    static let payloads = [
        "\\(pwned())", "\\\\(pwned())", "\"); pwned(); (\"", "\\\"); pwned(); (\\\"", "*/ pwned() /*", "\"\"\" + pwned() + \"\"\"",
        "#\"\\#(pwned())\"#", "` + pwned() + `",
    ]
    static let lineEnds = ["\n", "\r", "\r\n", "\u{2028}", "\u{2029}", "\u{85}", "\u{0B}", "\u{0C}", "\u{0}", "\u{202E}", "\u{2066}"]

    /// Slots of a Fastfile where text goes: each takes the hostile text `P` (Ruby single-quoted, so `\` and `'` are escaped).
    static let rubySlots = [
        "puts options['P']", "puts options[:'P']", "gym(scheme: 'P')", "some_plugin(note: 'P')", "some_plugin('P' => 1)",
        "puts 'P'", "x = 'P' =~ /a/", "Dir.chdir('P') do\n    sh 'ls'\n  end", "ENV['P'] = 'v'", "ENV['X'] = 'P'", "sh 'echo', 'P'",
        "slack(message: 'P', slack_url: 'P')", "desc 'P'", "case 'P'\n  when 'P' then puts 'P'\n  end", "callme(:'P')",
        "# P", "begin\n    puts 'P'\n  rescue => e\n    UI.user_error!('P')\n  end",
    ]
    static let topSlots = [
        "platform 'P' do\n  before_all do\n    puts 'P'\n  end\nend", "ENV['P'] = 'P'", "X_P = 'P'", "lane :'P' do\n  puts 'P'\nend",
        "desc 'P'\nlane :described do\nend", "def helper_method(a = 'P')\n  puts a\nend", "# P", "import_from_git(url: 'P')",
    ]

    static func hostileText(using generator: inout SplitMix64) -> String {
        var text = ""
        for _ in 0 ..< Int.random(in: 1 ... 3, using: &generator) {
            text += lineEnds.randomElement(using: &generator)!
            text += payloads.randomElement(using: &generator)!
        }
        return text + lineEnds.randomElement(using: &generator)!
    }

    static func rubySingleQuoted(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("'", with: "\\'")
    }

    @Test func hostileFastfilesNeverPutTheirTextIntoCode() {
        let seed = ProcessInfo.processInfo.environment["LANES_IMPORT_FUZZ_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1 ... UInt64.max)
        print("ImportInjectionTests seed \(seed) (replay with LANES_IMPORT_FUZZ_SEED=\(seed))")
        var generator = SplitMix64(seed: seed)
        let started = ContinuousClock.now
        var runs = 0
        while runs < 2_000, ContinuousClock.now - started < .seconds(4) {
            var lines: [String] = []
            for _ in 0 ..< Int.random(in: 0 ... 2, using: &generator) {
                lines.append(Self.topSlots.randomElement(using: &generator)!.replacing("P", with: Self.rubySingleQuoted(Self.hostileText(using: &generator))))
            }
            lines.append("lane :beta do |options|")
            for _ in 0 ..< Int.random(in: 1 ... 4, using: &generator) {
                lines.append("  " + Self.rubySlots.randomElement(using: &generator)!.replacing("P", with: Self.rubySingleQuoted(Self.hostileText(using: &generator))))
            }
            lines.append("end")
            let lineEnd = ["\n", "\r\n", "\r"].randomElement(using: &generator)!
            let fastfile = lines.joined(separator: lineEnd) + lineEnd
            let swift = Int.random(in: 0 ..< 4, using: &generator) == 0
            let result: ImportResult
            if swift {
                let key = Self.hostileText(using: &generator).replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
                result = FastlaneImporter.importSwift("class Fastfile: LaneFile {\n    func betaLane(withOptions options: [String: String]?) {\n"
                    + "        desc(\"\(key)\")\n        echo(message: options?[\"\(key)\"] ?? \"\(key)\")\n    }\n}\n")
            } else {
                result = FastlaneImporter.importRuby(fastfile)
            }
            let found = Self.injected(result)
            if !found.isEmpty {
                Issue.record("seed \(seed), run \(runs): \(found)\nFastfile: \(fastfile.debugDescription)\nLanefile:\n\(result.lanefile)")
                return
            }
            runs += 1
        }
        print("ImportInjectionTests: \(runs) hostile Fastfiles imported (seed \(seed))")
        #expect(runs > 20, "only \(runs) imports in 4 s (seed \(seed))")
    }
}
