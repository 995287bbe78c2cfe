import Foundation
import Lanes
import LanesPlatform
import LanesWire

/// The lanes of the project's Lanefile as its compiled runner lists them (`list --json`): names,
/// descriptions, option and variable names. Never values, so nothing here can carry a secret.
struct ProjectLanes {
    struct LaneDescription: Equatable {
        let name: String
        let description: String
        let environment: [String]
        let secrets: [String]
    }

    let lanes: [LaneDescription]

    /// The listing kept beside the cached runner of `handoff` (`RunnerListing`), else what the runner
    /// lists when run; nil when it is not compiled. A runner that fails (a bad schedule, say) is an
    /// error naming the Lanefile.
    static func load(_ handoff: ProjectHandoff) throws -> ProjectLanes? {
        guard let runner = handoff.runner else { return nil }
        if let kept = handoff.keptListing, let listing = try? WireDecoder().decode(LaneListingRecord.self, from: kept) {
            return ProjectLanes(listing)
        }
        var child = ChildProcess([runner, "--project-dir", FilePath.directory(of: handoff.lanefile), "list", "--json"])
        child.ownProcessGroup = false  // quick: Ctrl-C at the terminal reaches it directly
        var data = Data(), errors = Data()
        let status: WaitStatus
        do {
            status = try child.runCapturingOutput(input: nil, started: { _ in }) { stream, bytes in
                if stream == .standardOutput { data.append(contentsOf: bytes) } else { errors.append(contentsOf: bytes) }
            }
        } catch {
            throw LanesError(.environment, error.description)
        }
        let message = String(decoding: errors, as: UTF8.self)
        guard status == .exited(0) else {
            throw LanesError(.configuration, "\(handoff.lanefile): \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        do {
            return ProjectLanes(try WireDecoder().decode(LaneListingRecord.self, from: Array(data)))
        } catch {
            throw LanesError(.internal, "the runner of \(handoff.lanefile) listed its lanes in an unexpected form: \(error)")
        }
    }

    init(_ listing: LaneListingRecord) {
        lanes = listing.lanes.map {
            LaneDescription(name: $0.name, description: $0.description, environment: $0.environment, secrets: $0.secrets)
        }
    }
}
