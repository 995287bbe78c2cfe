#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesUpload
import LanesHTTP

/// fastlane deliver's metadata folder: `<metadata_path>/<locale>/<field>.txt` for the localised fields
/// and `<metadata_path>/<field>.txt` for the others. Read and checked against Apple's length limits
/// before any request, so a keyword list that is too long fails naming its file.
public struct AppStoreMetadata: Sendable, Equatable {
    /// Per locale (`en-US`), the fields that have a file, by fastlane file name (`keywords`).
    public var localized: [String: [String: String]]
    /// `copyright` (the one non-localised field lanes sends).
    public var copyright: String?

    /// The localised files deliver reads, with Apple's limits (characters) where Apple has one.
    public static let localizedFields: [(file: String, limit: Int?)] = [
        ("name", 30), ("subtitle", 30), ("description", 4000), ("keywords", 100), ("release_notes", 4000),
        ("promotional_text", 170), ("marketing_url", nil), ("support_url", nil), ("privacy_url", nil),
    ]
    /// Folders in the metadata folder that are not locales.
    static let notLocales: Set<String> = ["review_information", "trade_representative_contact_information", "default"]

    public init(localized: [String: [String: String]], copyright: String? = nil) {
        self.localized = localized
        self.copyright = copyright
    }

    /// Reads `folder`; every problem (too long, unreadable) is reported at once.
    public static func read(folder: String) throws(UploadError) -> AppStoreMetadata {
        let manager = FileManager.default
        guard let entries = try? manager.contentsOfDirectory(atPath: folder) else {
            throw UploadError(.usage, "metadata_path \(folder) is not a folder", hint: "fastlane's layout: \(folder)/en-US/description.txt, ...")
        }
        var localized: [String: [String: String]] = [:]
        var problems: [String] = []
        for locale in entries.sorted() where !notLocales.contains(locale) && !locale.hasPrefix(".") {
            guard (try? manager.contentsOfDirectory(atPath: folder + "/" + locale)) != nil else { continue }
            var fields: [String: String] = [:]
            for (name, limit) in localizedFields {
                let path = "\(folder)/\(locale)/\(name).txt"
                guard manager.fileExists(atPath: path) else { continue }
                guard let data = manager.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                    problems.append("\(path): not readable UTF-8 text")
                    continue
                }
                let value = trimmed(text)
                if let limit, value.count > limit {
                    problems.append("\(path): \(value.count) characters; App Store Connect allows \(limit) for \(name)")
                }
                fields[name] = value
            }
            if !fields.isEmpty { localized[locale] = fields }
        }
        var copyright: String?
        if let data = manager.contents(atPath: folder + "/copyright.txt"), let text = String(data: data, encoding: .utf8) {
            copyright = trimmed(text)
        }
        guard problems.isEmpty else {
            throw UploadError(.usage, "the App Store metadata breaks Apple's limits:\n  " + problems.joined(separator: "\n  "),
                              hint: "shorten the files named; nothing was sent to App Store Connect")
        }
        return AppStoreMetadata(localized: localized, copyright: copyright)
    }

    static func trimmed(_ text: String) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

/// What `upload_to_app_store` asks for.
public struct AppStoreRelease: Sendable {
    public var version: String
    public var platform: AppStorePlatform
    public var metadata: AppStoreMetadata?
    public var buildNumber: String?
    public var submitForReview: Bool
    public var automaticRelease: Bool?
    public var phasedRelease: Bool
    public var dryRun: Bool
    /// Screenshots to upload into the version's localizations (nil: leave them).
    public var screenshots: ScreenshotUpload?

    public init(version: String, platform: AppStorePlatform, metadata: AppStoreMetadata?, buildNumber: String?, submitForReview: Bool,
                automaticRelease: Bool?, phasedRelease: Bool, dryRun: Bool, screenshots: ScreenshotUpload? = nil) {
        self.screenshots = screenshots
        self.version = version
        self.platform = platform
        self.metadata = metadata
        self.buildNumber = buildNumber
        self.submitForReview = submitForReview
        self.automaticRelease = automaticRelease
        self.phasedRelease = phasedRelease
        self.dryRun = dryRun
    }
}

public struct AppStoreVersionLocalizationAttributes: Codable, Sendable, Equatable {
    public var locale: String?
    public var description: String?
    public var keywords: String?
    public var marketingUrl: String?
    public var promotionalText: String?
    public var supportUrl: String?
    public var whatsNew: String?
}

public struct AppInfoAttributes: Decodable, Sendable {
    public let state: String?
}

public struct AppInfoLocalizationAttributes: Codable, Sendable {
    public var locale: String?
    public var name: String?
    public var subtitle: String?
    public var privacyPolicyUrl: String?
}

/// What `upload_to_app_store` did (or, in a dry run, would do): one line per change.
public struct AppStoreReleaseOutcome: Sendable {
    public var versionID: String?
    public var changes: [String] = []
}

extension AppStoreConnectClient {
    /// Selects or creates the version, updates its localizations, attaches the build, sets the
    /// release type, starts a phased release and submits for review, in that order. A dry run
    /// reads but changes nothing, and says each change it would make; with `buildPending` (a dry run
    /// whose build would be uploaded first) the build is not looked for.
    public func release(appID: String, _ release: AppStoreRelease, progress: @Sendable (String) -> Void,
                        buildPending: Bool = false) async throws -> AppStoreReleaseOutcome {
        var outcome = AppStoreReleaseOutcome()
        func change(_ text: String) {
            outcome.changes.append(text)
            progress((release.dryRun ? "would " : "") + text)
        }
        let versions = try await getAll("/v1/apps/\(appID)/appStoreVersions",
                                        query: [("filter[versionString]", release.version), ("filter[platform]", release.platform.rawValue), ("limit", "200")],
                                        as: Resource<AppStoreVersionAttributes>.self)
        var versionID = versions.first?.id
        if versionID == nil {
            change("create version \(release.version) (\(release.platform.rawValue))")
            if !release.dryRun {
                struct Attributes: Encodable, Sendable { let platform: String; let versionString: String; let copyright: String? }
                let created = try await send("POST", "/v1/appStoreVersions",
                                             body: Request(type: "appStoreVersions",
                                                           attributes: Attributes(platform: release.platform.rawValue, versionString: release.version,
                                                                                  copyright: release.metadata?.copyright),
                                                           relationships: ["app": ToOne(data: Linkage(type: "apps", id: appID))]),
                                             answer: Document<Resource<AppStoreVersionAttributes>>.self)
                versionID = created?.data.id
            }
        } else if let copyright = release.metadata?.copyright, let id = versionID {
            change("set copyright of version \(release.version) to \"\(copyright)\"")
            if !release.dryRun {
                struct Attributes: Encodable, Sendable { let copyright: String }
                try await send("PATCH", "/v1/appStoreVersions/\(id)", body: Request(type: "appStoreVersions", id: id, attributes: Attributes(copyright: copyright)))
            }
        }
        outcome.versionID = versionID
        if let metadata = release.metadata {
            var existing: [Resource<AppStoreVersionLocalizationAttributes>] = []
            if let versionID {
                existing = try await getAll("/v1/appStoreVersions/\(versionID)/appStoreVersionLocalizations", query: [("limit", "200")],
                                            as: Resource<AppStoreVersionLocalizationAttributes>.self)
            }
            for locale in metadata.localized.keys.sorted() {
                let fields = metadata.localized[locale] ?? [:]
                var wanted = AppStoreVersionLocalizationAttributes(
                    description: fields["description"], keywords: fields["keywords"], marketingUrl: fields["marketing_url"],
                    promotionalText: fields["promotional_text"], supportUrl: fields["support_url"], whatsNew: fields["release_notes"])
                let current = existing.first { $0.attributes?.locale == locale }
                let changed = Self.changedFields(from: current?.attributes, to: wanted)
                guard !changed.isEmpty else { continue }
                if let current {
                    change("update \(locale): \(changed.joined(separator: ", "))")
                    if !release.dryRun {
                        try await send("PATCH", "/v1/appStoreVersionLocalizations/\(current.id)",
                                       body: Request(type: "appStoreVersionLocalizations", id: current.id, attributes: wanted))
                    }
                } else {
                    change("add \(locale): \(changed.joined(separator: ", "))")
                    if !release.dryRun, let versionID {
                        wanted.locale = locale
                        try await send("POST", "/v1/appStoreVersionLocalizations",
                                       body: Request(type: "appStoreVersionLocalizations", attributes: wanted,
                                                     relationships: ["appStoreVersion": ToOne(data: Linkage(type: "appStoreVersions", id: versionID))]))
                    }
                }
            }
        }
        if let metadata = release.metadata {
            try await updateAppInfo(appID: appID, metadata, dryRun: release.dryRun, change: change)
        }
        if let screenshots = release.screenshots, !screenshots.screenshots.isEmpty {
            let localizations = try await localizationIDs(versionID: versionID, locales: Array(screenshots.screenshots.keys),
                                                         dryRun: release.dryRun, change: change)
            try await uploadScreenshots(screenshots, localizations: localizations, dryRun: release.dryRun, change: change, progress: progress)
        }
        if let buildNumber = release.buildNumber, buildPending {
            change("attach build \(buildNumber) to version \(release.version)")
        } else if let buildNumber = release.buildNumber {
            guard let build = try await builds(appID: appID, version: release.version, platform: release.platform, buildNumber: buildNumber).first else {
                throw UploadError(.configuration, "App Store Connect has no build \(release.version) (\(buildNumber)) to attach",
                                  hint: "upload it with upload_to_testflight first, or check build_number")
            }
            change("attach build \(buildNumber) to version \(release.version)")
            if !release.dryRun, let versionID {
                try await send("PATCH", "/v1/appStoreVersions/\(versionID)/relationships/build", body: ToOne(data: Linkage(type: "builds", id: build.id)))
            }
        }
        if let automatic = release.automaticRelease {
            let type = automatic ? "AFTER_APPROVAL" : "MANUAL"
            change("release \(automatic ? "automatically after approval" : "manually") (\(type))")
            if !release.dryRun, let versionID {
                struct Attributes: Encodable, Sendable { let releaseType: String }
                try await send("PATCH", "/v1/appStoreVersions/\(versionID)", body: Request(type: "appStoreVersions", id: versionID, attributes: Attributes(releaseType: type)))
            }
        }
        if release.phasedRelease {
            change("start a phased release")
            if !release.dryRun, let versionID {
                struct Attributes: Encodable, Sendable { let phasedReleaseState: String }
                try await send("POST", "/v1/appStoreVersionPhasedReleases",
                               body: Request(type: "appStoreVersionPhasedReleases", attributes: Attributes(phasedReleaseState: "INACTIVE"),
                                             relationships: ["appStoreVersion": ToOne(data: Linkage(type: "appStoreVersions", id: versionID))]))
            }
        }
        if release.submitForReview {
            change("submit version \(release.version) for review")
            if !release.dryRun, let versionID {
                struct Platform: Encodable, Sendable { let platform: String }
                let submission = try await send("POST", "/v1/reviewSubmissions",
                                                body: Request(type: "reviewSubmissions", attributes: Platform(platform: release.platform.rawValue),
                                                              relationships: ["app": ToOne(data: Linkage(type: "apps", id: appID))]),
                                                answer: Document<Resource<NoAttributes>>.self)
                guard let submissionID = submission?.data.id else { throw UploadError(.transfer, "App Store Connect: POST /v1/reviewSubmissions answered no id") }
                try await send("POST", "/v1/reviewSubmissionItems",
                               body: Request<NoAttributes>(type: "reviewSubmissionItems", attributes: nil, relationships: [
                                   "reviewSubmission": ToOne(data: Linkage(type: "reviewSubmissions", id: submissionID)),
                                   "appStoreVersion": ToOne(data: Linkage(type: "appStoreVersions", id: versionID)),
                               ]))
                struct Submitted: Encodable, Sendable { let submitted: Bool }
                try await send("PATCH", "/v1/reviewSubmissions/\(submissionID)",
                               body: Request(type: "reviewSubmissions", id: submissionID, attributes: Submitted(submitted: true)))
            }
        }
        return outcome
    }

    /// The version's localization id per locale, a localization added for each of `locales` it lacks
    /// (screenshots hang on a localization).
    func localizationIDs(versionID: String?, locales: [String], dryRun: Bool, change: (String) -> Void) async throws -> [String: String] {
        guard let versionID else { return [:] }
        let existing = try await getAll("/v1/appStoreVersions/\(versionID)/appStoreVersionLocalizations", query: [("limit", "200")],
                                        as: Resource<AppStoreVersionLocalizationAttributes>.self)
        var ids: [String: String] = [:]
        for item in existing { if let locale = item.attributes?.locale { ids[locale] = item.id } }
        for locale in locales.sorted() where ids[locale] == nil {
            change("add \(locale) for its screenshots")
            guard !dryRun else { continue }
            let created = try await send("POST", "/v1/appStoreVersionLocalizations",
                                         body: Request(type: "appStoreVersionLocalizations", attributes: AppStoreVersionLocalizationAttributes(locale: locale),
                                                       relationships: ["appStoreVersion": ToOne(data: Linkage(type: "appStoreVersions", id: versionID))]),
                                         answer: Document<Resource<AppStoreVersionLocalizationAttributes>>.self)
            ids[locale] = created?.data.id
        }
        return ids
    }

    /// Name, subtitle and privacy policy URL live on the app's editable `appInfo`, not on the version.
    func updateAppInfo(appID: String, _ metadata: AppStoreMetadata, dryRun: Bool, change: (String) -> Void) async throws {
        let locales = metadata.localized.filter { $0.value["name"] != nil || $0.value["subtitle"] != nil || $0.value["privacy_url"] != nil }
        guard !locales.isEmpty else { return }
        let infos = try await getAll("/v1/apps/\(appID)/appInfos", query: [("limit", "200")], as: Resource<AppInfoAttributes>.self)
        let live: Set<String> = ["READY_FOR_DISTRIBUTION", "REPLACED_WITH_NEW_INFO"]
        guard let info = infos.first(where: { !live.contains($0.attributes?.state ?? "") }) ?? infos.first else {
            throw UploadError(.configuration, "App Store Connect: the app has no app info to put name and subtitle on")
        }
        let existing = try await getAll("/v1/appInfos/\(info.id)/appInfoLocalizations", query: [("limit", "200")],
                                        as: Resource<AppInfoLocalizationAttributes>.self)
        for locale in locales.keys.sorted() {
            let fields = locales[locale] ?? [:]
            var wanted = AppInfoLocalizationAttributes(name: fields["name"], subtitle: fields["subtitle"], privacyPolicyUrl: fields["privacy_url"])
            let current = existing.first { $0.attributes?.locale == locale }
            let pairs: [(String, String?, String?)] = [
                ("name", current?.attributes?.name, wanted.name), ("subtitle", current?.attributes?.subtitle, wanted.subtitle),
                ("privacy_url", current?.attributes?.privacyPolicyUrl, wanted.privacyPolicyUrl),
            ]
            let changed: [String] = pairs.compactMap { name, old, new in new != nil && new != old ? name : nil }
            guard !changed.isEmpty else { continue }
            if let current {
                change("update app info \(locale): \(changed.joined(separator: ", "))")
                if !dryRun {
                    try await send("PATCH", "/v1/appInfoLocalizations/\(current.id)",
                                   body: Request(type: "appInfoLocalizations", id: current.id, attributes: wanted))
                }
            } else {
                guard wanted.name != nil else {
                    change("skip app info \(locale): a new locale needs name.txt")
                    continue
                }
                change("add app info \(locale): \(changed.joined(separator: ", "))")
                if !dryRun {
                    wanted.locale = locale
                    try await send("POST", "/v1/appInfoLocalizations",
                                   body: Request(type: "appInfoLocalizations", attributes: wanted,
                                                 relationships: ["appInfo": ToOne(data: Linkage(type: "appInfos", id: info.id))]))
                }
            }
        }
    }

    /// The names of the fields `wanted` sets to something other than `current` has.
    static func changedFields(from current: AppStoreVersionLocalizationAttributes?, to wanted: AppStoreVersionLocalizationAttributes) -> [String] {
        let pairs: [(String, String?, String?)] = [
            ("description", current?.description, wanted.description), ("keywords", current?.keywords, wanted.keywords),
            ("marketing_url", current?.marketingUrl, wanted.marketingUrl), ("promotional_text", current?.promotionalText, wanted.promotionalText),
            ("support_url", current?.supportUrl, wanted.supportUrl), ("release_notes", current?.whatsNew, wanted.whatsNew),
        ]
        return pairs.compactMap { name, old, new in new != nil && new != old ? name : nil }
    }
}
