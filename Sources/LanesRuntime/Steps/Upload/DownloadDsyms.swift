#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesAppStoreConnect
import LanesUpload
internal import LanesPlatform

/// The dSYM zips `download_dsyms` wrote in this lane (fastlane's lane_context `DSYM_PATHS`), in
/// the order they were written.
public enum DownloadedDSYMPaths: LaneValueKey {
    public typealias Value = [String]
}

/// `download_dsyms` (fastlane's action of the same name, fastlane/actions/download_dsyms.rb): the
/// dSYMs App Store Connect keeps for an app's builds, written as `<bundle id>-<version>-<build>.dSYM.zip`.
///
/// As fastlane does it: the builds of `platform` newest upload first (`GET /v1/builds` with
/// `include=preReleaseVersion,buildBundles`), narrowed by `version` (`latest`: the newest build;
/// `live`: the build of the version on sale), `build_number`, `min_version` and
/// `after_uploaded_date` (the walk stops at the first build uploaded at or before it); each build
/// bundle that includes symbols gives its `dSYMUrl`. With `wait_for_dsym_processing`, a build whose
/// dSYMs are not ready is read again every 30 seconds until `wait_timeout`. Apple's public API has
/// no other dSYM endpoint: the URL is a build bundle's attribute, fetched without the API token.
public struct DownloadDsyms: Step {
    public typealias Output = DownloadedDSYMs

    public static let definition = StepDefinition(
        id: "download_dsyms",
        summary: "Download the dSYMs App Store Connect keeps for an app's builds",
        category: .upload,
        examples: [StepExample(swift: #"let dsyms = try await downloadDsyms(appIdentifier: "com.example.brewer", version: "1.4.0", buildNumber: "42")"#,
                               commandLine: ["app_identifier:com.example.brewer", "version:latest", "output_directory:build/dsyms"],
                               environment: [AppStoreConnectKey.Variable.keyID, AppStoreConnectKey.Variable.issuerID, AppStoreConnectKey.Variable.key])],
        ignoredOptions: [
            "username": "lanes signs in to App Store Connect with an API key only (app_store_connect_api_key; see docs/appstore.md)",
            "team_id": "an API key belongs to one team (team_id only picks the team of an Apple ID)",
            "team_name": "an API key belongs to one team",
        ],
        needsAppStoreConnectKey: true
    )

    @StepOption("app_identifier", "The app's bundle id (default: the lane's Configuration's)", env: "APP_IDENTIFIER",
                fastlaneEnv: ["DOWNLOAD_DSYMS_APP_IDENTIFIER"], appfile: .appIdentifier)
    var appIdentifier: String?
    @StepOption("platform", "ios, appletvos, osx or xros", env: "DOWNLOAD_DSYMS_PLATFORM", default: "ios")
    var platform: String
    @StepOption("version", "Only builds of this version; latest: the newest build's, live: the version on sale's", env: "DOWNLOAD_DSYMS_VERSION")
    var version: String?
    @StepOption("build_number", "Only the build with this number", env: "DOWNLOAD_DSYMS_BUILD_NUMBER")
    var buildNumber: String?
    @StepOption("min_version", "Only versions at or above this one", env: "DOWNLOAD_DSYMS_MIN_VERSION")
    var minVersion: String?
    @StepOption("after_uploaded_date", "Only builds uploaded after this ISO 8601 date", env: "DOWNLOAD_DSYMS_AFTER_UPLOADED_DATE")
    var afterUploadedDate: String?
    @StepOption("output_directory", "Where the zips go (default: the Lanefile's folder)", env: "DOWNLOAD_DSYMS_OUTPUT_DIRECTORY")
    var outputDirectory: String?
    @StepOption("wait_for_dsym_processing", "Wait for dSYMs Apple is still making", env: "DOWNLOAD_DSYMS_WAIT_FOR_DSYM_PROCESSING", default: false)
    var waitForDsymProcessing: Bool
    @StepOption("wait_timeout", "Seconds to wait for them", env: "DOWNLOAD_DSYMS_WAIT_TIMEOUT", default: 300)
    var waitTimeout: Int

    public init() {}

    /// fastlane looks again every 30 seconds.
    static let pollInterval: Duration = .seconds(30)
    /// A dSYM zip is read into memory before its atomic write; a larger one is refused, not half-written.
    static let maximumZipBytes = 2 << 30

    public var banner: String { "Download dSYMs of \(appIdentifier ?? "the app")\(version.map { " \($0)" } ?? "")\(buildNumber.map { " (\($0))" } ?? "")" }

    public func run(in context: StepContext) async throws -> DownloadedDSYMs {
        let step = Self.definition.id
        let platform = try appStorePlatform(platform, step: step)
        let minimum = try minVersion.map { try Self.versionFields($0, option: "min_version") }
        let after = try afterUploadedDate.map { text in
            guard let date = Self.date(text) else {
                throw LanesError(.usage, "\(step): after_uploaded_date \(text) is not an ISO 8601 date (DOWNLOAD_DSYMS_AFTER_UPLOADED_DATE)",
                                 hint: "write it as fastlane's example does: 2020-09-11T19:00:00+01:00")
            }
            return date
        }
        guard let bundleID = appIdentifier else {
            throw LanesError(.usage, "\(step): no app_identifier (the bundle id) given", hint: "pass app_identifier:, or set APP_IDENTIFIER or DOWNLOAD_DSYMS_APP_IDENTIFIER")
        }
        let client = try context.appStoreConnect()
        let appID = try await client.app(bundleID: bundleID).id
        var version = self.version
        var buildNumber = self.buildNumber
        if version == "latest" {
            context.log.line("looking for the latest build...")
            guard let latest = try await client.buildSymbols(appID: appID, platform: platform, version: nil, buildNumber: nil, first: true).first else {
                throw LanesError(.configuration, "\(step): App Store Connect has no build of \(bundleID) for platform \(platform.rawValue)")
            }
            (version, buildNumber) = (latest.appVersion, latest.buildNumber)
        } else if version == "live" {
            context.log.line("looking for the live version...")
            guard let live = try await client.appStoreBuildNumber(appID: appID, live: true, version: nil, platform: platform) else {
                throw LanesError(.configuration, "\(step): \(bundleID) has no live App Store version on \(platform.rawValue)",
                                 hint: "pass version:latest or a version number")
            }
            (version, buildNumber) = (live.version, live.build)
        }
        // fastlane drops leading zeros (1.02 is 1.2).
        version = version.map { Self.versionFields($0).map(String.init).joined(separator: ".") }
        context.log.line("looking for dSYM files for '\(bundleID)' on platform \(platform.rawValue)"
                         + (version.map { " v\($0)" } ?? "") + (buildNumber.map { " (\($0))" } ?? ""))

        let directory = outputDirectory.map(context.resolve) ?? context.projectDirectory
        var written: [String] = []
        var latestUpload: String?
        for build in try await client.buildSymbols(appID: appID, platform: platform, version: version, buildNumber: buildNumber) {
            if let version, build.appVersion != version { continue }
            if let minimum, Self.isOrderedBefore(Self.versionFields(build.appVersion ?? "0"), minimum) { continue }
            if let after, let uploaded = build.uploadedDate.flatMap(Self.date), uploaded <= after {
                // Newest first: every later build was uploaded earlier still.
                break
            }
            if let buildNumber, build.buildNumber != buildNumber { continue }
            let ready = try await processed(build, client: client, context: context)
            let urls = ready.symbolBundles.compactMap { bundle in bundle.dSYMURL.map { (bundle, $0) } }
            guard !urls.isEmpty else {
                context.log.line("no dSYM URL for \(ready.buildNumber ?? "?") (\(ready.appVersion ?? "?"))")
                continue
            }
            for (bundle, url) in urls {
                let bytes = try await client.downloadSymbols(url, maximumBytes: Self.maximumZipBytes)
                // The app's own bundle gets fastlane's name; an App Clip's or extension's bundle its own id.
                let name = "\(bundle.bundleIdentifier ?? bundleID)-\(ready.appVersion ?? "")-\(ready.buildNumber ?? "").dSYM.zip"
                let path = directory + "/" + name
                do {
                    try FilePath.makeDirectories(directory)
                    try AtomicFile.write(bytes, to: path)
                } catch {
                    throw LanesError(.environment, "\(step): cannot write \(path) (output_directory, DOWNLOAD_DSYMS_OUTPUT_DIRECTORY): \(error)")
                }
                context.log.line("downloaded the dSYM of \(ready.appVersion ?? "?") (\(ready.buildNumber ?? "?")) to \(path)")
                written.append(path)
                if let uploaded = ready.uploadedDate, Self.isLater(uploaded, than: latestUpload) { latestUpload = uploaded }
            }
        }
        if written.isEmpty { context.log.line("no dSYM found on App Store Connect") }
        context.values[DownloadedDSYMPaths.self] = (context.values[DownloadedDSYMPaths.self] ?? []) + written
        return DownloadedDSYMs(paths: written, latestUploadedDate: latestUpload)
    }

    /// The build once every bundle with symbols has its URL, or as it is when not waiting or the wait ran out.
    private func processed(_ build: BuildSymbols, client: AppStoreConnectClient, context: StepContext) async throws -> BuildSymbols {
        var build = build
        let start = context.host.now()
        while !build.isProcessed {
            guard waitForDsymProcessing, context.host.now() - start <= .seconds(waitTimeout) else {
                context.log.line("could not find every dSYM of \(build.buildNumber ?? "?") (\(build.appVersion ?? "?")): Apple has not made them yet")
                break
            }
            context.log.line("waiting for the dSYMs of \(build.buildNumber ?? "?") (\(build.appVersion ?? "?")) to appear...")
            try await context.host.sleep(for: Self.pollInterval)
            build = try await client.buildSymbols(buildID: build.buildID)
        }
        return build
    }

    /// A version's numeric fields as RubyGems compares them (fastlane's `Gem::Version`); a field
    /// that is not a number counts as its leading digits.
    static func versionFields(_ text: String) -> [Int] {
        text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0.prefix(while: \.isNumber)) ?? 0 }
    }

    static func versionFields(_ text: String, option: String) throws -> [Int] {
        guard text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else {
            throw LanesError(.usage, "download_dsyms: \(option) \(text) is not a version such as 1.2.3 (DOWNLOAD_DSYMS_MIN_VERSION)")
        }
        return versionFields(text)
    }

    /// Trailing zero fields do not count (1.2 is 1.2.0).
    static func isOrderedBefore(_ left: [Int], _ right: [Int]) -> Bool {
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0, b = index < right.count ? right[index] : 0
            if a != b { return a < b }
        }
        return false
    }

    static func isLater(_ date: String, than other: String?) -> Bool {
        guard let other else { return true }
        guard let a = Self.date(date), let b = Self.date(other) else { return date > other }
        return a > b
    }

    /// An ISO 8601 date and time, with or without fractional seconds; a bare date is its midnight UTC.
    static func date(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        return try? Date(text + "T00:00:00Z", strategy: .iso8601)
    }
}

/// What `download_dsyms` wrote: fastlane's `DSYM_PATHS` and `DSYM_LATEST_UPLOADED_DATE`.
public struct DownloadedDSYMs: Sendable, ReportableResult {
    public let paths: [String]
    /// The newest upload date of the builds whose dSYMs were written (App Store Connect's text).
    public let latestUploadedDate: String?

    public var report: StepResultReport {
        StepResultReport(lines: paths.isEmpty ? ["no dSYM downloaded"] : paths,
                         json: .object([("dsym_paths", .array(paths.map(JSONValue.string))),
                                        ("latest_uploaded_date", latestUploadedDate.map(JSONValue.string) ?? .null)]))
    }
}
