import Foundation
import LanesTestSupport
import Testing

/// Issue 32: a C module's header search path and `-L` come only from its own pkg-config file. CGit2's
/// shim includes OpenSSL's header and calls it, but libgit2's `.pc` names no OpenSSL flags, and
/// Homebrew's openssl@3 is keg-only: on a Mac a plain `swift build` found neither `openssl/crypto.h`
/// nor `-lcrypto` for the products linking CGit2. So OpenSSL comes from COpenSSL, whose pkg-config
/// flags SwiftPM passes to every target (and product) that depends on it.
@Suite(.timeLimit(.minutes(3))) struct SystemLibraryFlagsTests {
    @Test func everyTargetImportingCGit2AlsoDependsOnCOpenSSL() async throws {
        let dependencies = try await GeneratorDependencyTests.targetDependencies()
        let users = dependencies.filter { $0.value.contains("CGit2") }.keys.sorted()
        #expect(!users.isEmpty)
        for target in users {
            #expect(dependencies[target]?.contains("COpenSSL") == true, "\(target) imports CGit2 without COpenSSL's flags")
        }
    }

    /// The OpenSSL libraries are linked through COpenSSL's module map, not named again by CGit2's (whose
    /// pkg-config file cannot say where they are).
    @Test func cgit2LinksNoOpenSSLLibraryOfItsOwn() throws {
        let root = LanesCommandLine.repositoryRoot.appendingPathComponent("Sources")
        let map = try String(contentsOf: root.appendingPathComponent("CGit2/module.modulemap"), encoding: .utf8)
        #expect(!map.contains(#"link "crypto""#) && !map.contains(#"link "ssl""#), "\(map)")
        let openSSL = try String(contentsOf: root.appendingPathComponent("COpenSSL/module.modulemap"), encoding: .utf8)
        #expect(openSSL.contains(#"link "crypto""#))
    }
}
