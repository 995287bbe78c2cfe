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

extension StepContext {
    /// Reads a track in an edit opened for the purpose and deleted after (nothing is changed).
    func readPlayTrack(key: GooglePlayKeyOptions, packageName: String, track: String, step: String) async throws -> Track? {
        let client = try key.client(context: self, step: step)
        let edit = try await OpenEdit.insert(client: client, packageName: packageName, context: self)
        return try await edit.using(context: self) {
            let found = try await client.call { try $0.track(packageName: packageName, editID: edit.id, track: track) }
            await edit.discard(log: log)
            return found
        }
    }
}

/// `google_play_track_version_codes`: the version codes of a track's releases.
public struct GooglePlayTrackVersionCodes: Step {
    public typealias Output = [Int]

    public static let definition = StepDefinition(
        id: "google_play_track_version_codes",
        summary: "The version codes of a Google Play track's releases",
        category: .upload,
        examples: [StepExample(swift: #"let codes = try await googlePlayTrackVersionCodes(packageName: "com.example.brewer", track: "beta")"#,
                               commandLine: ["package_name:com.example.brewer", "track:beta"], environment: ["SUPPLY_JSON_KEY"])])

    @StepOption("package_name", "The app's package name", env: "SUPPLY_PACKAGE_NAME")
    var packageName: String
    @StepOption("track", "The track", env: "SUPPLY_TRACK", default: "production")
    var track: String
    var key = GooglePlayKeyOptions()

    public init() {}

    public var banner: String { "Version codes of \(packageName) on \(track)" }

    public func run(in context: StepContext) async throws -> [Int] {
        let found = try await context.readPlayTrack(key: key, packageName: packageName, track: track, step: Self.definition.id)
        let codes = (found?.releases ?? []).flatMap { $0.versionCodes ?? [] }.compactMap { Int($0) }
        context.log.line(found == nil ? "track \(track) does not exist" : "track \(track): \(codes.map(String.init).joined(separator: ", "))")
        return codes
    }
}

/// `google_play_track_release_names`: the names of a track's releases.
public struct GooglePlayTrackReleaseNames: Step {
    public typealias Output = [String]

    public static let definition = StepDefinition(
        id: "google_play_track_release_names",
        summary: "The names of a Google Play track's releases",
        category: .upload,
        examples: [StepExample(swift: #"let names = try await googlePlayTrackReleaseNames(packageName: "com.example.brewer", track: "production")"#,
                               commandLine: ["package_name:com.example.brewer", "track:production"], environment: ["SUPPLY_JSON_KEY"])])

    @StepOption("package_name", "The app's package name", env: "SUPPLY_PACKAGE_NAME")
    var packageName: String
    @StepOption("track", "The track", env: "SUPPLY_TRACK", default: "production")
    var track: String
    var key = GooglePlayKeyOptions()

    public init() {}

    public var banner: String { "Release names of \(packageName) on \(track)" }

    public func run(in context: StepContext) async throws -> [String] {
        let found = try await context.readPlayTrack(key: key, packageName: packageName, track: track, step: Self.definition.id)
        let names = (found?.releases ?? []).compactMap(\.name)
        context.log.line(found == nil ? "track \(track) does not exist" : "track \(track): \(names.joined(separator: ", "))")
        return names
    }
}

/// `validate_play_store_json_key`: signs in with the key (a token exchange); fails when Google refuses it.
public struct ValidatePlayStoreJsonKey: Step {
    public typealias Output = String

    public static let definition = StepDefinition(
        id: "validate_play_store_json_key",
        summary: "Check that a Google Play service account key signs in",
        category: .upload,
        examples: [StepExample(swift: #"try await validatePlayStoreJsonKey(jsonKey: "play-key.json")"#, commandLine: ["json_key:play-key.json"])])

    var key = GooglePlayKeyOptions()

    public init() {}

    public var banner: String { "Validate the Google Play service account key" }

    public func run(in context: StepContext) async throws -> String {
        let client = try key.client(context: context, step: Self.definition.id)
        try await client.call { try $0.signIn() }
        context.log.line("signed in to Google Play as \(client.account.clientEmail)")
        return client.account.clientEmail
    }
}

/// `upload_to_play_store_internal_app_sharing`: uploads bundles or APKs for internal app sharing;
/// the download URL of each.
public struct UploadToPlayStoreInternalAppSharing: Step {
    public typealias Output = [String]

    public static let definition = StepDefinition(
        id: "upload_to_play_store_internal_app_sharing",
        summary: "Upload a bundle or APK to Google Play internal app sharing; returns its download URL",
        category: .upload,
        examples: [StepExample(swift: #"let urls = try await uploadToPlayStoreInternalAppSharing(aab: "app/build/outputs/bundle/release/app-release.aab")"#,
                               commandLine: ["aab:app/build/outputs/bundle/release/app-release.aab"], environment: ["SUPPLY_JSON_KEY"])])

    @StepOption("package_name", "The app's package name (default: read from the first bundle or APK)", env: "SUPPLY_PACKAGE_NAME")
    var packageName: String?
    var key = GooglePlayKeyOptions()
    @StepOption("aab", "The .aab to upload (default: the lane's last gradle bundle)", env: "SUPPLY_AAB")
    var aab: String?
    @StepOption("aab_paths", "Several .aab files", env: "SUPPLY_AAB_PATHS", default: [])
    var aabPaths: [String]
    @StepOption("apk", "The .apk to upload", env: "SUPPLY_APK")
    var apk: String?
    @StepOption("apk_paths", "Several .apk files", env: "SUPPLY_APK_PATHS", default: [])
    var apkPaths: [String]

    public init() {}

    public var banner: String { "Upload to Google Play internal app sharing" }

    public func run(in context: StepContext) async throws -> [String] {
        let step = Self.definition.id
        let (aabs, apks) = try context.androidArtifacts(aab: aabPaths + (aab.map { [$0] } ?? []), apk: apkPaths + (apk.map { [$0] } ?? []),
                                                        skipAAB: false, skipAPK: false, step: step)
        guard !(aabs + apks).isEmpty else { throw LanesError(.usage, "\(step): no bundle or APK given and none built in this lane", hint: "pass aab: or apk:") }
        let package = try playPackageName(packageName, artifacts: aabs + apks, step: step)
        let client = try key.client(context: context, step: step)
        var urls: [String] = []
        for path in aabs + apks {
            let isBundle = aabs.contains(path), progress = StepLogProgress(log: context.log)
            let artifact = try await client.call { try $0.uploadForInternalSharing(packageName: package, path: path, isBundle: isBundle, progress: progress) }
            let url = artifact.downloadUrl ?? ""
            context.log.line("\(path): \(url)")
            urls.append(url)
        }
        return urls
    }
}

/// `download_from_play_store` (supply's init): each language's listing texts, images and
/// screenshots, and the release notes of a version, into supply's metadata folder. A folder that
/// exists already is left alone, as supply does. The edit it reads through is deleted after.
public struct DownloadFromPlayStore: Step {
    public typealias Output = String

    public static let definition = StepDefinition(
        id: "download_from_play_store",
        summary: "Download Google Play listings, images and release notes into supply's metadata folder",
        category: .upload,
        examples: [StepExample(swift: #"try await downloadFromPlayStore(packageName: "com.example.brewer")"#,
                               commandLine: ["package_name:com.example.brewer"], environment: ["SUPPLY_JSON_KEY"])])

    @StepOption("package_name", "The app's package name", env: "SUPPLY_PACKAGE_NAME")
    var packageName: String
    @StepOption("version_name", "The release whose notes are downloaded (default: the track's newest)", env: "SUPPLY_VERSION_NAME")
    var versionName: String?
    @StepOption("track", "The track whose newest release's notes are downloaded", env: "SUPPLY_TRACK", default: "production")
    var track: String
    @StepOption("metadata_path", "Where the metadata goes", env: "SUPPLY_METADATA_PATH", default: "fastlane/metadata/android")
    var metadataPath: String
    var key = GooglePlayKeyOptions()

    public init() {}

    public var banner: String { "Download \(packageName)'s Google Play metadata" }

    public func run(in context: StepContext) async throws -> String {
        let step = Self.definition.id
        let folder = context.resolve(metadataPath)
        if FilePath.exists(folder) {
            context.log.line("metadata already exists at \(folder); nothing downloaded")
            return folder
        }
        let client = try key.client(context: context, step: step)
        let edit = try await OpenEdit.insert(client: client, packageName: packageName, context: context)
        // Written into a sibling folder renamed into place at the end: a failed download leaves nothing half-written.
        let partial = folder + ".partial-\(getpid())"
        FilePath.removeTree(partial)
        return try await edit.using(context: context) {
            do {
                let (package, track, versionName) = (packageName, self.track, self.versionName)
                let files = try await client.call { client -> [(String, [UInt8])] in
                    try Self.download(client: client, packageName: package, editID: edit.id, track: track, versionName: versionName)
                }
                for (relative, bytes) in files {
                    let path = "\(partial)/\(relative)"
                    try FileManager.default.createDirectory(atPath: String(path[..<path.lastIndex(of: "/")!]), withIntermediateDirectories: true)
                    try AtomicFile.write(bytes, to: path)
                }
                try FileManager.default.createDirectory(atPath: partial, withIntermediateDirectories: true)
                try FileManager.default.createDirectory(atPath: String(folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)]), withIntermediateDirectories: true)
                guard rename(partial, folder) == 0 else { throw LanesError(.environment, "\(step): cannot move the metadata into \(folder)") }
                await edit.discard(log: context.log)
                context.log.line("stored \(files.count) file(s) in \(folder)")
                return folder
            } catch {
                FilePath.removeTree(partial)
                throw error
            }
        }
    }

    /// Every file of the metadata folder, by its path in it.
    static func download(client: GooglePlayClient, packageName: String, editID: String, track: String, versionName: String?) throws -> [(String, [UInt8])] {
        var files: [(String, [UInt8])] = []
        for listing in try client.listings(packageName: packageName, editID: editID) {
            guard let language = listing.language, !language.contains("/"), !language.hasPrefix(".") else { continue }
            let texts = [("title", listing.title), ("short_description", listing.shortDescription),
                         ("full_description", listing.fullDescription), ("video", listing.video)]
            for (field, value) in texts { files.append(("\(language)/\(field).txt", Array((value ?? "").utf8))) }
            for type in PlayImageType.images + PlayImageType.screenshots {
                let images = try client.images(packageName: packageName, editID: editID, language: language, type: type)
                for (index, image) in images.enumerated() {
                    guard let url = image.url else { continue }
                    let bytes = try client.download(url)
                    let kind = bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) ? "png" : "jpg"
                    let name = PlayImageType.images.contains(type) ? "images/\(type).\(kind)" : "images/\(type)/\(index + 1)_\(language).\(kind)"
                    files.append(("\(language)/\(name)", bytes))
                }
            }
        }
        let releases = try client.track(packageName: packageName, editID: editID, track: track)?.releases ?? []
        let chosen = versionName.map { name in releases.filter { $0.name == name } } ?? Array(releases.sorted {
            ($0.versionCodes?.compactMap { Int($0) }.max() ?? 0) < ($1.versionCodes?.compactMap { Int($0) }.max() ?? 0)
        }.suffix(1))
        for release in chosen {
            for notes in release.releaseNotes ?? [] where !notes.language.contains("/") {
                for code in release.versionCodes ?? [] where Int(code) != nil {
                    files.append(("\(notes.language)/changelogs/\(code).txt", Array(notes.text.utf8)))
                }
            }
        }
        return files
    }
}
