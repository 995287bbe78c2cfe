// swift-tools-version: 5.9
// A tiny package that LanesBuildTests builds for real with `swift build -c release --product hello`.
import PackageDescription

let package = Package(
    name: "HelloTool",
    products: [.executable(name: "hello", targets: ["hello"])],
    targets: [.executableTarget(name: "hello")]
)
