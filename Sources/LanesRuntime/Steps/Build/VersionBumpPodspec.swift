import LanesBuild
internal import LanesPlatform

/// The part of a podspec version `version_bump_podspec` raises: fastlane's action takes patch (its
/// default), minor or major, not increment_version_number's `bump`.
public enum PodspecBumpType: String, Sendable, CaseIterable, OptionValue {
    case patch, minor, major
}

/// `version_bump_podspec`: raises (or sets) the version a podspec holds, by fastlane's rules
/// (`PodspecVersion`); returns the new version, fastlane's `PODSPEC_VERSION_NUMBER`.
public struct VersionBumpPodspec: Step {
    public typealias Output = String

    public static let definition = StepDefinition(
        id: "version_bump_podspec",
        summary: "Raise the version of a podspec by a patch, minor or major step, or set it; returns the new version",
        category: .build,
        examples: [StepExample(swift: #"let version = try await versionBumpPodspec(path: "Brewer.podspec", bumpType: .minor)"#,
                               commandLine: ["path:Brewer.podspec", "bump_type:minor"]),
                   StepExample(swift: #"try await versionBumpPodspec(path: "Brewer.podspec", versionNumber: "2.0.0")"#,
                               commandLine: ["path:Brewer.podspec", "version_number:2.0.0"])]
    )

    @StepOption("path", "The podspec; default: the last *.podspec of the Lanefile's folder, by name, as fastlane's Dir[\"*.podspec\"].last",
                fastlaneEnv: ["FL_VERSION_BUMP_PODSPEC_PATH"])
    var path: String?
    @StepOption("bump_type", "patch, minor or major", fastlaneEnv: ["FL_VERSION_BUMP_PODSPEC_BUMP_TYPE"], default: .patch)
    var bumpType: PodspecBumpType
    @StepOption("version_number", "Set this version instead of raising the current one (wins over version_appendix and bump_type)",
                fastlaneEnv: ["FL_VERSION_BUMP_PODSPEC_VERSION_NUMBER"])
    var versionNumber: String?
    @StepOption("version_appendix", "Replace what follows MAJOR.MINOR.PATCH (1.4.14.4.1 with 5 gives 1.4.14.5; wins over bump_type)",
                fastlaneEnv: ["FL_VERSION_BUMP_PODSPEC_VERSION_APPENDIX"])
    var versionAppendix: String?
    @StepOption("require_variable_prefix", "Read only `<name>.version = ...` (false: also `version = ...` of a plain Ruby file)",
                fastlaneEnv: ["FL_VERSION_BUMP_PODSPEC_VERSION_REQUIRE_VARIABLE_PREFIX"], default: true)
    var requireVariablePrefix: Bool

    public init() {}

    public func run(in context: StepContext) async throws -> String {
        let step = Self.definition.id
        let file = context.resolve(try podspecPath(in: context))
        guard FilePath.exists(file), !FilePath.isDirectory(file) else {
            throw LanesError(.configuration, "\(step): could not find podspec file at path \(file)",
                             hint: "pass path: (FL_VERSION_BUMP_PODSPEC_PATH), relative to the Lanefile's folder")
        }
        let text: String
        do { text = try FilePath.read(file) } catch { throw LanesError(.configuration, "\(step): cannot read \(file): \(error)") }
        do {
            let podspec = try PodspecVersion(text: text, requireVariablePrefix: requireVariablePrefix)
            let next: String
            if let versionNumber {
                next = versionNumber
            } else if let versionAppendix {
                next = try podspec.withAppendix(versionAppendix)
            } else {
                next = try podspec.bumped(PodspecVersion.Bump(rawValue: bumpType.rawValue) ?? .patch)
            }
            do { try AtomicFile.write(podspec.updated(to: next), to: file) } catch { throw LanesError(.laneFailure, "\(step): \(error)") }
            context.log.line("\(file): version \(podspec.value) -> \(next)")
            return next
        } catch let failure as PodspecVersion.Failure {
            throw LanesError(.configuration, "\(step): \(file): \(failure)",
                             hint: requireVariablePrefix ? "a version outside a podspec may need require_variable_prefix: false" : nil)
        }
    }

    /// The given path, else fastlane's default: the last `*.podspec` of the folder by name.
    private func podspecPath(in context: StepContext) throws -> String {
        if let path { return path }
        let podspecs = FilePath.entries(of: context.projectDirectory).filter { $0.hasSuffix(".podspec") && !$0.hasPrefix(".") }.sorted()
        guard let last = podspecs.last else {
            throw LanesError(.configuration, "\(Self.definition.id): no path given and no *.podspec in \(context.projectDirectory)",
                             hint: "pass path: (FL_VERSION_BUMP_PODSPEC_PATH)")
        }
        return last
    }
}
