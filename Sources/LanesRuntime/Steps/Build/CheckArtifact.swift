import LanesBuild

/// `check_artifact`: the artifact `build_swift_package` packed (or any with a manifest) still has
/// the size and SHA-256 its manifest records, so what ships is what was built.
public struct CheckArtifact: Step {
    public typealias Output = ArtifactManifest

    public static let definition = StepDefinition(
        id: "check_artifact",
        summary: "Check an artifact's size and SHA-256 against its manifest before it ships",
        category: .build,
        examples: [StepExample(swift: #"try await checkArtifact(manifest: "build/brewer-1.4.0.manifest.json", name: "brewer")"#,
                               commandLine: ["manifest:build/brewer-1.4.0.manifest.json", "name:brewer"])]
    )

    @StepOption("manifest", "The manifest JSON (default: the one build_swift_package wrote in this lane)")
    var manifest: String?
    @StepOption("name", "The product name the manifest must record")
    var name: String?

    public init() {}

    public func run(in context: StepContext) async throws -> ArtifactManifest {
        guard let path = manifest.map(context.resolve) ?? context.values[BuiltArtifact.self]?.manifestPath else {
            throw LanesError(.usage, "check_artifact: no manifest given and none packed in this lane", hint: "manifest:build/NAME-VERSION.manifest.json")
        }
        let checked = try ArtifactCheck.verify(manifestPath: path, expectedName: name)
        context.log.line("\(checked.file): \(checked.size) bytes, SHA-256 \(checked.sha256) as the manifest records (\(checked.name) \(checked.version), commit \(checked.commit))")
        return checked
    }
}

extension ArtifactManifest: ReportableResult {
    public var report: StepResultReport {
        StepResultReport(lines: ["\(file): \(name) \(version), commit \(commit), \(size) bytes, sha256 \(sha256)"],
                         json: .object([("file", .string(file)), ("name", .string(name)), ("version", .string(version)),
                                        ("commit", .string(commit)), ("sha256", .string(sha256)), ("size", .number(Double(size)))]))
    }
}
