import Testing
@testable import SentrySteps
import Lanes

/// The step's declaration as lanes reads it: the token is a secret, so lanes refuses it on a command line.
@Suite struct SentryUploadDSYMTests {
    @Test func declaresItsOptionsLikeLanesOwnSteps() {
        let info = SentryUploadDSYM.info
        #expect(info.id == "sentry_upload_dsym")
        #expect(info.options.first { $0.name == "auth_token" }?.isSecret == true)
        #expect(info.options.first { $0.name == "path" }?.environmentVariable == "SENTRY_DSYM_PATH")
    }
}
