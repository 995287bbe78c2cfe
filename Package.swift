// swift-tools-version: 6.2
import PackageDescription

/// Modules whose `.swiftmodule` a compiled Lanefile loads. They are built with library evolution so
/// that their `internal import`s of C modules and third-party packages stay out of their interfaces:
/// a Lanefile then needs only these module files and the `Lanes` shared library, never libgit2 or OpenSSL headers.
/// Each also gets its `.swiftinterface` (beside the `.swiftmodule`), which `make install` ships: a compiler
/// newer than the one that built lanes (an Xcode update) cannot load the binary module and rebuilds it from that.
let resilient: [SwiftSetting] = [.unsafeFlags(["-enable-library-evolution", "-emit-module-interface"])]

let package = Package(
    name: "lanes",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "lanes", targets: ["LanesDriver"]),
        .executable(name: "lanes-tool", targets: ["LanesCLI"]),
        .library(name: "Lanes", type: .dynamic, targets: ["Lanes"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        .systemLibrary(name: "CGit2", pkgConfig: "libgit2", providers: [.apt(["libgit2-dev"]), .brew(["libgit2"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        .systemLibrary(name: "CLinuxEvents"),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),

        // The only module that names an OS; CLinuxEvents is the daemon's Linux event backend.
        .target(name: "LanesPlatform", dependencies: [.target(name: "CLinuxEvents", condition: .when(platforms: [.linux]))],
                swiftSettings: resilient),
        // One wire format: the Codable event, listing and timestamp records the runner writes and the
        // history reads, a Foundation-free JSON coder for them, and the one JUnit writer.
        .target(name: "LanesWire", dependencies: ["LanesPlatform"], swiftSettings: resilient),
        .target(name: "LanesCron", dependencies: ["LanesPlatform"], swiftSettings: resilient),
        .target(name: "LanesXcode", dependencies: ["LanesPlatform"], swiftSettings: resilient),
        .target(name: "LanesSigning", dependencies: ["COpenSSL", "LanesPlatform"], swiftSettings: resilient),
        // COpenSSL beside CGit2: the shim starts OpenSSL itself, and COpenSSL's pkg-config flags (Homebrew's
        // openssl@3 is keg-only: its -I and -L are found only through its own .pc) then reach this module and
        // every product that links it.
        .target(name: "LanesGit", dependencies: ["CGit2", "COpenSSL", "LanesPlatform"], swiftSettings: resilient),
        // fastlane match storages: the file encryption, the layout, choosing and reading in memory.
        .target(name: "LanesMatch", dependencies: ["LanesSigning", "LanesGit", "LanesPlatform"], swiftSettings: resilient),
        // `lanes daemon`'s core: schedule state and run history in SQLite, due-run decisions on an injected clock.
        .target(name: "LanesSchedule", dependencies: [
            "CSQLite", "LanesCron", "LanesGit", "LanesWire", "LanesPlatform",
        ]),
        .target(name: "LanesBuild", dependencies: ["CZlib", "COpenSSL", "LanesXcode", "LanesSigning", "LanesWire", "LanesPlatform"], swiftSettings: resilient),
        // Uploads: local store, HTTP PUT, S3, Firebase App Distribution, App Store Connect. Its HTTP
        // client needs only OpenSSL, which libLanes already links (no libcurl at lane start).
        .target(name: "CMD5Lanes"),
        // The HTTP/1.1 client on sockets and OpenSSL: TLS, proxies, retries, redirects. Uploads, App
        // Store Connect, notifications and match's storages speak HTTP through it.
        .target(name: "LanesHTTP", dependencies: ["COpenSSL", "LanesPlatform"], swiftSettings: resilient),
        .target(name: "LanesUpload", dependencies: ["COpenSSL", "CMD5Lanes", "LanesHTTP", "LanesPlatform"], swiftSettings: resilient),
        // App Store Connect's REST API (JWT, pages, retries, Apple's errors) over the HTTP client.
        .target(name: "LanesAppStoreConnect", dependencies: ["LanesHTTP", "LanesUpload", "LanesPlatform"], swiftSettings: resilient),
        // The Google Play Developer API (service-account tokens, edits, tracks, listings, resumable uploads) over the HTTP client.
        .target(name: "LanesGooglePlay", dependencies: ["LanesHTTP", "LanesUpload", "LanesPlatform"], swiftSettings: resilient),
        // Steps, their catalog, the runner and the Lanefile DSL: everything but the generated step functions.
        .target(
            name: "LanesRuntime",
            dependencies: [
                "LanesCron", "LanesXcode", "LanesSigning", "LanesGit", "LanesPlatform", "LanesWire", "LanesBuild", "LanesHTTP", "LanesUpload", "LanesAppStoreConnect", "LanesMatch",
                "LanesGooglePlay", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: resilient
        ),
        // The module a Lanefile imports: the runtime re-exported and the step functions StepCodegen writes.
        .target(name: "Lanes", dependencies: ["LanesRuntime", "LanesWire", "LanesCron", "LanesXcode", "LanesSigning", "LanesGit", "LanesBuild", "LanesHTTP", "LanesUpload",
                                              "LanesAppStoreConnect", "LanesMatch", "LanesGooglePlay"],
                swiftSettings: resilient),
        // `lanes doctor`'s checks (toolchain, signing expiry, secrets), shared with the daemon's expiry watch and the web page.
        .target(name: "LanesDoctor", dependencies: ["LanesSigning", "LanesGit", "LanesPlatform"]),
        // The read-only run-history web page: a small HTTP/1.1 server over POSIX sockets.
        .target(name: "LanesWeb", dependencies: ["LanesSchedule", "LanesDoctor", "LanesCron", "LanesPlatform"]),
        // The step reference and the generated Lanefile step functions, from the catalog (`make generate`).
        // It links the runtime, never `Lanes`: the module it writes into may be stale or not compile.
        .target(name: "LanesCodegen", dependencies: ["LanesRuntime"]),
        // `lanes import fastlane`: a Ruby/Swift Fastfile reader and the Lanefile writer, over the fastlane action map.
        .target(name: "LanesImport", dependencies: ["LanesRuntime", "LanesPlatform"]),
        .executableTarget(name: "StepCodegen", dependencies: ["LanesRuntime", "LanesCodegen", "LanesPlatform"], path: "Tools/StepCodegen"),
        // Process running, temporary folders and seeded randomness shared by the test targets.
        .target(name: "LanesTestSupport", dependencies: ["LanesPlatform", "LanesRuntime", "LanesWire"], path: "Tests/LanesTestSupport"),
        // `lanes`: the hot path (find, compile, cache, exec a Lanefile) with no dependency but the C library.
        .executableTarget(name: "LanesDriver", dependencies: ["LanesPlatform"]),
        // Every subcommand of `lanes-tool` (the daemon's composition included), as a library, so that
        // the tests drive them in-process; the executable is a `main` of a few lines.
        .target(
            name: "LanesCommands",
            dependencies: [
                "Lanes", "LanesCodegen", "LanesCron", "LanesXcode", "LanesSigning", "LanesGit", "LanesPlatform", "LanesWire", "LanesSchedule",
                "LanesBuild", "LanesHTTP", "LanesUpload", "LanesAppStoreConnect", "LanesDoctor", "LanesWeb", "LanesImport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Mustache", package: "swift-mustache"),
            ]
        ),
        // `lanes-tool`: every subcommand, exec'd by `lanes`.
        .executableTarget(name: "LanesCLI", dependencies: ["LanesCommands", "LanesPlatform"]),
        .executableTarget(name: "StartupBenchmark", dependencies: ["LanesPlatform"], path: "Benchmarks/StartupBenchmark"),
        .executableTarget(name: "HistoryBenchmark", dependencies: ["LanesPlatform"], path: "Benchmarks/HistoryBenchmark"),
        .executableTarget(name: "LanefileCompileBenchmark", path: "Benchmarks/LanefileCompileBenchmark"),
        .executableTarget(name: "LanefileScaleBenchmark", dependencies: ["LanesPlatform"], path: "Benchmarks/LanefileScaleBenchmark"),
        .executableTarget(name: "CLIBenchmark", dependencies: ["LanesPlatform"], path: "Benchmarks/CLIBenchmark"),
        .executableTarget(name: "PackageStartupBenchmark", dependencies: ["LanesPlatform"], path: "Benchmarks/PackageStartupBenchmark"),

        .executableTarget(name: "SigningBench", dependencies: ["LanesSigning"], path: "Benchmarks/SigningBench"),
        .executableTarget(name: "XcodeBenchmark", dependencies: ["LanesXcode", "LanesPlatform"], path: "Benchmarks/XcodeBenchmark"),
        .executableTarget(name: "CronBenchmark", dependencies: ["LanesCron"], path: "Benchmarks/CronBenchmark", exclude: ["croniter_bench.py"]),
        .executableTarget(name: "CronFuzz", dependencies: ["LanesCron"], path: "Benchmarks/CronFuzz"),
        .executableTarget(name: "ScheduleBenchmark", dependencies: ["LanesSchedule", "LanesCron", "LanesPlatform"], path: "Benchmarks/ScheduleBenchmark"),
        .executableTarget(name: "RedactionBenchmark", dependencies: ["LanesRuntime", "LanesPlatform"], path: "Benchmarks/RedactionBenchmark"),
        .executableTarget(name: "RedactionFuzz", dependencies: ["Lanes"], path: "Benchmarks/RedactionFuzz"),
        .executableTarget(name: "UploadBenchmark", dependencies: ["LanesUpload", "LanesHTTP", "LanesPlatform"], path: "Benchmarks/UploadBenchmark"),
        .executableTarget(name: "GooglePlayUploadBenchmark", dependencies: ["LanesGooglePlay", "LanesHTTP", "LanesUpload", "LanesPlatform"], path: "Benchmarks/GooglePlayUploadBenchmark"),
        .executableTarget(name: "GitBenchmark", dependencies: ["LanesGit", "LanesPlatform"], path: "Benchmarks/GitBenchmark"),
        .executableTarget(name: "BuildLogBenchmark", dependencies: ["LanesBuild", "LanesPlatform"], path: "Benchmarks/BuildLogBenchmark"),
        .executableTarget(name: "ArchiveBenchmark", dependencies: ["LanesBuild", "LanesPlatform"], path: "Benchmarks/ArchiveBenchmark"),
        .executableTarget(name: "ImportBenchmark", dependencies: ["LanesImport"], path: "Benchmarks/ImportBenchmark"),

        .testTarget(name: "LanesCronTests", dependencies: ["LanesTestSupport", "LanesCron", "LanesPlatform"], exclude: ["Fixtures"]),
        .testTarget(name: "LanesXcodeTests", dependencies: ["LanesTestSupport", "LanesXcode", "Lanes", "LanesPlatform"], exclude: ["Fixtures"]),
        .testTarget(name: "LanesSigningTests", dependencies: ["LanesTestSupport", "LanesSigning", "Lanes", "LanesRuntime"], exclude: ["Fixtures"]),
        .testTarget(name: "LanesGitTests", dependencies: ["LanesTestSupport", "LanesGit", "Lanes", "LanesRuntime"]),
        .testTarget(name: "LanesTests", dependencies: ["Lanes", "LanesRuntime", "LanesCodegen", "LanesTestSupport", "LanesPlatform", "LanesWire", "LanesBuild"], exclude: ["Golden"]),
        .testTarget(name: "LanesCLITests", dependencies: ["LanesTestSupport", "Lanes", "LanesCommands", "LanesCLI", "LanesDriver", "LanesPlatform", "LanesWire", "LanesDoctor"], exclude: ["Fixtures", "Golden"]),
        .testTarget(name: "LanesScheduleTests", dependencies: ["LanesTestSupport", "LanesSchedule", "LanesCron", "LanesGit", "LanesPlatform", "LanesWire"]),
        // The scheduler core on a fast clock, for the kill -9 test of LanesScheduleTests.
        .executableTarget(name: "ScheduleCrashHelper", dependencies: ["LanesSchedule", "LanesCron"], path: "Tests/ScheduleCrashHelper"),
        // One entry into OpenSSL first in a fresh process, for the exit test of LanesSigningTests.
        .executableTarget(name: "OpenSSLExitHelper", dependencies: ["COpenSSL", "LanesSigning", "LanesGit", "LanesPlatform"], path: "Tests/OpenSSLExitHelper"),
        .testTarget(name: "LanesBuildTests", dependencies: ["LanesTestSupport", "LanesBuild", "LanesSigning", "LanesPlatform", "LanesWire"], exclude: ["Fixtures"]),
        .testTarget(name: "LanesUploadTests", dependencies: ["LanesTestSupport", "LanesUpload", "LanesHTTP", "LanesPlatform"]),
        .testTarget(name: "LanesAppStoreConnectTests", dependencies: ["LanesTestSupport", "LanesAppStoreConnect", "LanesHTTP", "LanesUpload", "Lanes", "LanesMatch", "LanesSigning", "LanesPlatform"]),
        .testTarget(name: "LanesWebTests", dependencies: ["LanesTestSupport", "LanesWeb", "LanesPlatform", "LanesDoctor", "LanesSchedule", "Lanes", "LanesCron"], exclude: ["Fixtures", "browser_test.py"]),
        .testTarget(name: "LanesImportTests", dependencies: ["LanesTestSupport", "LanesImport", "Lanes"]),
        .testTarget(name: "LanesGooglePlayTests", dependencies: ["LanesTestSupport", "LanesGooglePlay", "LanesHTTP", "LanesUpload", "LanesBuild", "Lanes", "LanesPlatform"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "LanesMatchTests", dependencies: ["LanesTestSupport", "LanesMatch", "LanesSigning", "LanesGit", "LanesHTTP", "LanesUpload", "Lanes", "LanesPlatform"], exclude: ["match_format.py"]),
    ]
)
