// swift-tools-version: 5.9
// The Lanefile's dependencies: an ordinary SwiftPM manifest. lanes builds them once, pins them in
// Package.resolved beside this file, and links them into the compiled Lanefile.
import PackageDescription

let package = Package(
    name: "Lanefile",
    dependencies: [
        .package(path: "../../SentrySteps"),
        // From a git server at a version: .package(url: "https://git.example.com/ios/sentry-steps.git", from: "1.0.0"),
    ]
)
