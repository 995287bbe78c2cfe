// swift-tools-version: 6.0
import PackageDescription

// A step package for lanes: `sentry_upload_dsym`, as fastlane's Sentry plugin has it. It declares no
// Lanes dependency: lanes builds it for a Lanefile against its installed Lanes module and sets
// LANES_PACKAGE_BUILD. Built alone (`swift test`), it finds that module at $LANES_HOME/Modules, or
// in this checkout's .build/debug.
let lanesHome = Context.environment["LANES_HOME"] ?? Context.packageDirectory + "/../../.build/debug"
let modules = Context.environment["LANES_HOME"].map { $0 + "/Modules" } ?? lanesHome + "/Modules"
let standalone = Context.environment["LANES_PACKAGE_BUILD"] == nil

let package = Package(
    name: "SentrySteps",
    // lanes' modules are built for macOS 15: a target importing Lanes needs at least that.
    platforms: [.macOS(.v15)],
    products: [.library(name: "SentrySteps", targets: ["SentrySteps"])],
    targets: [
        .target(
            name: "SentrySteps",
            swiftSettings: standalone ? [.unsafeFlags(["-I", modules])] : [],
            linkerSettings: standalone ? [.unsafeFlags(["-L", lanesHome, "-lLanes", "-Xlinker", "-rpath", "-Xlinker", lanesHome])] : []),
        .testTarget(name: "SentryStepsTests", dependencies: ["SentrySteps"],
                    swiftSettings: standalone ? [.unsafeFlags(["-I", modules])] : []),
    ]
)
