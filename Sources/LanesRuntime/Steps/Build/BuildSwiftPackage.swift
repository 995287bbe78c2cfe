import LanesBuild
import LanesGit
#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import LanesPlatform

/// `build_swift_package`: `swift build -c release --product NAME` in a package folder, then a
/// tar.gz of the product with a manifest (name, version, commit, sha256, size, build time).
public struct BuildSwiftPackage: Step {
    public typealias Output = PackedArtifact

    public static let definition = StepDefinition(
        id: "build_swift_package",
        summary: "Build a Swift package product in release and pack it with a manifest (tar.gz)",
        category: .build,
        examples: [
            StepExample(swift: #"let artifact = try await buildSwiftPackage(product: "brewer", packagePath: "Example/Brewer", version: "1.4.0")"#,
                        commandLine: ["product:brewer", "package_path:Example/Brewer", "version:1.4.0"]),
        ]
    )

    @StepOption("product", "The product to build", env: "LANES_PRODUCT")
    var product: String
    @StepOption("package_path", "The package folder", default: ".")
    var packagePath: String
    @StepOption("configuration", "debug or release", default: "release")
    var configuration: String
    @StepOption("version", "The version the manifest records (default: the last tag, else 0.0.0)", env: "LANES_VERSION")
    var version: String?
    @StepOption("output_directory", "Where the artifact and its manifest go", default: "build")
    var outputDirectory: String

    public init() {}

    public var banner: String { "swift build -c \(configuration) --product \(product) in \(packagePath)" }

    public func run(in context: StepContext) async throws -> PackedArtifact {
        let folder = context.resolve(packagePath)
        let build = try await BuildToolRun(context: context, label: "build_swift_package")
            .run(SwiftPackageCommand.build(product: product, configuration: configuration, packagePath: folder))
        guard build.outcome.succeeded else {
            throw BuildToolFailure(tool: "swift build", summary: build.summary, outcome: build.outcome, logPath: build.logPath)
        }
        let binPath = try await BuildToolRun(context: context, label: "build_swift_package-bin-path")
            .run(SwiftPackageCommand.showBinPath(configuration: configuration, packagePath: folder))
        guard binPath.outcome.succeeded, let binaries = binPath.lastLine else {
            throw LanesError(.laneFailure, "swift build --show-bin-path gave no folder", hint: "full log: \(binPath.logPath)")
        }
        let repository = try? Repository(discoveringFrom: folder)
        let commit = (try? repository?.head().commit?.description) ?? nil
        let tag = (try? repository?.lastTag(matching: nil)) ?? nil
        let artifactVersion = version ?? tag.map { $0.hasPrefix("v") ? String($0.dropFirst()) : $0 } ?? "0.0.0"
        let packed = try ArtifactPacker.pack(
            name: product, version: artifactVersion, commit: commit ?? "unknown",
            entries: [ArtifactEntry(sourcePath: "\(binaries)/\(product)", archiveName: "\(product)/bin/\(product)", containingFolder: binaries)],
            outputDirectory: context.resolve(outputDirectory), buildTimeSecondsSince1970: Int(Date().timeIntervalSince1970))
        context.log.line("packed \(packed.artifactPath) (\(packed.manifest.size) bytes, sha256 \(packed.manifest.sha256)); manifest \(packed.manifestPath)")
        context.values[BuiltArtifact.self] = packed
        return packed
    }
}

/// The artifact the lane packed last, for `upload`.
public enum BuiltArtifact: LaneValueKey {
    public typealias Value = PackedArtifact
}

extension PackedArtifact: ReportableResult {
    public var report: StepResultReport {
        StepResultReport(
            lines: ["artifact: \(artifactPath)", "manifest: \(manifestPath)", "version \(manifest.version), commit \(manifest.commit)",
                    "sha256 \(manifest.sha256), \(manifest.size) bytes"],
            json: .object([("artifact", .string(artifactPath)), ("manifest", .string(manifestPath)), ("name", .string(manifest.name)),
                           ("version", .string(manifest.version)), ("commit", .string(manifest.commit)),
                           ("sha256", .string(manifest.sha256)), ("size", .number(Double(manifest.size)))]))
    }
}
