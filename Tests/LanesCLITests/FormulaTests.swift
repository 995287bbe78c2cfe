import Foundation
import LanesTestSupport
import Testing

/// Issue 32: `brew install --HEAD` builds the repository the formula belongs to (it built a placeholder
/// URL). Homebrew taps a local clone by cloning it into its taps folder and loads the formula from
/// there: the same is done here, the formula is evaluated by Ruby against a stand-in for Homebrew's
/// `Formula` DSL, and its `head` is cloned as Homebrew's git download would.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct FormulaTests {
    static let ruby = ["/usr/bin/ruby", "/usr/local/bin/ruby"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The formula's `head` URL and options, as Homebrew's DSL receives them.
    static let readHead = """
        class Formula
          def self.head(url, **options) = puts([url, options[:using]].join("\\n"))
          def self.test(*) = nil
          def self.method_missing(*) = nil
          def self.respond_to_missing?(*) = true
        end
        load ARGV[0]

        """

    /// The repository's committed formula (a clone sees commits only), as the tap would hold it.
    @Test(.enabled(if: ruby != nil, "needs ruby"))
    func headBuildsTheTappedRepository() async throws {
        let work = LanesCommandLine.temporaryDirectory("formula")
        defer { try? FileManager.default.removeItem(at: work) }
        let tap = work.appendingPathComponent("Taps/lanes/homebrew-lanes")
        let root = LanesCommandLine.repositoryRoot.path
        let tapped = try await Program.streams(["git", "clone", "-q", root, tap.path], in: work.path)
        try #require(tapped.status == 0, "\(tapped.error)")

        let script = work.appendingPathComponent("read-head.rb")
        try Self.readHead.write(to: script, atomically: true, encoding: .utf8)
        let read = try await Program.streams([try #require(Self.ruby), script.path, tap.appendingPathComponent("Formula/lanes.rb").path], in: work.path)
        try #require(read.status == 0, "\(read.error)")
        let lines = read.output.split(separator: "\n").map(String.init)
        #expect(lines == ["file://" + tap.path, "git"], "\(lines)")

        let fetched = work.appendingPathComponent("head")
        let cloned = try await Program.streams(["git", "clone", "-q", try #require(lines.first), fetched.path], in: work.path)
        try #require(cloned.status == 0, "\(cloned.error)")
        let head = try await Program.streams(["git", "-C", fetched.path, "rev-parse", "HEAD"]).output
        #expect(head == (try await Program.streams(["git", "-C", tap.path, "rev-parse", "HEAD"]).output))
        #expect(FileManager.default.fileExists(atPath: fetched.appendingPathComponent("Package.swift").path))
    }
}
