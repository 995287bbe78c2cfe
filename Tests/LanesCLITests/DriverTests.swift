import ArgumentParser
import Foundation
import LanesTestSupport
import Testing
@testable import LanesCommands
@testable import LanesDriver

/// The driver's own pieces: its subcommand list and its cache-key hash.
@Suite(.timeLimit(.minutes(10))) struct DriverTests {
    @Test func driverKnowsExactlyTheToolsSubcommands() {
        let toolSubcommands = Set(LanesCommand.configuration.subcommands.map { $0._commandName })
        #expect(DriverCommandLine.subcommands == toolSubcommands)
    }

    @Test func lanesGoToTheDriverAndSubcommandsToTheTool() {
        #expect(!DriverCommandLine.isSubcommand(["developerRelease", "version:1"]))
        #expect(!DriverCommandLine.isSubcommand(["list", "--json"]))
        #expect(DriverCommandLine.isSubcommand(["init"]))
        #expect(DriverCommandLine.isSubcommand([]))
        #expect(DriverCommandLine.isSubcommand(["--help"]))
    }

    @Test(arguments: ["", "abc", String(repeating: "a", count: 55), String(repeating: "b", count: 56),
                      String(repeating: "c", count: 64), String(repeating: "lanes ", count: 1000)])
    func sha256MatchesOpenSSL(input: String) async throws {
        var hash = SHA256()
        hash.update(Array(input.utf8))
        #expect(hash.hexDigest == (try await openSSLDigest(of: input)))
    }

    @Test func sha256KnownVector() {
        var hash = SHA256()
        hash.update(Array("abc".utf8))
        #expect(hash.hexDigest == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// The same digest from the OpenSSL command-line tool, an independent implementation.
    private func openSSLDigest(of text: String) async throws -> String {
        let printed = try await Program.run(["/usr/bin/openssl", "dgst", "-sha256", "-r"], input: Array(text.utf8)).standardOutput
        return String(printed.prefix(64))
    }
}
