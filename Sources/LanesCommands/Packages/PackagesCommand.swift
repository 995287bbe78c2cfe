import ArgumentParser
import Foundation
import Lanes
import LanesPlatform

/// `lanes packages`: the Swift packages a Lanefile depends on (`lanes/Package.swift`).
struct PackagesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "packages", abstract: "The Swift packages a Lanefile depends on (lanes/Package.swift).",
        subcommands: [PackagesUpdateCommand.self, PackagesBuildCommand.self])
}

/// What the driver runs when the packages' key is new; it names the folders, so this is plumbing.
struct PackagesBuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Resolve and build a Lanefile's packages into one library (the lanes driver runs this when they change).",
        shouldDisplay: false)

    @Option(help: "The Lanefile's lanes/Package.swift.") var manifest: String
    @Option(help: "SwiftPM's working folder, kept between builds.") var scratch: String
    @Option(help: "Where to put lib/ and Modules/.") var output: String
    @Option(help: "The folder of Lanes.swiftmodule.") var modules: String
    @Option(help: "The folder of libLanes.") var library: String
    @Option(help: "The Swift compiler the Lanefile is compiled with.") var swiftc: String
    @Flag(help: "A static library, for a libLanes that carries the Swift runtime.") var `static` = false

    func run() throws {
        try PackageBuilder(manifest: manifest, scratch: scratch, output: output, modulesDirectory: modules,
                           libraryDirectory: library, swiftc: swiftc, staticLibrary: `static`).build()
    }
}

/// `lanes packages update`: the newest versions the requirements allow. The pins are set aside and
/// the Lanefile compiled (which resolves and builds); when that fails, the pins are put back.
struct PackagesUpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Take the newest versions lanes/Package.swift allows, build them, and pin them in lanes/Package.resolved.")

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let handoff = ProjectHandoff(environment: environment) else {
            throw LanesError(.configuration, "no Lanefile.swift in this folder or above", hint: "run it where lanes LANE runs")
        }
        let folder = FilePath.directory(of: handoff.lanefile) + "/lanes"
        guard FilePath.exists(folder + "/Package.swift") else {
            throw LanesError(.configuration, "\(handoff.lanefile) has no lanes/Package.swift, so no packages to update")
        }
        let pins = folder + "/Package.resolved"
        let previous = FileManager.default.contents(atPath: pins)
        try? FileManager.default.removeItem(atPath: pins)
        let driver = try LanefileTriggers.driverExecutable()
        let (status, _) = try ChildOutput.capture([driver, "--lanefile", handoff.lanefile, "list", "--names"], environment: environment)
        guard status == 0 else {
            if let previous { try AtomicFile.write(Array(previous), to: pins) }
            throw LanesError(.configuration, "the update did not build (see above); lanes/Package.resolved is as it was")
        }
        let before = Self.versions(previous)
        let after = Self.versions(FileManager.default.contents(atPath: pins))
        let output = TextOutput.standardOutput(Redactor())
        for (identity, version) in after.sorted(by: { $0.key < $1.key }) {
            let old = before[identity]
            output.write(old == version ? "\(identity) \(version)\n" : "\(identity) \(old ?? "(new)") -> \(version)\n")
        }
    }

    /// Identity to version (or revision) from a Package.resolved.
    static func versions(_ data: Data?) -> [String: String] {
        guard let data, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        var result: [String: String] = [:]
        for pin in object["pins"] as? [[String: Any]] ?? [] {
            guard let identity = pin["identity"] as? String, let state = pin["state"] as? [String: Any] else { continue }
            result[identity] = state["version"] as? String ?? (state["revision"] as? String).map { String($0.prefix(12)) } ?? "?"
        }
        return result
    }
}
