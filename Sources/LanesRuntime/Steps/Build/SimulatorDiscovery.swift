import LanesBuild
import Synchronization
// JSONSerialization (simctl's output) is Foundation's.
internal import Foundation

/// scan's default simulator when the lane names none (scan/lib/scan/detect_values.rb,
/// `detect_simulator`): from `xcrun simctl list -j devices available`, the simulators of the
/// scheme's platform whose OS is at least the deployment target, runtimes oldest first as simctl
/// lists them; the first one is used, by id (`platform=iOS Simulator,id=UDID`).
enum SimulatorDiscovery {
    struct Simulator: Equatable {
        let name: String
        let udid: String
        let osVersion: String
    }

    static func defaultDestination(platform: SchemePlatform, context: StepContext, step: String) async throws -> TestDestination {
        let runtimeName: String
        switch platform.platform {
        case .macOS: return TestDestination(specifier: "platform=macOS")
        case .iOS: runtimeName = "iOS"
        case .tvOS: runtimeName = "tvOS"
        case .visionOS: runtimeName = "xrOS"
        case .watchOS: runtimeName = "watchOS"
        }
        let lines = Mutex<[String]>([])
        let outcome = try await context.processes.run(ProcessRequest(["xcrun", "simctl", "list", "-j", "devices", "available"])) { line in
            lines.withLock { $0.append(line) }
        }
        let text = lines.withLock { $0.joined(separator: "\n") }
        guard outcome.succeeded else {
            throw LanesError(.environment, "\(step): xcrun simctl list failed, so no simulator could be chosen",
                             hint: "pass devices: or destination:; simctl said: \(text.suffix(200))")
        }
        let simulators = parse(text, runtime: runtimeName).filter { isAtLeast($0.osVersion, platform.deploymentTarget ?? "0") }
        guard let chosen = simulators.first else {
            throw LanesError(.environment, "\(step): no \(runtimeName) simulator at or above \(platform.deploymentTarget ?? "any version") is available",
                             hint: "install one in Xcode, or pass devices: or destination:")
        }
        context.log.line("using simulator \(chosen.name) (\(runtimeName) \(chosen.osVersion)), as scan chooses when no device is given")
        let simulatorPlatform = platform.platform == .visionOS ? "visionOS Simulator" : "\(platform.platform.rawValue) Simulator"
        return TestDestination(specifier: "platform=\(simulatorPlatform),id=\(chosen.udid)")
    }

    /// The available simulators of `runtime` (`iOS`, `tvOS`...), oldest runtime first.
    static func parse(_ json: String, runtime: String) -> [Simulator] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let devices = object["devices"] as? [String: Any] else { return [] }
        let prefix = "com.apple.CoreSimulator.SimRuntime.\(runtime)-"
        let runtimes = devices.keys.filter { $0.hasPrefix(prefix) }
            .map { (key: $0, version: String($0.dropFirst(prefix.count)).replacing("-", with: ".")) }
            .sorted { isAtLeast($1.version, $0.version) && $0.version != $1.version }
        return runtimes.flatMap { runtime -> [Simulator] in
            (devices[runtime.key] as? [[String: Any]] ?? []).compactMap { device in
                guard device["isAvailable"] as? Bool ?? true, let name = device["name"] as? String, let udid = device["udid"] as? String else { return nil }
                return Simulator(name: name, udid: udid, osVersion: runtime.version)
            }
        }
    }

    /// Whether dotted version `version` is at least `minimum`.
    static func isAtLeast(_ version: String, _ minimum: String) -> Bool {
        let left = version.split(separator: ".").map { Int($0) ?? 0 }, right = minimum.split(separator: ".").map { Int($0) ?? 0 }
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0, b = index < right.count ? right[index] : 0
            if a != b { return a > b }
        }
        return true
    }
}
