import Synchronization
import Testing
@testable import LanesRuntime

/// Findings 1-5, 8 and 9 of issue 10: every shape a secret takes in output is masked.
@Suite(.timeLimit(.minutes(3))) struct SecretShapesTests {
    @Test(arguments: ["tok-value\n", "tok-value\r\n", "tok-value \t\n", " tok-value", "\ttok-value\n"])
    func valueWithSurroundingWhitespaceIsMaskedWithoutIt(secret: String) {
        let redactor = Redactor(secrets: [secret])
        #expect(!redactor.redact("got tok-value").contains("tok"))
        #expect(redactor.redact("{\"line\":\"tok-value\"}") == "{\"line\":\"********\"}")
    }

    @Test func everyLineOfAMultiLineSecretIsMasked() {
        let pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----\n"
        let json = "{\n  \"type\": \"service_account\",\n  \"private_key_id\": \"4f1c2a\"\n}"
        let redactor = Redactor(secrets: [pem, json])
        for line in pem.split(separator: "\n") + json.split(separator: "\n").dropFirst().dropLast() {
            let shown = redactor.redact("> " + line.trimmingWhitespace())
            #expect(shown == "> ********", "line \(line) leaked")
        }
        #expect(redactor.redact("a { b } c") == "a { b } c", "single braces of a JSON secret are not masked everywhere")
    }

    @Test(arguments: ["\u{0301}", "\u{200D}", "\u{20E3}", "\u{FE0F}"])
    func secretFollowedByACombiningMarkIsMasked(mark: String) {
        let redactor = Redactor(secrets: ["s3cret-9"])
        let text = "value: s3cret-9" + mark + " end"
        #expect(redactor.redact(text) == "value: ********" + mark + " end")
        #expect(redactor.containsSecret("--password=s3cret-9" + mark))
    }

    @Test func overlappingSecretsLeaveNoFragment() {
        let redactor = Redactor(secrets: ["abcXYZ", "XYZdef-long"])
        #expect(redactor.redact("[abcXYZdef-long]") == "[********]")
    }

    @Test func shortSecretsWarnOnceByNameAndStillMask() {
        let warned = Mutex<[String]>([])
        let redactor = Redactor(onShortSecret: { name in warned.withLock { $0.append(name) } })
        redactor.register("1", name: "PIN")
        redactor.register("1", name: "PIN")
        redactor.register("long-enough", name: "TOKEN")
        #expect(warned.withLock { $0 } == ["PIN"])
        #expect(redactor.redact("pin 1") == "pin ********")
    }

    @Test func secretNamedVariablesAreMaskedUnlessExempted() {
        let variables = ["AWS_SECRET_ACCESS_KEY": "aws-value-1", "GITHUB_TOKEN": "ghp-value-2", "MATCH_PASSWORD": "match-3",
                         "SIGNING_KEY": "key-value-4", "DB_PASSPHRASE": "phrase-5", "GOOGLE_CREDENTIALS": "cred-6",
                         "MY_PRIVATE_THING": "private-7", "BUILD_NUMBER": "12345678", "GIT_AUTHOR_NAME": "Ada Lovelace",
                         "PUBLIC_TOKEN_NAME": "shown-8", "LANES_NOT_SECRET": "PUBLIC_TOKEN_NAME"]
        let environment = Environment(variables: variables)
        environment.registerSecretNamedVariables()
        for (name, value) in variables {
            let masked = environment.redactor.redact(value) == Redactor.mask
            let expected = !["BUILD_NUMBER", "GIT_AUTHOR_NAME", "PUBLIC_TOKEN_NAME", "LANES_NOT_SECRET"].contains(name)
            #expect(masked == expected, "\(name)")
        }
    }

    @Test func describingAnEnvironmentOrALaneInvocationShowsNoValue() {
        let environment = Environment(variables: ["AWS_SECRET_ACCESS_KEY": "undeclared-secret-value", "HOME": "/root"])
        let invocation = LaneInvocation(laneName: "deploy", values: OptionValues(given: [:], environment: environment))
        for shown in [String(describing: invocation), String(reflecting: invocation), "\(environment)",
                      String(reflecting: environment), dumped(invocation), dumped(StepContext.sample(environment))] {
            #expect(!shown.contains("undeclared-secret-value"), "\(shown)")
            #expect(!shown.contains("/root"))
        }
    }

    private func dumped(_ value: Any) -> String {
        var text = ""
        dump(value, to: &text)
        return text
    }
}

extension StepContext {
    static func sample(_ environment: Environment) -> StepContext {
        StepContext(environment: environment, projectDirectory: "/p", stateDirectory: "/p/.lanes",
                    log: StepLog(redactor: environment.redactor) { _ in }, cleanups: CleanupStack(),
                    processes: SubprocessRunner(baseEnvironment: environment.variables))
    }
}

@Suite(.timeLimit(.minutes(3))) struct DotEnvHardeningTests {
    @Test func crlfFilesReadLineByLine() throws {
        let variables = try DotEnv.parse("A=1\r\nB=two\r\nexport C=\"3\"\r\n", file: ".env")
        #expect(variables == ["A": "1", "B": "two", "C": "3"])
    }

    @Test func multiLineQuotedValuesParse() throws {
        let text = "KEY=\"-----BEGIN KEY-----\nabc\n-----END KEY-----\"\nNEXT='x\r\ny'\nLAST=ok\n"
        let variables = try DotEnv.parse(text, file: ".env")
        #expect(variables["KEY"] == "-----BEGIN KEY-----\nabc\n-----END KEY-----")
        #expect(variables["NEXT"] == "x\ny")
        #expect(variables["LAST"] == "ok")
    }

    @Test func aByteOrderMarkIsNotPartOfTheFirstName() throws {
        #expect(try DotEnv.parse("\u{FEFF}FIRST=1\n", file: ".env") == ["FIRST": "1"])
    }

    @Test(arguments: ["hunter2-secret-line\n", "A=1\nmy hunter2-secret-line=x\n", "A=\"hunter2-secret-line\n", "A=\"x\" hunter2-secret-line\n"])
    func errorsNameFileAndLineButNeverTheText(text: String) {
        #expect {
            try DotEnv.parse(text, file: "/p/.env")
        } throws: { error in
            let shown = String(describing: error)
            return shown.hasPrefix("/p/.env:") && !shown.contains("hunter2")
        }
    }
}
