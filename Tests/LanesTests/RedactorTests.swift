import Synchronization
import Testing
@testable import LanesRuntime

@Suite(.timeLimit(.minutes(3))) struct RedactorTests {
    @Test func masksEveryOccurrenceAndLongestFirst() {
        let redactor = Redactor(secrets: ["abc", "abcdef"])
        #expect(redactor.redact("x abcdef y abc") == "x ******** y ********")
    }

    @Test func ignoresEmptySecrets() {
        let redactor = Redactor(secrets: [""])
        #expect(redactor.redact("unchanged") == "unchanged")
        #expect(!redactor.containsSecret("unchanged"))
    }

    @Test func secretsRegisteredLaterAreMaskedFromThenOn() {
        let redactor = Redactor()
        #expect(redactor.redact("token-123") == "token-123")
        redactor.register("token-123")
        #expect(redactor.redact("token-123") == Redactor.mask)
    }

    @Test func firstSecretCallbackRunsOnceBeforeTheValueCanBeWritten() {
        let calls = Mutex<[Bool]>([])
        let redactor = Redactor(onFirstSecret: { redactor in
            calls.withLock { $0.append(redactor.isSecret("first-secret")) }
        })
        redactor.register("")
        #expect(calls.withLock { $0 }.isEmpty, "an empty value is no secret")
        redactor.register("first-secret")
        redactor.register("second-secret")
        redactor.register("first-secret")
        #expect(calls.withLock { $0 } == [true])
    }

    @Test func secretValueNeverPrints() {
        let secret = Secret(name: "PASSWORD", value: "hunter2")
        #expect("\(secret)" == Redactor.mask)
        #expect(!String(reflecting: secret).contains("hunter2"))
    }

    @Test func environmentSecretRegistersForRedaction() throws {
        let environment = Environment(variables: ["TOKEN": "s3cr3t-value"])
        _ = try environment.secret("TOKEN")
        #expect(environment.redactor.redact("got s3cr3t-value") == "got ********")
        #expect(throws: LanesError.self) { try environment.secret("MISSING") }
    }
}

@Suite(.timeLimit(.minutes(3))) struct OptionValuesTests {
    static let name = LaneOption<String>("name", "A name", env: "NAME")
    static let count = LaneOption<Int>("count", "A count", default: 2)
    static let token = LaneOption<Secret>("token", "A token", env: "TOKEN", secret: true)
    static let tags = LaneOption<[String]?>("tags", "Tags")
    static let all = [name.info, count.info, token.info, tags.info]

    @Test func parsesKeyValueWords() throws {
        #expect(try OptionValues.parse(["a:1", "b:x:y", "c:"]) == ["a": "1", "b": "x:y", "c": ""])
        #expect(throws: LanesError.self) { try OptionValues.parse(["novalue"]) }
        #expect(throws: LanesError.self) { try OptionValues.parse(["a:1", "a:2"]) }
    }

    @Test func readsTypedValuesWithEnvironmentFallbackAndDefaults() throws {
        let values = OptionValues(given: ["tags": "a,b"], environment: Environment(variables: ["NAME": "from-env", "TOKEN": "t0ken-value"]))
        try values.validate(against: Self.all, for: "step test")
        #expect(try values[Self.name] == "from-env")
        #expect(try values[Self.count] == 2)
        #expect(try values[Self.tags] == ["a", "b"])
        let token = try values[Self.token]
        #expect(token.value == "t0ken-value")
        #expect(token.name == "TOKEN")
        #expect(values.environment.redactor.isSecret("t0ken-value"))
    }

    @Test func reportsEveryProblemAtOnce() {
        let values = OptionValues(given: ["count": "many", "token": "inline", "colour": "red"], environment: Environment(variables: [:]))
        do {
            try values.validate(against: Self.all, for: "step test")
            Issue.record("validation should fail")
        } catch let error as ValidationErrors {
            #expect(error.problems.count == 4, "\(error.problems)")
            let text = error.description
            #expect(text.contains("unknown option 'colour'"))
            #expect(text.contains("'count' from the command line has value 'many', which is not a Int"))
            #expect(text.contains("'token' is secret and cannot be given as an argument; set TOKEN instead"))
            #expect(text.contains("missing required option 'name' (or environment variable NAME)"))
            #expect(!text.contains("inline"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test(arguments: [("true", true), ("YES", true), ("0", false), ("no", false)])
    func boolSpellings(text: String, value: Bool) {
        #expect(Bool(optionText: text) == value)
    }

    @Test func exportMethodAcceptsClassicAndModernNames() {
        #expect(ExportMethod(optionText: "ad-hoc") == .adHoc)
        #expect(ExportMethod(optionText: "release-testing") == .adHoc)
        #expect(ExportMethod(optionText: "app-store-connect") == .appStore)
        #expect(ExportMethod(optionText: "sideload") == nil)
    }
}
