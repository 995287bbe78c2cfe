import Foundation
import Lanes
import LanesCron
import LanesDoctor
import LanesPlatform
import LanesSchedule
import LanesWeb
import LanesWire

/// What `lanes doctor` and `lanes serve` read from the compiled Lanefile: the lanes' declared
/// variables and secrets (`lanes list --json`), the signing declaration (`lanes list signing --json`)
/// and the schedules (as `lanes schedule` resolves them).
struct ProjectInspection {
    let lanefile: String
    let environment: [String: String]

    var projectDirectory: String { FilePath.directory(of: lanefile) }

    /// A lane of the listing (`LanesWire.LaneListingRecord`): its name and the names it needs.
    typealias DeclaredLane = LaneListingRecord.Lane

    struct SigningListing: Decodable {
        struct Entry: Decodable {
            let name: String
            let certificate: String
            let provisioningProfile: String
            let appIdentifier: String
        }

        let folder: String
        let trust: String?
        let certificatePassword: String
        let configurations: [Entry]
    }

    func declaredLanes() throws -> [DeclaredLane] {
        try decode(LaneListingRecord.self, from: list(["list", "--json"]), what: "lanes").lanes
    }

    /// The signing material of every configuration `CodeSigning` names, paths resolved against the project.
    func signingMaterial() throws -> [SigningMaterial] {
        guard let listing = try decode(SigningListing?.self, from: list(["list", "signing", "--json"]), what: "signing declaration") else {
            return []
        }
        let folder = FilePath.absolute(listing.folder, from: projectDirectory)
        let trust = listing.trust.map { FilePath.absolute($0, from: projectDirectory) }
        return listing.configurations.map { entry in
            SigningMaterial(configuration: entry.name, certificatePath: "\(folder)/\(entry.certificate).p12",
                            passwordVariable: listing.certificatePassword,
                            profilePath: "\(folder)/\(entry.provisioningProfile).mobileprovision", trustPath: trust,
                            appIdentifier: entry.appIdentifier)
        }
    }

    /// Every scheduled lane with its next `count` fire times.
    func schedules(count: Int = 5, from start: CronInstant = SystemCronClock().now()) throws -> [LaneScheduleView] {
        let resolver = SystemTimeZoneResolver()
        let machineZone = ScheduleFormat.machineZone(resolver)
        return try LanefileTriggers.load(lanefile: lanefile, environment: environment).filter(\.isScheduled).map { declaration in
            let entry = try ScheduleEntry(declaration, resolver: resolver, machineZone: machineZone, from: start, count: count)
            return LaneScheduleView(lane: entry.lane, seed: entry.seed, triggers: entry.triggers.map { trigger in
                LaneScheduleView.Trigger(kind: trigger.kind, spec: trigger.spec, resolved: trigger.resolved,
                                         timeZone: trigger.zone, next: trigger.next)
            })
        }
    }

    private func list(_ arguments: [String]) throws -> [UInt8] {
        let driver = try LanefileTriggers.driverExecutable()
        let (status, output) = try ChildOutput.capture([driver, "--lanefile", lanefile] + arguments, environment: environment)
        guard status == 0 else {
            throw LanesError(.configuration, "\(lanefile) cannot be listed (`lanes \(arguments.joined(separator: " "))` exited \(status); see the errors above)")
        }
        return output
    }

    private func decode<Value: Decodable>(_ type: Value.Type, from output: [UInt8], what: String) throws -> Value {
        do { return try JSONDecoder().decode(type, from: Data(output)) } catch {
            throw LanesError(.internal, "cannot read the \(what) the compiled Lanefile listed: \(error)")
        }
    }
}
