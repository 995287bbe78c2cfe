// swift-tools-version: 5.9
// Run by hand (`swift test`) to record what XCTest and Swift Testing print on Linux; see ../README.md.
import PackageDescription

let package = Package(
    name: "TestOutputPackage",
    targets: [
        .target(name: "Brewing"),
        .testTarget(name: "BrewingTests", dependencies: ["Brewing"]),
    ]
)
