import Foundation
import LanesPlatform
import Testing
@testable import LanesRuntime

/// Issue 31: SIGHUP stops a lane as SIGTERM does, unless lanes was started with it ignored
/// (`nohup`), which asks for the lane to outlive the terminal.
@Suite(.timeLimit(.minutes(3))) struct HangupSignalTests {
    @Test func sighupIsAStopSignalUnlessItWasIgnoredAtStart() {
        #expect(InterruptibleTask.stopSignals(hangupIgnored: false) == [SIGINT, SIGTERM, SIGHUP])
        #expect(InterruptibleTask.stopSignals(hangupIgnored: true) == [SIGINT, SIGTERM])
    }

    /// SIGWINCH's default action is to do nothing, so the test process loses nothing while it is
    /// ignored for a moment.
    @Test func anIgnoredSignalIsSeenAsIgnored() throws {
        #expect(!SignalHandler.isIgnored(SIGWINCH))
        SignalHandler.install(SIGWINCH, try #require(SIG_IGN))
        #expect(SignalHandler.isIgnored(SIGWINCH))
        SignalHandler.restoreDefaults([SIGWINCH])
        #expect(!SignalHandler.isIgnored(SIGWINCH))
    }
}
