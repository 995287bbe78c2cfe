import LanesUpload
import LanesHTTP

/// What `upload_to_testflight` does after the upload, in fastlane pilot's order: wait for processing,
/// answer the export-compliance question, set "What to Test", expire older builds, add the build to
/// groups, and for external testers submit it to beta app review.
public struct TestFlightDistribution: Sendable {
    public var changelog: [String: String]
    public var groups: [String]
    public var distributeExternal: Bool
    /// pilot's `notify_external_testers`: the build's `buildBetaDetails.autoNotifyEnabled`; nil leaves App Store Connect's default (notify).
    public var notifyExternalTesters: Bool?
    public var usesNonExemptEncryption: Bool?
    public var expirePreviousBuilds: Bool
    public var betaAppReviewInfo: [String: String]
    public var waitForProcessing: Bool
    public var pollInterval: Double
    /// How long processing may take before the step fails (seconds).
    public var processingTimeout: Double

    public init(changelog: [String: String] = [:], groups: [String] = [], distributeExternal: Bool = false, notifyExternalTesters: Bool? = nil,
                usesNonExemptEncryption: Bool? = nil, expirePreviousBuilds: Bool = false, betaAppReviewInfo: [String: String] = [:],
                waitForProcessing: Bool = true, pollInterval: Double = 30, processingTimeout: Double = 3600) {
        self.changelog = changelog
        self.groups = groups
        self.distributeExternal = distributeExternal
        self.notifyExternalTesters = notifyExternalTesters
        self.usesNonExemptEncryption = usesNonExemptEncryption
        self.expirePreviousBuilds = expirePreviousBuilds
        self.betaAppReviewInfo = betaAppReviewInfo
        self.waitForProcessing = waitForProcessing
        self.pollInterval = pollInterval
        self.processingTimeout = processingTimeout
    }

    /// Whether anything needs the processed build.
    public var needsBuild: Bool {
        !changelog.isEmpty || !groups.isEmpty || distributeExternal || usesNonExemptEncryption != nil || expirePreviousBuilds || notifyExternalTesters != nil
    }

    /// fastlane's `beta_app_review_info` keys, mapped to Apple's attribute names.
    public static let reviewInfoKeys: [String: String] = [
        "contact_email": "contactEmail", "contact_first_name": "contactFirstName", "contact_last_name": "contactLastName",
        "contact_phone": "contactPhone", "demo_account_name": "demoAccountName", "demo_account_password": "demoAccountPassword",
        "demo_account_required": "demoAccountRequired", "notes": "notes",
    ]
}

/// What happened to the build, for the step's result.
public struct TestFlightOutcome: Sendable {
    public var buildID: String?
    public var processingState: String?
    public var localizedLocales: [String] = []
    public var groups: [String] = []
    public var expiredBuilds: Int = 0
    public var submittedForReview = false
    /// The `autoNotifyEnabled` set on the build, when `notify_external_testers` was given.
    public var autoNotify: Bool?
}

struct BuildBetaDetailAttributes: Decodable, Sendable {
    let autoNotifyEnabled: Bool?
    let externalBuildState: String?
}

extension AppStoreConnectClient {
    /// Polls until the build with this version and number exists and is no longer PROCESSING, or
    /// `timeout` seconds pass. Every wait is `sleeper`'s (Task.sleep), so cancelling the task ends it.
    /// With `uploadID`, a build not listed yet is looked for in its build upload, whose FAILED state
    /// carries Apple's reasons.
    public func waitForBuild(appID: String, version: String, buildNumber: String, platform: AppStorePlatform?, uploadID: String? = nil,
                             pollInterval: Double, timeout: Double, waitForProcessing: Bool,
                             progress: @Sendable (String) -> Void) async throws -> Build {
        var waited = 0.0
        while true {
            let found = try await builds(appID: appID, version: version, platform: platform, buildNumber: buildNumber).first
            if found == nil, let uploadID { _ = try await buildUploadState(uploadID, version: version, buildNumber: buildNumber) }
            let state = found?.attributes?.processingState
            if let found {
                switch state {
                case "VALID": return found
                case "FAILED", "INVALID":
                    throw UploadError(.transfer, "App Store Connect: build \(version) (\(buildNumber)) is \(state ?? "?") after processing",
                                      hint: "App Store Connect's email to the account holder says why")
                default: if !waitForProcessing { return found }
                }
            }
            guard waited + pollInterval <= timeout else {
                throw UploadError(.transfer, "App Store Connect: build \(version) (\(buildNumber)) was \(found == nil ? "not listed" : "still \(state ?? "PROCESSING")") after \(Int(waited)) s",
                                  hint: "raise processing_timeout, or pass skip_waiting_for_build_processing:true")
            }
            progress("build \(version) (\(buildNumber)): \(found == nil ? "not listed yet" : state ?? "PROCESSING"); next look in \(Int(pollInterval)) s")
            try await pause(pollInterval)
            waited += pollInterval
        }
    }

    /// Applies `distribution` to the processed build.
    public func distribute(build: Build, appID: String, version: String, platform: AppStorePlatform?, _ distribution: TestFlightDistribution,
                           progress: @Sendable (String) -> Void) async throws -> TestFlightOutcome {
        var outcome = TestFlightOutcome(buildID: build.id, processingState: build.attributes?.processingState)
        if let encryption = distribution.usesNonExemptEncryption, build.attributes?.usesNonExemptEncryption == nil {
            struct Attributes: Encodable, Sendable { let usesNonExemptEncryption: Bool }
            try await send("PATCH", "/v1/builds/\(build.id)",
                           body: Request(type: "builds", id: build.id, attributes: Attributes(usesNonExemptEncryption: encryption)))
            progress("export compliance: usesNonExemptEncryption=\(encryption)")
        }
        if !distribution.changelog.isEmpty {
            let existing = try await getAll("/v1/betaBuildLocalizations", query: [("filter[build]", build.id), ("limit", "200")],
                                            as: Resource<BetaBuildLocalizationAttributes>.self)
            // pilot's "default": the text of every locale the build has that is not named.
            var texts = distribution.changelog
            if let fallback = texts.removeValue(forKey: "default") {
                for locale in existing.compactMap({ $0.attributes?.locale }) where texts[locale] == nil { texts[locale] = fallback }
            }
            for locale in texts.keys.sorted() {
                let text = texts[locale] ?? ""
                if let current = existing.first(where: { $0.attributes?.locale == locale }) {
                    struct Attributes: Encodable, Sendable { let whatsNew: String }
                    try await send("PATCH", "/v1/betaBuildLocalizations/\(current.id)",
                                   body: Request(type: "betaBuildLocalizations", id: current.id, attributes: Attributes(whatsNew: text)))
                } else {
                    struct Attributes: Encodable, Sendable { let whatsNew: String; let locale: String }
                    try await send("POST", "/v1/betaBuildLocalizations",
                                   body: Request(type: "betaBuildLocalizations", attributes: Attributes(whatsNew: text, locale: locale),
                                                 relationships: ["build": ToOne(data: Linkage(type: "builds", id: build.id))]))
                }
                outcome.localizedLocales.append(locale)
            }
            progress("What to Test set for \(outcome.localizedLocales.joined(separator: ", "))")
        }
        // Before the build reaches any group, as pilot does: a build added to an external group with
        // auto-notify on has already emailed its testers.
        if let notify = distribution.notifyExternalTesters {
            let detail = try await get("/v1/builds/\(build.id)/buildBetaDetail", as: Document<Resource<BuildBetaDetailAttributes>>.self).data
            if detail.attributes?.autoNotifyEnabled != notify {
                struct Attributes: Encodable, Sendable { let autoNotifyEnabled: Bool }
                try await send("PATCH", "/v1/buildBetaDetails/\(detail.id)",
                               body: Request(type: "buildBetaDetails", id: detail.id, attributes: Attributes(autoNotifyEnabled: notify)))
            }
            outcome.autoNotify = notify
            progress(notify ? "external testers are emailed when the build is available" : "external testers are not emailed about this build (autoNotifyEnabled=false)")
        }
        if distribution.expirePreviousBuilds {
            let older = try await builds(appID: appID, platform: platform).filter { $0.id != build.id && $0.attributes?.expired == false }
            for old in older {
                struct Attributes: Encodable, Sendable { let expired: Bool }
                try await send("PATCH", "/v1/builds/\(old.id)", body: Request(type: "builds", id: old.id, attributes: Attributes(expired: true)))
            }
            outcome.expiredBuilds = older.count
            progress("expired \(older.count) earlier build(s)")
        }
        if !distribution.groups.isEmpty {
            let all = try await getAll("/v1/apps/\(appID)/betaGroups", query: [("limit", "200")], as: Resource<BetaGroupAttributes>.self)
            for name in distribution.groups {
                guard let group = all.first(where: { $0.attributes?.name == name }) else {
                    let known = all.compactMap { $0.attributes?.name }.sorted().joined(separator: ", ")
                    throw UploadError(.configuration, "App Store Connect: the app has no beta group named \(name)",
                                      hint: "groups: names one of \(known.isEmpty ? "(no groups)" : known)")
                }
                if group.attributes?.isInternalGroup == true, !distribution.distributeExternal {
                    // Internal groups see every build already when they have access to all builds; linking is still allowed.
                }
                try await send("POST", "/v1/betaGroups/\(group.id)/relationships/builds", body: ToMany(data: [Linkage(type: "builds", id: build.id)]))
                outcome.groups.append(name)
            }
            progress("added to \(outcome.groups.joined(separator: ", "))")
        }
        if distribution.distributeExternal {
            if !distribution.betaAppReviewInfo.isEmpty {
                try await send("PATCH", "/v1/betaAppReviewDetails/\(appID)",
                               body: Request(type: "betaAppReviewDetails", id: appID, attributes: ReviewDetail(distribution.betaAppReviewInfo)))
            }
            try await send("POST", "/v1/betaAppReviewSubmissions",
                           body: Request<NoAttributes>(type: "betaAppReviewSubmissions", attributes: nil,
                                                       relationships: ["build": ToOne(data: Linkage(type: "builds", id: build.id))]))
            outcome.submittedForReview = true
            progress("submitted for beta app review")
        }
        return outcome
    }

}

/// `beta_app_review_info` as Apple's attributes; `demo_account_required` is a boolean.
struct ReviewDetail: Encodable, Sendable {
    let values: [String: String]

    init(_ info: [String: String]) { values = info }

    struct Key: CodingKey {
        var stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let name = TestFlightDistribution.reviewInfoKeys[key] else { continue }
            if name == "demoAccountRequired" {
                try container.encode(["true", "1", "yes"].contains(value.lowercased()), forKey: Key(stringValue: name))
            } else {
                try container.encode(value, forKey: Key(stringValue: name))
            }
        }
    }
}
