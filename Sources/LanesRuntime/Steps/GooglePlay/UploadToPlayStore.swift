#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesBuild
import LanesHTTP
import LanesUpload
internal import LanesGooglePlay
internal import LanesPlatform

/// `upload_to_play_store` (fastlane's supply): one edit per run. Insert it, upload the bundles or
/// APKs (resumable, chunk by chunk) and their mapping files, put the release on the track (or
/// promote a track, or change a rollout), update listings, images and screenshots from supply's
/// metadata folder, then commit it (or only validate it). When anything fails or the lane is
/// cancelled, the edit is deleted: nothing half-published stays behind.
public struct UploadToPlayStore: Step {
    public typealias Output = PlayStoreRelease

    public static let definition = StepDefinition(
        id: "upload_to_play_store",
        summary: "Upload Android bundles or APKs, release notes and store listings to Google Play in one edit",
        category: .upload,
        examples: [StepExample(
            swift: #"try await uploadToPlayStore(packageName: "com.example.brewer", track: "beta", rollout: 0.2, releaseNotes: ["en-US": "Faster brewing"])"#,
            commandLine: ["package_name:com.example.brewer", "track:beta", "rollout:0.2", "aab:app/build/outputs/bundle/release/app-release.aab"],
            environment: ["SUPPLY_JSON_KEY"])],
        aliases: ["supply"])

    @StepOption("package_name", "The app's package name (default: read from the first bundle or APK)", env: "SUPPLY_PACKAGE_NAME")
    var packageName: String?
    var key = GooglePlayKeyOptions()
    @StepOption("aab", "The .aab to upload (default: the lane's last gradle bundle, else supply's: the last *.aab here)", env: "SUPPLY_AAB")
    var aab: String?
    @StepOption("aab_paths", "Several .aab files to upload", env: "SUPPLY_AAB_PATHS", default: [])
    var aabPaths: [String]
    @StepOption("apk", "The .apk to upload (default: the lane's last gradle APK when it built no bundle)", env: "SUPPLY_APK")
    var apk: String?
    @StepOption("apk_paths", "Several .apk files to upload", env: "SUPPLY_APK_PATHS", default: [])
    var apkPaths: [String]
    @StepOption("track", "The track: production, beta, alpha, internal or a custom track", env: "SUPPLY_TRACK", default: "production")
    var track: String
    @StepOption("release_status", "completed, inProgress, halted or draft (a rollout under 1 makes it inProgress)", env: "SUPPLY_RELEASE_STATUS",
                default: .completed)
    var releaseStatus: PlayReleaseStatusOption
    @StepOption("rollout", "The fraction of users who get the release (0 < rollout <= 1)")
    var rollout: Double?
    @StepOption("version_name", "The release's name (default: the manifest's versionName)", env: "SUPPLY_VERSION_NAME")
    var versionName: String?
    @StepOption("version_code", "The release to promote or roll out, when nothing is uploaded", env: "SUPPLY_VERSION_CODE")
    var versionCode: Int?
    @StepOption("release_notes", "Release notes by language ({\"en-US\": \"...\"}); over metadata_path's changelogs")
    var releaseNotes: [String: String]?
    @StepOption("metadata_path", "supply's metadata folder (<locale>/title.txt, images/, changelogs/<versionCode>.txt); default fastlane/metadata/android or metadata when present",
                env: "SUPPLY_METADATA_PATH")
    var metadataPath: String?
    @StepOption("mapping", "A mapping.txt (deobfuscation file) for the uploaded version codes", env: "SUPPLY_MAPPING")
    var mapping: String?
    @StepOption("mapping_paths", "Several mapping files, one per uploaded binary", env: "SUPPLY_MAPPING_PATHS", default: [])
    var mappingPaths: [String]
    @StepOption("skip_upload_apk", "Do not upload APKs", env: "SUPPLY_SKIP_UPLOAD_APK", default: false)
    var skipUploadAPK: Bool
    @StepOption("skip_upload_aab", "Do not upload bundles", env: "SUPPLY_SKIP_UPLOAD_AAB", default: false)
    var skipUploadAAB: Bool
    @StepOption("skip_upload_metadata", "Do not update listings (title, descriptions, video)", env: "SUPPLY_SKIP_UPLOAD_METADATA", default: false)
    var skipUploadMetadata: Bool
    @StepOption("skip_upload_changelogs", "Do not take release notes from metadata_path's changelogs", env: "SUPPLY_SKIP_UPLOAD_CHANGELOGS", default: false)
    var skipUploadChangelogs: Bool
    @StepOption("skip_upload_images", "Do not upload images (icon, feature graphic, TV banner)", env: "SUPPLY_SKIP_UPLOAD_IMAGES", default: false)
    var skipUploadImages: Bool
    @StepOption("skip_upload_screenshots", "Do not replace screenshots", env: "SUPPLY_SKIP_UPLOAD_SCREENSHOTS", default: false)
    var skipUploadScreenshots: Bool
    @StepOption("track_promote_to", "Promote the track's release to this track (when nothing is uploaded)", env: "SUPPLY_TRACK_PROMOTE_TO")
    var trackPromoteTo: String?
    @StepOption("track_promote_release_status", "The promoted release's status", env: "SUPPLY_TRACK_PROMOTE_RELEASE_STATUS", default: .completed)
    var trackPromoteReleaseStatus: PlayReleaseStatusOption
    @StepOption("validate_only", "Validate the edit with Google Play, then delete it: nothing is published", env: "SUPPLY_VALIDATE_ONLY", default: false)
    var validateOnly: Bool
    @StepOption("changes_not_sent_for_review", "Commit without sending the changes for review", env: "SUPPLY_CHANGES_NOT_SENT_FOR_REVIEW", default: false)
    var changesNotSentForReview: Bool
    @StepOption("in_app_update_priority", "The release's in-app update priority (0 to 5)", env: "SUPPLY_IN_APP_UPDATE_PRIORITY")
    var inAppUpdatePriority: Int?
    @StepOption("version_codes_to_retain", "Version codes kept in the release beside the new ones", default: [])
    var versionCodesToRetain: [Int]
    @StepOption("chunk_size_mib", "Resumable upload chunk size in MiB (rounded to 256 KiB)", default: 8)
    var chunkSizeMiB: Int

    public init() {}

    public var banner: String { "Upload to Google Play (\(track)\(rollout.map { ", rollout \($0)" } ?? ""))" }

    static let step = definition.id

    public func run(in context: StepContext) async throws -> PlayStoreRelease {
        let step = Self.step
        try checkOptions()
        let (aabs, apks) = try context.androidArtifacts(aab: aabPaths + (aab.map { [$0] } ?? []), apk: apkPaths + (apk.map { [$0] } ?? []),
                                                        skipAAB: skipUploadAAB, skipAPK: skipUploadAPK, step: step)
        let manifests = try (aabs + apks).map { path in
            do { return try AndroidArtifactReader.read(path: path) } catch {
                throw LanesError(.configuration, "\(step): \(path) is not a readable Android bundle or APK: \(error)")
            }
        }
        let package = try playPackageName(packageName, artifacts: aabs + apks, step: step)
        for (path, manifest) in zip(aabs + apks, manifests) where manifest.packageName != package {
            throw LanesError(.configuration, "\(step): \(path) is \(manifest.packageName), not \(package)", hint: "check package_name and the artifact")
        }
        let metadata = try metadataFolder(context)
        guard !(aabs + apks).isEmpty || metadata != nil || trackPromoteTo != nil || rollout != nil else {
            throw LanesError(.usage, "\(step): nothing to do: no bundle or APK, no metadata folder, no track to promote and no rollout",
                             hint: "build one first (gradle task:bundle), or pass aab:, metadata_path:, track_promote_to: or rollout:")
        }

        let client = try key.client(context: context, step: step)
        let edit = try await OpenEdit.insert(client: client, packageName: package, context: context)
        return try await edit.using(context: context) {
            let settings = ResumableSettings(chunkSize: Int64(max(1, chunkSizeMiB)) << 20)
            var codes: [Int] = []
            for path in aabs + apks {
                let isBundle = aabs.contains(path), progress = StepLogProgress(log: context.log)
                let code = try await client.call { client in
                    isBundle ? try client.uploadBundle(packageName: package, editID: edit.id, path: path, settings: settings, progress: progress)
                             : try client.uploadAPK(packageName: package, editID: edit.id, path: path, settings: settings, progress: progress)
                }
                context.log.line("uploaded \(path): version code \(code)")
                codes.append(code)
            }
            for mappingPath in mappingPaths + (mapping.map { [$0] } ?? []) {
                for code in codes {
                    let resolved = context.resolve(mappingPath)
                    try await client.call { try $0.uploadDeobfuscationFile(packageName: package, editID: edit.id, versionCode: code, path: resolved) }
                    context.log.line("uploaded mapping \(resolved) for version code \(code)")
                }
            }

            var release: TrackRelease?
            var releaseTrack = track
            if !codes.isEmpty {
                let newest = zip(codes, manifests).max { $0.0 < $1.0 }
                let notes = try notes(metadata: metadata, versionCode: codes.max() ?? 0)
                let made = newRelease(codes: codes + versionCodesToRetain, name: versionName ?? newest?.1.versionName, notes: notes)
                try await client.call { [track] in try $0.updateTrack(packageName: package, editID: edit.id, track: Track(track: track, releases: [made])) }
                release = made
            } else if let target = trackPromoteTo {
                release = try await promote(client: client, edit: edit, to: target)
                releaseTrack = target
            } else if rollout != nil {
                release = try await updateRollout(client: client, edit: edit)
            }
            if let release {
                context.log.line("track \(releaseTrack): release \(release.name ?? "(unnamed)") of \(release.versionCodes?.joined(separator: ", ") ?? "") is \(release.status ?? "")"
                                 + (release.userFraction.map { " for \(Int(($0 * 100).rounded()))% of users" } ?? ""))
            }
            if let metadata { try await uploadListings(client: client, edit: edit, folder: metadata, log: context.log) }

            try await edit.finish(validateOnly: validateOnly, changesNotSentForReview: changesNotSentForReview)
            context.log.line(validateOnly ? "Google Play validated edit \(edit.id); it was deleted, nothing was published" : "committed edit \(edit.id)")
            return PlayStoreRelease(packageName: package, editID: edit.id, track: releaseTrack, versionCodes: release?.versionCodes?.compactMap { Int($0) } ?? codes,
                                    status: release?.status, userFraction: release?.userFraction, name: release?.name, committed: !validateOnly)
        }
    }

    func checkOptions() throws {
        let step = Self.step
        if let rollout, !(rollout > 0 && rollout <= 1) {
            throw LanesError(.usage, "\(step): rollout \(rollout) must be above 0 and at most 1", hint: "rollout:0.2 releases to 20% of users")
        }
        if releaseStatus == .draft, rollout != nil {
            throw LanesError(.usage, "\(step): a rollout cannot be given for a draft release (release_status draft)")
        }
        if trackPromoteReleaseStatus == .draft, rollout != nil {
            throw LanesError(.usage, "\(step): a rollout cannot be given when track_promote_release_status is draft")
        }
        if track.lowercased() == "rollout" {
            throw LanesError(.usage, "\(step): 'rollout' is no longer a track name", hint: "use track:production with rollout:")
        }
        if let priority = inAppUpdatePriority, !(0...5).contains(priority) {
            throw LanesError(.usage, "\(step): in_app_update_priority \(priority) is not between 0 and 5")
        }
    }

    /// metadata_path, else supply's defaults when they exist.
    func metadataFolder(_ context: StepContext) throws -> String? {
        if let metadataPath {
            let folder = context.resolve(metadataPath)
            guard FilePath.isDirectory(folder) else {
                throw LanesError(.configuration, "\(Self.step): metadata_path \(folder) is not a folder", hint: "check metadata_path (SUPPLY_METADATA_PATH)")
            }
            return folder
        }
        return ["fastlane/metadata/android", "metadata"].map(context.resolve).first(where: FilePath.isDirectory)
    }

    /// The new release, as supply makes it: a rollout under 1 makes it inProgress with that fraction.
    func newRelease(codes: [Int], name: String?, notes: [LocalizedText]) -> TrackRelease {
        var status = releaseStatus.rawValue, fraction: Double?
        if let rollout, rollout < 1 {
            status = PlayReleaseStatus.inProgress.rawValue
            fraction = rollout
        }
        return TrackRelease(name: name, versionCodes: codes.map(String.init), status: status, userFraction: fraction,
                            releaseNotes: notes.isEmpty ? nil : notes, inAppUpdatePriority: inAppUpdatePriority)
    }

    /// Release notes: each language's `changelogs/<versionCode>.txt` (else `default.txt`) in the
    /// metadata folder, with `release_notes` over them.
    func notes(metadata: String?, versionCode: Int) throws -> [LocalizedText] {
        var byLanguage: [String: String] = [:]
        if let metadata, !skipUploadChangelogs {
            for language in PlayMetadata.languages(in: metadata) {
                let folder = "\(metadata)/\(language)/changelogs"
                for name in ["\(versionCode).txt", "default.txt"] {
                    if let text = try PlayMetadata.text("\(folder)/\(name)") { byLanguage[language] = text; break }
                }
            }
        }
        for (language, text) in releaseNotes ?? [:] { byLanguage[language] = text }
        for (language, text) in byLanguage where text.count > 500 {
            throw LanesError(.configuration, "\(Self.step): the \(language) release notes have \(text.count) characters; Google Play takes at most 500")
        }
        return byLanguage.keys.sorted().map { LocalizedText(language: $0, text: byLanguage[$0]!) }
    }

    /// supply's promote: the track's one release (or the one holding version_code) to `target`.
    func promote(client: GooglePlayClient, edit: OpenEdit, to target: String) async throws -> TrackRelease {
        let step = Self.step, track = self.track, versionCode = self.versionCode, status = releaseStatus.rawValue
        guard let from = try await client.call({ try $0.track(packageName: edit.packageName, editID: edit.id, track: track) }) else {
            throw LanesError(.configuration, "\(step): cannot promote from track '\(track)': it does not exist")
        }
        let candidates = (from.releases ?? []).filter { release in
            versionCode.map { (release.versionCodes ?? []).contains(String($0)) } ?? (release.status == status)
        }
        guard candidates.count == 1, var release = candidates.first else {
            throw LanesError(.configuration, "\(step): track '\(track)' has \(candidates.isEmpty ? "no" : "more than one") release to promote",
                             hint: "give version_code to pick the release")
        }
        if let rollout, rollout > 0, rollout < 1 {
            release.status = PlayReleaseStatus.inProgress.rawValue
            release.userFraction = rollout
        } else {
            release.status = trackPromoteReleaseStatus.rawValue
            release.userFraction = nil
        }
        let promoted = release
        try await client.call { try $0.updateTrack(packageName: edit.packageName, editID: edit.id, track: Track(track: target, releases: [promoted])) }
        return promoted
    }

    /// supply's rollout change: the track's inProgress or draft release gets the new fraction.
    func updateRollout(client: GooglePlayClient, edit: OpenEdit) async throws -> TrackRelease {
        let step = Self.step, track = self.track, versionCode = self.versionCode
        guard let found = try await client.call({ try $0.track(packageName: edit.packageName, editID: edit.id, track: track) }) else {
            throw LanesError(.configuration, "\(step): track '\(track)' does not exist")
        }
        let candidates = (found.releases ?? []).filter { release in
            [PlayReleaseStatus.inProgress.rawValue, PlayReleaseStatus.draft.rawValue].contains(release.status ?? "")
                && versionCode.map { (release.versionCodes ?? []).contains(String($0)) } != false
        }
        guard candidates.count == 1, var release = candidates.first, let rollout else {
            throw LanesError(.configuration, "\(step): track '\(track)' has \(candidates.isEmpty ? "no" : "more than one") release in progress or draft",
                             hint: "give version_code to pick the release")
        }
        var status = releaseStatus
        if status == .completed, rollout < 1 { status = .inProgress }
        if status == .inProgress, rollout == 1 { status = .completed }
        release.status = status.rawValue
        release.userFraction = [.inProgress, .halted].contains(status) ? rollout : nil
        let updated = release
        try await client.call { try $0.updateTrack(packageName: edit.packageName, editID: edit.id, track: Track(track: track, releases: [updated])) }
        return updated
    }

    /// Listings, images and screenshots of every language folder, as supply uploads them.
    func uploadListings(client: GooglePlayClient, edit: OpenEdit, folder: String, log: StepLog) async throws {
        for language in PlayMetadata.languages(in: folder) {
            let base = "\(folder)/\(language)"
            if !skipUploadMetadata {
                let listing = try PlayMetadata.listing(language: language, folder: base)
                if [listing.title, listing.shortDescription, listing.fullDescription, listing.video].contains(where: { $0 != nil }) {
                    try await client.call { try $0.updateListing(packageName: edit.packageName, editID: edit.id, listing: listing) }
                    log.line("updated the \(language) listing")
                }
            }
            if !skipUploadImages {
                for type in PlayImageType.images {
                    guard let image = PlayMetadata.images(in: "\(base)/images", prefix: type).last else { continue }
                    try await client.call { try $0.uploadImage(packageName: edit.packageName, editID: edit.id, language: language, type: type, path: image) }
                    log.line("uploaded \(language) \(type)")
                }
            }
            if !skipUploadScreenshots {
                for type in PlayImageType.screenshots {
                    let shots = PlayMetadata.images(in: "\(base)/images/\(type)", prefix: nil)
                    guard !shots.isEmpty else { continue }
                    try await client.call { client in
                        try client.deleteAllImages(packageName: edit.packageName, editID: edit.id, language: language, type: type)
                        for shot in shots { try client.uploadImage(packageName: edit.packageName, editID: edit.id, language: language, type: type, path: shot) }
                    }
                    log.line("replaced \(language) \(type) with \(shots.count) screenshot(s)")
                }
            }
        }
    }
}

/// supply's release statuses, as an option takes them.
public enum PlayReleaseStatusOption: String, OptionValue, CaseIterable, Sendable {
    case completed, inProgress, halted, draft
}

/// What `upload_to_play_store` published (or validated).
public struct PlayStoreRelease: Sendable, ReportableResult {
    public let packageName: String
    public let editID: String
    public let track: String
    public let versionCodes: [Int]
    public let status: String?
    public let userFraction: Double?
    public let name: String?
    /// False when the edit was only validated (`validate_only`).
    public let committed: Bool

    public var report: StepResultReport {
        StepResultReport(
            lines: ["\(packageName) \(committed ? "committed" : "validated") on track \(track): version codes \(versionCodes.map(String.init).joined(separator: ", "))"
                    + (status.map { ", \($0)" } ?? "") + (userFraction.map { " at \($0)" } ?? "")],
            json: .object([("package_name", .string(packageName)), ("edit_id", .string(editID)), ("track", .string(track)),
                           ("version_codes", .array(versionCodes.map { .number(Double($0)) })), ("status", status.map(JSONValue.string) ?? .null),
                           ("user_fraction", userFraction.map { .number($0) } ?? .null), ("name", name.map(JSONValue.string) ?? .null),
                           ("committed", .bool(committed))]))
    }
}

/// supply's metadata folder: `<locale>/{title,short_description,full_description,video}.txt`,
/// `<locale>/images/<type>.png|jpg|jpeg`, `<locale>/images/<screenshotType>/*`, `<locale>/changelogs/<versionCode>.txt`.
enum PlayMetadata {
    static let fields = ["title", "short_description", "full_description", "video"]

    /// Language folders, sorted, hidden ones left out.
    static func languages(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { !$0.hasPrefix(".") && FilePath.isDirectory("\(folder)/\($0)") }.sorted()
    }

    /// A UTF-8 text file's contents, or nil when there is none.
    static func text(_ path: String) throws -> String? {
        guard FilePath.exists(path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else { throw LanesError(.configuration, "cannot read \(path)") }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw LanesError(.configuration, "\(path) is not UTF-8 text", hint: "Google Play metadata must be UTF-8")
        }
        return text
    }

    static func listing(language: String, folder: String) throws -> Listing {
        var values: [String: String] = [:]
        for field in fields { values[field] = try text("\(folder)/\(field).txt") }
        for (field, limit) in [("title", 30), ("short_description", 80), ("full_description", 4000)] {
            if let value = values[field], value.count > limit {
                throw LanesError(.configuration, "\(folder)/\(field).txt has \(value.count) characters; Google Play takes at most \(limit)")
            }
        }
        return Listing(language: language, title: values["title"], shortDescription: values["short_description"],
                       fullDescription: values["full_description"], video: values["video"])
    }

    /// Image files (png, jpg, jpeg in any case) in `folder`, sorted; with `prefix`, only `prefix.EXT`.
    static func images(in folder: String, prefix: String?) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { name in
            let lower = name.lowercased()
            guard let dot = lower.lastIndex(of: "."), ["png", "jpg", "jpeg"].contains(lower[lower.index(after: dot)...]) else { return false }
            return prefix.map { lower[..<dot] == $0.lowercased() } ?? !name.hasPrefix(".")
        }.sorted().map { "\(folder)/\($0)" }
    }
}
