@testable import LanesImport
import Testing

/// Issue 33: fastlane's `download_dsyms` and `match_nuke` import as the steps of the same names
/// (they ran through `fastlane run` before), with fastlane's option names and values.
@Suite(.timeLimit(.minutes(3))) struct SymbolsAndNukeImportTests {
    @Test func downloadDsymsAndMatchNukeBecomeTheirSteps() {
        let result = FastlaneImporter.importRuby("""
            lane :refresh_dsyms do
              download_dsyms(version: "latest", wait_for_dsym_processing: true, wait_timeout: 600, username: "me@example.com")
            end
            lane :one_build do
              download_dsyms(version: "1.0.1", build_number: 42)
            end
            lane :reset_signing do
              match_nuke(type: "development", skip_confirmation: true)
            end
            """, configuration: FastlaneConfiguration())
        #expect(result.lanefile.contains(#"try await downloadDsyms(version: "latest", waitForDsymProcessing: true, waitTimeout: 600)"#), "\(result.lanefile)")
        // fastlane's own example passes the build number as an integer.
        #expect(result.lanefile.contains(#"try await downloadDsyms(version: "1.0.1", buildNumber: String(42))"#), "\(result.lanefile)")
        #expect(result.lanefile.contains("try await matchNuke(type: .development, skipConfirmation: true)"), "\(result.lanefile)")
        #expect(!result.lanefile.contains("fastlane run"), "\(result.lanefile)")
        #expect(result.report.actions.map(\.action) == ["download_dsyms", "download_dsyms", "match_nuke"])
        #expect(result.report.actions.allSatisfy { $0.outcome == .step }, "\(result.report.actions)")
    }
}
