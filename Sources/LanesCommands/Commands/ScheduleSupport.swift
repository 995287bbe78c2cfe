import ArgumentParser
import Foundation
import Lanes
import LanesCron
import LanesPlatform
import LanesSchedule
import LanesWire

/// Options of the scheduling commands: which Lanefile, and where its schedule state lives.
struct ProjectScheduleOptions: ParsableArguments {
    @Option(help: "The Lanefile (default: Lanefile.swift in this folder or above).")
    var lanefile: String?

    @Option(name: .customLong("state-dir"),
            help: "Schedule state and run history (env LANES_STATE_DIR; default $XDG_STATE_HOME/lanes/<project>; `.lanes/schedule` keeps it in the project).")
    var stateDirectory: String?

    /// The Lanefile's absolute path.
    func locateLanefile() throws -> String {
        let here = FilePath.currentDirectory()
        if let lanefile {
            let path = FilePath.absolute(lanefile, from: here)
            guard FilePath.exists(path) else { throw LanesError(.configuration, "--lanefile \(lanefile): no such file") }
            return FilePath.realPath(path) ?? path
        }
        guard let found = FilePath.findUpwards("Lanefile.swift", from: here) else {
            throw LanesError(.configuration, "no Lanefile.swift in \(here) or any folder above it",
                             hint: "run `lanes init` to create one, or pass --lanefile PATH")
        }
        return found
    }

    /// The state directory for the project of `lanefile`.
    func stateDirectory(lanefile: String) throws -> String {
        if let stateDirectory { return FilePath.absolute(stateDirectory, from: FilePath.currentDirectory()) }
        do {
            return try HistoryStore.defaultDirectory(projectDirectory: FilePath.directory(of: lanefile), environment: ProcessEnvironment.current())
        } catch {
            throw LanesError(.environment, error.message, hint: "set LANES_STATE_DIR or pass --state-dir")
        }
    }

    /// The history store; readers do not need the Lanefile when `--state-dir` or LANES_STATE_DIR is given.
    func openStore() throws -> HistoryStore {
        let environment = ProcessEnvironment.current()
        let directory: String
        if let stateDirectory {
            directory = FilePath.absolute(stateDirectory, from: FilePath.currentDirectory())
        } else if let fromEnvironment = environment["LANES_STATE_DIR"], !fromEnvironment.isEmpty {
            directory = fromEnvironment
        } else {
            directory = try self.stateDirectory(lanefile: try locateLanefile())
        }
        do {
            let store = try HistoryStore(directory: directory)
            // Runs started by hand or on CI wrote only their events; they join the history now.
            try store.indexOutsideRuns()
            return store
        } catch {
            throw LanesError(.environment, "\(error)")
        }
    }
}

/// Reads the lanes' triggers from the compiled Lanefile (`lanes list --json`, compiled if needed).
enum LanefileTriggers {
    /// The `lanes` driver beside this tool (build folder) or in PREFIX/bin (installed).
    static func driverExecutable() throws -> String {
        let directory = FilePath.directory(of: try FilePath.executable())
        for candidate in [directory + "/lanes", FilePath.directory(of: FilePath.directory(of: directory)) + "/bin/lanes"]
        where FilePath.exists(candidate) {
            return candidate
        }
        throw LanesError(.environment, "cannot find the lanes driver beside \(directory)", hint: "reinstall with `make install`")
    }

    /// The daemon's read: through `host` (the compile may take a while; nothing blocks meanwhile), the
    /// runner's complaints passed on to the host's standard error.
    static func load(lanefile: String, host: any LanesPlatform.Host) async throws -> [TriggerDeclaration] {
        let driver = try driverExecutable()
        let child: HostChild
        do {
            child = try host.spawn(ChildProcess([driver, "--lanefile", lanefile, "list", "--json"], environment: host.environment), input: nil)
        } catch {
            throw LanesError(.environment, error.description)
        }
        var output: [UInt8] = []
        for await chunk in child.output {
            if chunk.stream == .standardOutput { output += chunk.bytes } else { host.standardError.write(chunk.bytes) }
        }
        let status = await child.status()
        guard status == .exited(0) else {
            throw LanesError(.configuration, "\(lanefile) cannot be listed (`lanes list` exited \(status.shellStatus); see the errors above)")
        }
        return try listing(output)
    }

    static func listing(_ output: [UInt8]) throws -> [TriggerDeclaration] {
        do {
            return TriggerDeclaration.lanes(in: try WireDecoder().decode(LaneListingRecord.self, from: output))
        } catch {
            throw LanesError(.internal, "cannot read the lanes the compiled Lanefile listed: \(error)")
        }
    }

    /// `lanes schedule`'s read: the listing kept beside the runner the driver found for `lanefile`
    /// (`RunnerListing`), else `lanes list --json`, which compiles when need be and reports errors.
    static func load(lanefile: String, environment: [String: String]) throws -> [TriggerDeclaration] {
        if let handoff = ProjectHandoff(environment: environment), FilePath.realPath(handoff.lanefile) == FilePath.realPath(lanefile),
           let kept = handoff.keptListing, let declarations = try? listing(kept) {
            return declarations
        }
        let driver = try driverExecutable()
        let (status, output) = try ChildOutput.capture([driver, "--lanefile", lanefile, "list", "--json"], environment: environment)
        guard status == 0 else {
            throw LanesError(.configuration, "\(lanefile) cannot be listed (`lanes list` exited \(status); see the errors above)")
        }
        return try listing(output)
    }
}

/// Runs a program with its standard output captured and its standard error passed through, through
/// the platform's launcher, for the synchronous commands (`doctor`, `serve`, `schedule`).
enum ChildOutput {
    static func capture(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: [UInt8]) {
        var output: [UInt8] = []
        var child = ChildProcess(arguments, environment: environment)
        child.ownProcessGroup = false  // a quick helper: Ctrl-C at the terminal reaches it directly
        do {
            let status = try child.runCapturingOutput(input: nil, started: { _ in }) { stream, bytes in
                if stream == .standardOutput { output.append(contentsOf: bytes) } else { FileDescriptorIO.writeAll(Array(bytes), to: 2) }
            }
            return (status.shellStatus, output)
        } catch {
            throw LanesError(.environment, error.description)
        }
    }
}

/// Time formatting of the scheduling commands.
enum ScheduleFormat {
    /// ISO 8601 with the zone's offset at that instant.
    static func local(_ instant: CronInstant, in zone: any CronTimeZone) -> String {
        instant.iso8601(offset: zone.period(containing: Int64(instant.secondsSince1970.rounded(.down))).offset)
    }

    /// The machine's zone.
    static func machineZone(_ resolver: SystemTimeZoneResolver) -> any CronTimeZone {
        resolver.timeZone(identifier: TimeZone.current.identifier) ?? FixedOffsetTimeZone.utc
    }

    /// Left-aligned columns separated by two spaces.
    static func columns(_ rows: [[String]]) -> String {
        guard let first = rows.first else { return "" }
        let widths = first.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            // The last column is not padded, nor spaces left before it when it is empty (a regex
            // trim here once cost more than the rest of `lanes history`).
            var line = zip(row, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined(separator: "  ")
            while line.last?.isWhitespace == true { line.removeLast() }
            return line
        }.joined(separator: "\n") + "\n"
    }
}
