import Foundation
import Lanes
import LanesDoctor
import LanesPlatform
import LanesSchedule
import LanesWeb

/// What `lanes daemon` adds for issue 15: the web page (`--http`) and the daily signing expiry
/// watch, each on a thread of its own so the daemon's loop stays as it is. Started after the daemon
/// blocked its signals, so these threads never take SIGTERM from it.
enum DaemonWatch {
    /// Serves the site on `address` until the process ends.
    static func startServer(_ http: String, site: WebSite, environment: [String: String], report: @escaping @Sendable (String) -> Void) throws {
        guard let address = ListenAddress(parsing: http) else {
            throw LanesError(.usage, "--http '\(http)' is not HOST:PORT with an IPv4 address, such as 127.0.0.1:7340")
        }
        let access = try WebAccess.policy(address: address, stateDirectory: site.stateDirectory, environment: environment, report: report)
        let application = WebApplication(data: site.source, access: access)
        let server: HTTPServer
        do { server = try HTTPServer(listeningOn: address, report: report, handler: application.handle) } catch {
            throw LanesError(.environment, error.description)
        }
        // The daemon's output may go to a log others read: it names where the token is, not the token.
        let tokenSource = (environment[AccessPolicy.tokenVariable] ?? "").isEmpty
            ? "\(site.stateDirectory)/\(WebToken.fileName)" : "$\(AccessPolicy.tokenVariable)"
        report("serving the history on http://\(server.address)/ (sign a browser in once with http://\(server.address)\(AccessPolicy.loginPath)?token=TOKEN, the token in \(tokenSource))")
        Thread.detachNewThread {
            do { try server.run() } catch { report("the history page stopped: \(error); the daemon keeps scheduling") }
        }
    }

    /// Checks the Lanefile's signing material now and then whenever the last check is a day old;
    /// the result goes to `signing-watch.json` in the state folder.
    static func startSigningWatch(_ watch: SigningWatch, inspection: ProjectInspection, variables: [String: String],
                                  warningDays: Int) {
        Thread.detachNewThread {
            let errors = TextOutput.standardError(Redactor())
            func report(_ text: String) { errors.writeLine("lanes daemon: \(text)") }
            while true {
                if watch.isDue(at: Date()) {
                    do {
                        let record = try watch.checkIfDue(try inspection.signingMaterial(), checkup: SigningCheckup(warningDays: warningDays),
                                                          variables: variables, at: Date())
                        for finding in record.health.flatMap(\.findings) where finding.severity != .ok {
                            report("signing \(finding.severity.rawValue): \(finding.subject): \(finding.message)")
                        }
                    } catch {
                        report("the signing expiry check failed: \(error)")
                    }
                }
                Thread.sleep(forTimeInterval: 3600)
            }
        }
    }
}

/// Refuses to start a run while the last expiry check found expired signing material; the daemon
/// then records the run failed with that reason, before any build starts (`--fail-on-expired-signing`).
struct SigningGatedLauncher: RunLauncher {
    let inner: any RunLauncher
    let watch: SigningWatch

    func start(_ run: PlannedRun, logPath: String) throws -> Int32 {
        if let note = watch.latest().flatMap({ SigningWatch.expiredMaterial(in: $0.health) }) {
            throw LanesError(.configuration, note)
        }
        return try inner.start(run, logPath: logPath)
    }
}
