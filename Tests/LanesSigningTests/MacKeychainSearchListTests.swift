import Foundation
import LanesTestSupport
import Synchronization
import Testing
import Lanes
@testable import LanesSigning

/// Stands in for the macOS `security` tool with state: the user's search list, the keychain files
/// (made and removed on disk, so `MacKeychain` sees them as on a Mac), and a recorded
/// `find-identity` listing with and without `-v`. Output shaped as macOS 15's `security` prints it.
final class SimulatedSecurity: ToolRunning {
    struct State {
        var searchList: [String]
        var keychains: Set<String> = []
    }

    let state: Mutex<State>
    /// `find-identity -v` and `find-identity` (every identity, then the valid ones).
    let validListing: String
    let fullListing: String

    init(searchList: [String] = ["/Users/ci/Library/Keychains/login.keychain-db", "/Library/Keychains/System.keychain"],
         validListing: String = "     0 valid identities found\n",
         fullListing: String = "Policy: Code Signing\n  Matching identities\n     0 identities found\n\n  Valid identities only\n     0 valid identities found\n") {
        state = Mutex(State(searchList: searchList))
        self.validListing = validListing
        self.fullListing = fullListing
    }

    var searchList: [String] { state.withLock { $0.searchList } }

    /// A keychain that a run which is gone made: on disk and listed, as a killed lane leaves it.
    func leave(_ path: String) {
        FileManager.default.createFile(atPath: path, contents: Data("keychain".utf8))
        state.withLock {
            $0.keychains.insert(path)
            $0.searchList.insert(path, at: 0)
        }
    }

    func run(_ command: ToolCommand) async throws -> ToolResult {
        let words = command.arguments
        switch words.dropFirst().first {
        case "list-keychains" where words.count == 4:
            return ToolResult(exitStatus: 0, output: searchList.map { "    \"\($0)\"\n" }.joined())
        case "list-keychains":
            state.withLock { $0.searchList = Array(words.dropFirst(5)) }
            return ToolResult(exitStatus: 0, output: "")
        case "-i":
            let line = Self.words(of: String(decoding: command.standardInput ?? [], as: UTF8.self))
            if line.first == "create-keychain", let path = line.last {
                FileManager.default.createFile(atPath: path, contents: Data("keychain".utf8))
                state.withLock { _ = $0.keychains.insert(path) }
            }
            return ToolResult(exitStatus: 0, output: "")
        case "delete-keychain":
            let path = words[2]
            let existed = state.withLock { $0.keychains.remove(path) != nil }
            guard existed else { return ToolResult(exitStatus: 50, output: "security: SecKeychainDelete: The specified keychain could not be found.\n") }
            try? FileManager.default.removeItem(atPath: path)
            return ToolResult(exitStatus: 0, output: "")
        case "find-identity":
            return ToolResult(exitStatus: 0, output: words.contains("-v") ? validListing : fullListing)
        default:
            return ToolResult(exitStatus: 0, output: "")
        }
    }

    /// The double-quoted words of a `security -i` line.
    static func words(of line: String) -> [String] {
        var words: [String] = [], current = "", inside = false, escaped = false
        for character in line {
            if escaped { current.append(character); escaped = false }
            else if character == "\\" { escaped = true }
            else if character == "\"" { if inside { words.append(current); current = "" }; inside.toggle() }
            else if inside { current.append(character) }
        }
        return words
    }
}

/// Issue 32: lanes' macOS keychains are found and removed like its file keychains, and the user's
/// search list loses or gains only lanes' own entry.
@Suite(.timeLimit(.minutes(3))) struct MacKeychainSearchListTests {
    struct Place {
        let temp: TemporaryDirectory
        var keychains: String { temp.path + "/Keychains" }
        var ownership: String { temp.path + "/state/mac-keychains" }
        var lock: String { temp.path + "/cache/lanes/keychain-search-list.lock" }

        init() throws {
            temp = try TemporaryDirectory()
            try FileManager.default.createDirectory(atPath: temp.path + "/Keychains", withIntermediateDirectories: true)
        }

        func keychain(_ name: String, _ security: SimulatedSecurity) throws -> MacKeychain {
            try MacKeychain(name: name, keychainsDirectory: keychains, password: "kc-\(name)", runner: security,
                            scratchDirectory: temp.path + "/scratch-\(name)", ownershipDirectory: ownership, searchListLock: lock)
        }
    }

    static let userList = ["/Users/ci/Library/Keychains/login.keychain-db", "/Library/Keychains/System.keychain"]

    /// Two lanes at once: each deletes its keychain and takes only its own entry off the list. (Each
    /// restoring the list it saw at its start dropped the other's keychain, or put a deleted one back.)
    @Test func twoLanesAtOnceTakeOffOnlyTheirOwnEntries() async throws {
        let place = try Place()
        defer { place.temp.remove() }
        let security = SimulatedSecurity()
        let first = try place.keychain("first", security)
        let second = try place.keychain("second", security)
        try await first.create()
        try await second.create()
        #expect(security.searchList == [second.location, first.location] + Self.userList)
        try await first.delete()
        #expect(security.searchList == [second.location] + Self.userList, "the second lane's keychain is still found")
        // Meanwhile the user adds a keychain of their own: lanes leaves it.
        security.state.withLock { $0.searchList.append("/Users/ci/Library/Keychains/team.keychain-db") }
        try await second.delete()
        #expect(security.searchList == Self.userList + ["/Users/ci/Library/Keychains/team.keychain-db"])
        #expect(!FileManager.default.fileExists(atPath: first.location) && !FileManager.default.fileExists(atPath: second.location))
    }

    /// A killed lane's keychain (on disk, on the search list, its lock file left) is removed by the next
    /// run; a keychain a live lane holds, and one kept on purpose, stay.
    @Test func aKilledLanesKeychainIsRemovedByTheNextRun() async throws {
        let place = try Place()
        defer { place.temp.remove() }
        let security = SimulatedSecurity()
        let killed = place.keychains + "/killed.keychain-db"
        security.leave(killed)
        try FileManager.default.createDirectory(atPath: place.ownership, withIntermediateDirectories: true)
        try "in-use".write(toFile: place.ownership + "/killed.keychain-db.lock", atomically: true, encoding: .utf8)
        let kept = place.keychains + "/kept.keychain-db"
        security.leave(kept)
        try "kept".write(toFile: place.ownership + "/kept.keychain-db.lock", atomically: true, encoding: .utf8)
        let live = try place.keychain("live", security)
        try await live.create()

        let removed = await MacKeychain.removeLeftovers(ownershipDirectory: place.ownership, keychainsDirectory: place.keychains,
                                                        runner: security, searchListLock: place.lock)
        #expect(removed == [killed])
        #expect(!FileManager.default.fileExists(atPath: killed))
        #expect(!FileManager.default.fileExists(atPath: place.ownership + "/killed.keychain-db.lock"))
        #expect(security.searchList == [live.location, kept] + Self.userList)
        try await live.delete()
    }

    /// The next lane with a killed lane's keychain name starts (it was refused: "already exists").
    @Test func theNameOfAKilledLanesKeychainCanBeUsedAgain() async throws {
        let place = try Place()
        defer { place.temp.remove() }
        let security = SimulatedSecurity()
        let keychain = try place.keychain("ci", security)
        security.leave(keychain.location)
        try FileManager.default.createDirectory(atPath: place.ownership, withIntermediateDirectories: true)
        try "in-use".write(toFile: place.ownership + "/ci.keychain-db.lock", atomically: true, encoding: .utf8)
        try await keychain.create()
        #expect(security.searchList == [keychain.location] + Self.userList, "listed once")
        // While this run holds it, another lane with the name is refused and its cleanup touches nothing.
        let other = try place.keychain("ci", security)
        await #expect { try await other.create() } throws: { "\($0)".contains("in use by another lane") }
        try await other.delete()
        #expect(FileManager.default.fileExists(atPath: keychain.location))
        try await keychain.delete()
        #expect(security.searchList == Self.userList)
    }

    static let untrusted = """
        Policy: Code Signing
          Matching identities
          1) \(Fixture.distSHA1) "\(Fixture.distCommonName)" (CSSMERR_TP_NOT_TRUSTED)
             1 identities found

          Valid identities only
             0 valid identities found

        """

    /// `find-identity -v` lists valid identities only: an identity whose chain reaches no trusted root is
    /// reported as imported but untrusted, with what to install, not as missing.
    @Test func anImportedButUntrustedIdentityIsToldFromAMissingOne() async throws {
        let place = try Place()
        defer { place.temp.remove() }
        let identity = try PKCS12File.read(path: Fixture.p12("dist-3des-sha1"), password: "brewer-3des-pass")

        let untrusting = SimulatedSecurity(fullListing: Self.untrusted)
        let keychain = try place.keychain("untrusted", untrusting)
        try await keychain.create()
        let error = await #expect(throws: SigningError.self) { try await keychain.importIdentity(identity) }
        let text = "\(error.map { "\($0)" } ?? "")"
        #expect(text.contains("was imported, but its certificate chain is not trusted (CSSMERR_TP_NOT_TRUSTED)"), "\(text)")
        #expect(text.contains("WWDR") && text.contains(Fixture.distSHA1))
        #expect(error?.lanesKind == .environment)
        try await keychain.delete()

        let empty = SimulatedSecurity()
        let other = try place.keychain("empty", empty)
        try await other.create()
        let missing = await #expect(throws: SigningError.self) { try await other.findIdentity(.sha1(Fixture.distSHA1)) }
        #expect("\(missing.map { "\($0)" } ?? "")".contains("no identity matching SHA-1"))
        try await other.delete()
    }

    @Test func parsesTheFullListingWithReasons() {
        let listed = SecurityCommands.parseMatchingIdentities("""
            Policy: Code Signing
              Matching identities
              1) \(Fixture.distSHA1) "\(Fixture.distCommonName)"
              2) 0123456789ABCDEF0123456789ABCDEF01234567 "Apple Development: Jane (X)" (CSSMERR_TP_CERT_EXPIRED)
                 2 identities found

              Valid identities only
              1) \(Fixture.distSHA1) "\(Fixture.distCommonName)"
                 1 valid identities found
            """)
        #expect(listed == [
            .init(identity: KeychainIdentity(commonName: Fixture.distCommonName, sha1: Fixture.distSHA1), problem: nil),
            .init(identity: KeychainIdentity(commonName: "Apple Development: Jane (X)", sha1: "0123456789ABCDEF0123456789ABCDEF01234567"),
                  problem: "CSSMERR_TP_CERT_EXPIRED"),
        ])
    }
}
