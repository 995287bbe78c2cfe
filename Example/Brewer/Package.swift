// swift-tools-version: 6.2
import PackageDescription

// Brewer, the bundled example app's portable core: what lanes' demo builds and tests on Linux.
// A package of its own (no dependencies), separate from lanes' Package.swift two folders up.
let package = Package(
    name: "Brewer",
    products: [
        .library(name: "BrewerKit", targets: ["BrewerKit"]),
        .executable(name: "brewer", targets: ["brewer"]),
    ],
    targets: [
        .target(name: "BrewerKit"),
        .executableTarget(name: "brewer", dependencies: ["BrewerKit"]),
        .testTarget(name: "BrewerKitTests", dependencies: ["BrewerKit"]),
    ]
)
