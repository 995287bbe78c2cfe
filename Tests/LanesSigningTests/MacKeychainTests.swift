import LanesTestSupport
import Foundation
import Synchronization
import Testing
@testable import LanesSigning

/// Stands in for the macOS `security` tool: records each command and answers from a script.
final class RecordingSecurity: ToolRunning {
    let commands = Mutex<[ToolCommand]>([])
    let answer: @Sendable (ToolCommand) -> ToolResult

    init(answer: @escaping @Sendable (ToolCommand) -> ToolResult) {
        self.answer = answer
    }

    func run(_ command: ToolCommand) async throws -> ToolResult {
        commands.withLock { $0.append(command) }
        return answer(command)
    }

    var recorded: [ToolCommand] { commands.withLock { $0 } }

    /// Output shaped like a real macOS 14 `security` run.
    static func macOSLike(identity: String = "  1) \(Fixture.distSHA1) \"\(Fixture.distCommonName)\"\n     1 valid identities found\n") -> RecordingSecurity {
        RecordingSecurity { command in
            switch command.arguments.dropFirst().first {
            case "list-keychains" where command.arguments.count == 4:
                ToolResult(exitStatus: 0, output: "    \"/Users/ci/Library/Keychains/login.keychain-db\"\n    \"/Library/Keychains/System.keychain\"\n")
            case "find-identity":
                ToolResult(exitStatus: 0, output: identity)
            default:
                ToolResult(exitStatus: 0, output: "")
            }
        }
    }
}

@Suite("macOS keychain command construction")
struct MacKeychainTests {
    let keychainPassword = "kc \"pass\" \\ 🍺"

    func makeKeychain(_ runner: RecordingSecurity, scratch: String) throws -> MacKeychain {
        try MacKeychain(name: "lanes-ci", keychainsDirectory: "/Users/ci/Library/Keychains", password: keychainPassword,
                        runner: runner, scratchDirectory: scratch + "/one-time", ownershipDirectory: scratch + "/owned",
                        searchListLock: scratch + "/search-list.lock")
    }

    @Test func createImportDeleteSequence() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let runner = RecordingSecurity.macOSLike()
        let keychain = try makeKeychain(runner, scratch: temp.path + "/scratch")
        let path = "/Users/ci/Library/Keychains/lanes-ci.keychain-db"
        #expect(keychain.location == path)

        try await keychain.create()
        let identity = try PKCS12File.read(path: Fixture.p12("dist-openssl3-default-aes"), password: "brewer-aes-pass")
        let imported = try await keychain.importIdentity(identity)
        #expect(imported == KeychainIdentity(commonName: Fixture.distCommonName, sha1: Fixture.distSHA1))
        #expect(!FileManager.default.fileExists(atPath: temp.path + "/scratch/one-time"), "the one-time PKCS#12 is removed")
        try await keychain.delete()

        let commands = runner.recorded
        // This stand-in's search list never changes, so `delete` finds no entry of its own to take off.
        #expect(commands.map(\.arguments) == [
            ["security", "-i"],
            ["security", "set-keychain-settings", "-lut", "21600", path],
            ["security", "-i"],
            ["security", "list-keychains", "-d", "user"],
            ["security", "list-keychains", "-d", "user", "-s", path,
             "/Users/ci/Library/Keychains/login.keychain-db", "/Library/Keychains/System.keychain"],
            ["security", "-i"],
            ["security", "-i"],
            ["security", "find-identity", "-v", "-p", "codesigning", path],
            ["security", "list-keychains", "-d", "user"],
            ["security", "delete-keychain", path],
        ])
        let stdin = commands.compactMap(\.standardInput).map { String(decoding: $0, as: UTF8.self) }
        let quotedPassword = "\"kc \\\"pass\\\" \\\\ 🍺\""
        #expect(stdin[0] == "\"create-keychain\" \"-p\" \(quotedPassword) \"\(path)\"\n")
        #expect(stdin[1] == "\"unlock-keychain\" \"-p\" \(quotedPassword) \"\(path)\"\n")
        #expect(stdin[2].hasPrefix("\"import\" \"\(temp.path)/scratch/one-time/\(Fixture.distSHA1).p12\" \"-k\" \"\(path)\" \"-f\" \"pkcs12\" \"-P\" \""))
        #expect(stdin[2].hasSuffix("\" \"-T\" \"/usr/bin/codesign\"\n"))
        #expect(stdin[3] == "\"set-key-partition-list\" \"-S\" \"apple-tool:,apple:,codesign:\" \"-s\" \"-k\" \(quotedPassword) \"\(path)\"\n")
    }

    @Test func noSecretInAnyArgument() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let runner = RecordingSecurity.macOSLike()
        let keychain = try makeKeychain(runner, scratch: temp.path + "/scratch")
        try await keychain.create()
        _ = try await keychain.importIdentity(try PKCS12File.read(path: Fixture.p12("dist-shellchars-pass"), password: Fixture.shellPassword))
        try await keychain.delete()

        let importLine = String(decoding: runner.recorded.compactMap(\.standardInput)[2], as: UTF8.self)
        let oneTime = try #require(importLine.split(separator: "\"").first { $0.count == 48 && $0.allSatisfy(\.isHexDigit) })
        for command in runner.recorded {
            let argv = command.arguments.joined(separator: " ")
            #expect(!argv.contains("kc "), "keychain password in argv: \(command.summary)")
            #expect(!argv.contains(oneTime), "one-time PKCS#12 password in argv: \(command.summary)")
            #expect(!argv.contains(Fixture.shellPassword))
            #expect(!command.summary.contains(oneTime) && !command.summary.contains("kc "))
        }
    }

    @Test func deleteRestoresOnceAndIsSafeToRepeat() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let runner = RecordingSecurity.macOSLike()
        let keychain = try makeKeychain(runner, scratch: temp.path)
        try await keychain.delete() // never created: nothing to undo
        #expect(runner.recorded.isEmpty)
        try await keychain.create()
        try await keychain.delete()
        let afterFirst = runner.recorded.count
        try await keychain.delete()
        #expect(runner.recorded.count == afterFirst)
    }

    @Test func failedCreationStillDeletesWhatWasMade() async throws {
        let runner = RecordingSecurity { command in
            if command.arguments == ["security", "-i"] { return ToolResult(exitStatus: 1, output: "security: keychain exists") }
            return ToolResult(exitStatus: 0, output: "")
        }
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let keychain = try makeKeychain(runner, scratch: temp.path)
        await #expect(throws: SigningError.self) { try await keychain.create() }
        try await keychain.delete()
        #expect(runner.recorded.last?.arguments == ["security", "delete-keychain", keychain.location])
        // The search list was never changed, so it is not "restored" either.
        #expect(!runner.recorded.contains { $0.arguments.contains("-s") })
    }

    @Test func importThatDoesNotShowUpIsAnError() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let runner = RecordingSecurity.macOSLike(identity: "     0 valid identities found\n")
        let keychain = try makeKeychain(runner, scratch: temp.path + "/scratch")
        try await keychain.create()
        let identity = try PKCS12File.read(path: Fixture.p12("dist-3des-sha1"), password: "brewer-3des-pass")
        await #expect(throws: SigningError.self) { try await keychain.importIdentity(identity) }
    }

    @Test func rejectsLineBreaksInInteractiveValues() {
        #expect(throws: SigningError.self) { try SecurityCommands.unlockKeychain("/k", password: "a\nquit") }
    }

    @Test func parsesRecordedOutputs() {
        #expect(SecurityCommands.parseKeychainList("    \"/a b/login.keychain-db\"\n    \"/Library/Keychains/System.keychain\"\n")
                == ["/a b/login.keychain-db", "/Library/Keychains/System.keychain"])
        let identities = SecurityCommands.parseIdentities("""
              1) 5F24FB844528D512C166665C383E203C5FA8ACFB "iPhone Distribution: Example Corp (ABCDE12345)"
              2) 0123456789abcdef0123456789abcdef01234567 "Apple Development: Jane (X)" (CSSMERR_TP_CERT_EXPIRED)
                 2 valid identities found
            """)
        #expect(identities == [
            KeychainIdentity(commonName: Fixture.distCommonName, sha1: Fixture.distSHA1),
            KeychainIdentity(commonName: "Apple Development: Jane (X)", sha1: "0123456789ABCDEF0123456789ABCDEF01234567"),
        ])
    }
}

@Suite("macOS keychain safety")
struct MacKeychainSafetyTests {
    @Test func refusesToAdoptAnExistingKeychain() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        FileManager.default.createFile(atPath: temp.path + "/mine.keychain-db", contents: Data())
        let runner = RecordingSecurity.macOSLike()
        let keychain = try MacKeychain(name: "mine", keychainsDirectory: temp.path, password: "p", runner: runner,
                                       scratchDirectory: temp.path + "/scratch", ownershipDirectory: temp.path + "/owned",
                                       searchListLock: temp.path + "/search-list.lock")
        let error = await #expect(throws: SigningError.self) { try await keychain.create() }
        #expect(error?.description.contains("already exists and was not made by lanes") == true)
        try await keychain.delete()
        #expect(runner.recorded.isEmpty, "nothing ran, so nothing of the user's is deleted")
        #expect(FileManager.default.fileExists(atPath: temp.path + "/mine.keychain-db"))
    }
}

extension MacKeychainSafetyTests {
    /// If `security -i` echoes its input in an error, the passwords are masked in lanes' error.
    @Test func toolOutputInErrorsIsMasked() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let runner = RecordingSecurity { command in
            if command.arguments == ["security", "-i"], let input = command.standardInput {
                return ToolResult(exitStatus: 1, output: "security> " + String(decoding: input, as: UTF8.self))
            }
            return ToolResult(exitStatus: 0, output: "")
        }
        let keychain = try MacKeychain(name: "m", keychainsDirectory: temp.path, password: "kc-secret-9", runner: runner,
                                       scratchDirectory: temp.path + "/scratch", ownershipDirectory: temp.path + "/owned",
                                       searchListLock: temp.path + "/search-list.lock")
        let error = await #expect(throws: SigningError.self) { try await keychain.create() }
        #expect(error?.description.contains("create-keychain") == true)
        #expect(error?.description.contains("kc-secret-9") == false)
    }
}
