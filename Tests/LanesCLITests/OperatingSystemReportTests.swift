@testable import LanesCommands
import Testing

/// Issue 32: `lanes env` names the OS release. macOS has no /etc/os-release; its release comes from
/// `sw_vers`, whose output (macOS 15) is recorded here as the tool prints it: a name, a colon, tabs.
@Suite(.timeLimit(.minutes(3))) struct OperatingSystemReportTests {
    @Test func macOSComesFromSwVers() {
        let recorded = "ProductName:\t\tmacOS\nProductVersion:\t\t15.6\nBuildVersion:\t\t24G84\n"
        #expect(EnvReport.macOSRelease(swVers: recorded) == "macOS 15.6 (24G84)")
        #expect(EnvReport.macOSRelease(swVers: "ProductName:\tmacOS\nProductVersion:\t26.0\n") == "macOS 26.0")
        #expect(EnvReport.macOSRelease(swVers: "sw_vers: unknown option\n") == nil)
    }

    @Test func linuxComesFromOSRelease() {
        let recorded = "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian GNU/Linux\"\nVERSION_ID=\"12\"\n"
        #expect(EnvReport.linuxRelease(osRelease: recorded) == "Debian GNU/Linux 12 (bookworm)")
        #expect(EnvReport.linuxRelease(osRelease: "NAME=Alpine\n") == nil)
    }
}
