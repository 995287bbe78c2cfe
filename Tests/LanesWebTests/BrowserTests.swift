import Foundation
import LanesTestSupport
import Testing

/// The pages in a real browser: headless Chromium driven by Selenium (`browser_test.py`), against
/// `lanes serve` on real runs. Screenshots land in `.build/web-screenshots/`.
/// Needs Debian's chromium and chromium-driver and PyPI's selenium (`make test-deps` installs them).
@Suite struct BrowserTests {
    static let available = FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")
        && (try? runTool(["python3", "-c", "import selenium; print('selenium-ok')"]))?.contains("selenium-ok") == true

    @Test(.enabled(if: available, "needs chromium, chromium-driver and selenium (make test-deps)"))
    func everyPageAndTheLiveLogInHeadlessChromium() throws {
        let project = try WebProject()
        let compile = try project.lanes(["list"])
        try #require(compile.status == 0, "\(compile.output)")
        try project.run("build", commit: "feedfacecafebeef0000")
        let failed = try project.run("broken")
        try project.run("broken")
        try project.run("build", trigger: .manual)
        let server = try WebProject.Server(project: project)
        defer { server.stop() }
        let release = project.directory.appendingPathComponent("release")
        let live = try project.start("slow")
        // The script releases the lane once it has seen lines arrive; this waits and records the end.
        let recorder = Thread { _ = try? live.wait() }
        recorder.start()
        defer {
            FileManager.default.createFile(atPath: release.path, contents: nil)
            live.process.waitUntilExit()
        }
        let shots = LanesProcess.repositoryRoot.appendingPathComponent(".build/web-screenshots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let script = LanesProcess.repositoryRoot.appendingPathComponent("Tests/LanesWebTests/browser_test.py").path
        let output = try runTool(["python3", script, server.baseURL, String(failed), String(live.id), release.path, shots.path,
                                  server.loginURL])
        #expect(!output.contains("FAILED"), "\(output)")
        #expect(output.contains("ok: the last line arrived"), "\(output)")
        #expect(output.contains("ok: signing: the expired profile"), "\(output)")
        for name in ["live-running", "live-finished", "schedules", "history", "run-failed", "signing"] {
            #expect(FileManager.default.fileExists(atPath: shots.appendingPathComponent("\(name).png").path), "\(name).png")
        }
    }
}
