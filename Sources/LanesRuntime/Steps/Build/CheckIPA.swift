import LanesBuild
#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import LanesPlatform

/// `check_ipa`: reads an .ipa (Info.plist, embedded profile) and refuses it when its bundle
/// identifier is not the configuration's, or it does not embed the profile the lane installed.
public struct CheckIPA: Step {
    public typealias Output = IPAInspection

    public static let definition = StepDefinition(
        id: "check_ipa",
        summary: "Check an .ipa's bundle identifier and embedded profile before it ships",
        category: .build,
        examples: [StepExample(swift: #"try await checkIpa(path: "build/Brewer.ipa", appIdentifier: "works.sth.brewer.staging")"#,
                               commandLine: ["path:build/Brewer.ipa", "app_identifier:works.sth.brewer.staging"])]
    )

    @StepOption("path", "The .ipa (default: the one build_app made in this lane)")
    var path: String?
    @StepOption("app_identifier", "The bundle identifier the .ipa must have", env: "APP_IDENTIFIER")
    var appIdentifier: String
    @StepOption("profile_uuid", "The profile it must embed (default: the one install_provisioning_profile installed)")
    var profileUUID: String?

    public init() {}

    public func run(in context: StepContext) async throws -> IPAInspection {
        guard let ipa = path.map(context.resolve) ?? context.values[BuiltAppValue.self]?.ipaPath else {
            throw LanesError(.usage, "check_ipa: no .ipa given and none built in this lane", hint: "path:build/App.ipa")
        }
        let inspection = try IPAInspector.inspect(path: ipa)
        let profile = profileUUID ?? context.values[InstalledSigningProfile.self]?.uuid
        try IPAInspector.check(inspection, appIdentifier: appIdentifier, profileUUID: profile, now: Date())
        context.log.line("\(ipa): \(inspection.bundleIdentifier) \(inspection.version ?? "?") (\(inspection.build ?? "?"))"
                         + (inspection.profile.map { ", embeds profile \($0.name) (\($0.uuid))" } ?? ", no embedded profile"))
        return inspection
    }
}

extension IPAInspection: ReportableResult {
    public var report: StepResultReport {
        StepResultReport(
            lines: ["ipa: \(path)", "bundle: \(bundleIdentifier) \(version ?? "?") (\(build ?? "?"))",
                    "profile: " + (profile.map { "\($0.name) (\($0.uuid)), team \($0.teamIdentifier ?? "none")" } ?? "(none)")],
            json: .object([("ipa", .string(path)), ("bundle_identifier", .string(bundleIdentifier)),
                           ("version", version.map(JSONValue.string) ?? .null), ("build", build.map(JSONValue.string) ?? .null),
                           ("profile_uuid", profile.map { .string($0.uuid) } ?? .null)]))
    }
}
