import ArgumentParser
import Synchronization
import Foundation
import Lanes
import LanesDoctor
import LanesPlatform
import LanesSchedule
import LanesWeb

/// `lanes serve`: the run history as a read-only web site, without a daemon.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the run history, schedules and signing health as a read-only web page.",
        discussion: """
            Binds to 127.0.0.1 unless --http names another address. Every request needs the token \
            (Authorization: Bearer TOKEN, or the lanes_token cookie the printed sign-in address sets): \
            \(AccessPolicy.tokenVariable), else the one kept in the state folder's \(WebToken.fileName) (0600); \
            off loopback \(AccessPolicy.tokenVariable) is required. \
            Pages: / (schedules), /history, /runs/ID, /signing; JSON under /api/.
            """)

    @OptionGroup var project: ProjectScheduleOptions

    @Option(help: "Address to listen on: HOST:PORT or PORT (port 0 picks a free one).")
    var http = "127.0.0.1:7340"

    @Option(help: "Also read .env.NAME for the certificate passwords the signing page checks.")
    var env: String?

    @Option(name: .customLong("warning-days"), help: "Signing material expiring within this many days is a warning.")
    var warningDays = 30

    func run() throws {
        guard let address = ListenAddress(parsing: http) else {
            throw LanesError(.usage, "--http '\(http)' is not HOST:PORT with an IPv4 address, such as 127.0.0.1:7340")
        }
        // A read-only server has nothing to clean up: SIGINT and SIGTERM end it at once, even when
        // the parent started it with those signals blocked (a mask survives exec).
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        for number in [SIGINT, SIGTERM, SIGHUP] {
            sigaddset(&stopSignals, number)
            signal(number, SIG_DFL)
        }
        pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
        let environment = ProcessEnvironment.current()
        let site = try WebSite(project: project, environment: environment, environmentName: env, warningDays: warningDays)
        let errors = TextOutput.standardError(Redactor())
        let access = try WebAccess.policy(address: address, stateDirectory: site.stateDirectory, environment: environment,
                                          report: { errors.writeLine("lanes serve: \($0)") })
        let application = WebApplication(data: site.source, access: access)
        let server: HTTPServer
        do {
            server = try HTTPServer(listeningOn: address, report: { errors.writeLine("lanes serve: \($0)") }, handler: application.handle)
        } catch {
            throw LanesError(.environment, error.description)
        }
        errors.writeLine("lanes serve: http://\(server.address)/ (history in \(site.stateDirectory))")
        // For the owner's eyes: this terminal is theirs. The daemon, whose output may go to a
        // shared log, names the token's file instead.
        errors.writeLine("lanes serve: sign a browser in once with \(access.loginURL(serverAddress: server.address))")
        // It returns only when the listening socket broke: never a silent exit 0.
        do { try server.run() } catch { throw LanesError(.environment, "lanes serve stopped: \(error.description)") }
    }
}

/// The data behind the site, for `lanes serve` and `lanes daemon --http`: the history in the state
/// folder, the schedules and signing health from the compiled Lanefile (none without a Lanefile).
struct WebSite {
    let stateDirectory: String
    let source: HistoryDatabaseSource

    init(project: ProjectScheduleOptions, environment: [String: String], environmentName: String?, warningDays: Int) throws {
        let lanefile = try? project.locateLanefile()
        if let lanefile {
            stateDirectory = try project.stateDirectory(lanefile: lanefile)
        } else if let fromEnvironment = environment["LANES_STATE_DIR"], !fromEnvironment.isEmpty {
            stateDirectory = fromEnvironment
        } else if let directory = project.stateDirectory {
            stateDirectory = FilePath.absolute(directory, from: FilePath.currentDirectory())
        } else {
            throw LanesError(.configuration, "no Lanefile.swift here or above, and no --state-dir or LANES_STATE_DIR",
                             hint: "run in the project, or pass --state-dir to the daemon's state folder")
        }
        let inspection = lanefile.map { ProjectInspection(lanefile: $0, environment: environment) }
        let variables = try lanefile.map {
            try DotEnvFiles.load(directory: FilePath.directory(of: $0), environmentName: environmentName, over: environment)
        } ?? environment
        let checkup = SigningCheckup(warningDays: warningDays)
        // A Lanefile that stops compiling (mid-edit) leaves the page showing what was last known,
        // as the daemon keeps running its last good version, instead of an error page. What is
        // known starts with what the Lanefile said when the page started, before any request.
        let schedules = LastKnown<[LaneScheduleView]>()
        let material = LastKnown<[SigningMaterial]>()
        _ = try? schedules.refresh { try inspection?.schedules() ?? [] }
        _ = try? material.refresh { try inspection?.signingMaterial() ?? [] }
        source = HistoryDatabaseSource(
            stateDirectory: stateDirectory,
            schedules: { try schedules.refresh { try inspection?.schedules() ?? [] } },
            signingHealth: {
                try material.refresh { try inspection?.signingMaterial() ?? [] }.map { checkup.check($0, variables: variables, at: Date()) }
            })
    }
}

/// The token the page requires: `LANES_WEB_TOKEN` when set, else the one kept in the state folder.
enum WebAccess {
    static func policy(address: ListenAddress, stateDirectory: String, environment: [String: String],
                       report: (String) -> Void) throws -> AccessPolicy {
        do {
            if let given = environment[AccessPolicy.tokenVariable], !given.isEmpty {
                return try AccessPolicy(address: address, token: given)
            }
            let kept = try WebToken.loadOrCreate(stateDirectory: stateDirectory)
            if kept.replacedExposed {
                report("\(kept.path) could be read by others; it now holds a new token (browsers must sign in again)")
            }
            return try AccessPolicy(address: address, token: kept.token, explicit: false)
        } catch {
            throw LanesError(.configuration, error.description)
        }
    }
}

/// The last value a loader gave: a failing load returns it (the failure is not shown again and
/// again); only a loader that never worked throws.
final class LastKnown<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)

    func refresh(_ load: () throws -> Value) throws -> Value {
        do {
            let fresh = try load()
            value.withLock { $0 = fresh }
            return fresh
        } catch {
            if let known = value.withLock({ $0 }) { return known }
            throw error
        }
    }
}
