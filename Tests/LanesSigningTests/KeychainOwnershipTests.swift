import LanesTestSupport
import Foundation
import Testing
@testable import LanesSigning
import Lanes

/// Finding 15 (and the keychain part of 10) of issue 10: a keychain belongs to the run that made it.
@Suite("Keychain ownership", .timeLimit(.minutes(10)))
struct KeychainOwnershipTests {
    @Test func aSecondLaneUsingTheSameNameIsRefusedAndCannotDeleteTheFirstOnesKeychain() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let first = try FileKeychain(name: "shared", in: temp.path, password: "one")
        let second = try FileKeychain(name: "shared", in: temp.path, password: "two")
        try await first.create()
        let identity = try PKCS12File.read(path: Fixture.p12("dist-3des-sha1"), password: "brewer-3des-pass")
        let stored = try await first.importIdentity(identity)
        await #expect {
            try await second.create()
        } throws: { error in
            "\(error)".contains("in use by another lane")
        }
        try await second.delete()  // the refused lane's cleanup runs: it must not touch the first one's keychain
        #expect(try await first.findIdentity(.sha1(stored.sha1)) == stored)
        try await first.delete()
        #expect(!FileManager.default.fileExists(atPath: first.location))
    }

    @Test func aLeftoverFolderIsNeverAdopted() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let keychain = try FileKeychain(name: "left", in: temp.path, password: "p")
        // A folder at the keychain's place that this run did not create, holding someone's identity.
        try FileManager.default.createDirectory(atPath: keychain.location, withIntermediateDirectories: true)
        try #"[{"commonName":"Planted","sha1":"AA"}]"#.write(toFile: keychain.location + "/index.json", atomically: true, encoding: .utf8)
        try await keychain.create()
        await #expect(throws: SigningError.self) { try await keychain.findIdentity(.commonName("Planted")) }
        try await keychain.delete()
    }

    @Test func leftoversOfACrashedRunAreRemovedAndLiveOrKeptOnesStay() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        // A crashed run: its lock file says in-use, but no process holds the lock any more.
        let crashed = temp.path + "/crashed.keychain"
        try FileManager.default.createDirectory(atPath: crashed, withIntermediateDirectories: true)
        try "secret key".write(toFile: crashed + "/AA.key.pem", atomically: true, encoding: .utf8)
        try "in-use".write(toFile: crashed + ".lock", atomically: true, encoding: .utf8)
        let live = try FileKeychain(name: "live", in: temp.path, password: "p")
        try await live.create()
        let kept = try FileKeychain(name: "kept", in: temp.path, password: "p")
        try await kept.create()
        kept.keepAfterLane()

        let removed = FileKeychain.removeLeftovers(in: temp.path)
        #expect(removed == [crashed])
        #expect(!FileManager.default.fileExists(atPath: crashed))
        #expect(FileManager.default.fileExists(atPath: live.location))
        #expect(FileManager.default.fileExists(atPath: kept.location))
        try await live.delete()
    }
}

/// Finding 22 of issue 10: a keychain name the Lanefile chose badly is a configuration error (78).
@Suite("Keychain error kind", .timeLimit(.minutes(10)))
struct KeychainErrorKindTests {
    @Test func anInvalidKeychainNameIsAConfigurationError() {
        #expect {
            _ = try FileKeychain(name: "../escape", in: "/tmp", password: "p")
        } throws: { error in
            error.lanesKind == .configuration && error.lanesKind.exitStatus == 78
        }
    }
}
