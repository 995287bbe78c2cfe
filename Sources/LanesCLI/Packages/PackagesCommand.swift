import ArgumentParser
import Lanes
import LanesPlatform

/// `lanes packages`: the Swift packages a Lanefile depends on (`lanes/Package.swift`).
struct PackagesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "packages", abstract: "The Swift packages a Lanefile depends on (lanes/Package.swift).",
        subcommands: [PackagesBuildCommand.self])
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

    func run() throws {
        try PackageBuilder(manifest: manifest, scratch: scratch, output: output, modulesDirectory: modules,
                           libraryDirectory: library, swiftc: swiftc).build()
    }
}
