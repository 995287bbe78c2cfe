#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesUpload
import LanesHTTP

/// One screenshot file and the App Store Connect display type its pixel size gives.
public struct ScreenshotFile: Sendable, Equatable {
    public let path: String
    public let locale: String
    /// Apple's `ScreenshotDisplayType` (APP_IPHONE_67, IMESSAGE_APP_IPAD_97, ...).
    public let displayType: String
    public let width: Int
    public let height: Int

    public var fileName: String { String(path.split(separator: "/").last ?? Substring(path)) }
}

/// fastlane deliver's screenshots folder: `<screenshots_path>/<locale>/<name>.png|jpg|jpeg`, and
/// iMessage and Apple TV screenshots in `<screenshots_path>/iMessage/<locale>/` and `appleTV/<locale>/`. The display type comes from the
/// image's pixel size as deliver derives it; when a folder has framed screenshots (frameit's
/// `_framed` files), only those (and watch screenshots, which frameit does not frame) are taken.
/// Everything is read and checked before any request.
public enum AppStoreScreenshots {
    /// Apple takes at most ten screenshots per display type and locale.
    public static let perSet = 10
    /// How often a screenshot App Store Connect could not process is uploaded, in all (deliver's 5).
    public static let tries = 5

    /// Per locale, the screenshots in upload order (file names compared as deliver sorts them, numbers by value).
    public static func read(folder: String) throws(UploadError) -> [String: [ScreenshotFile]] {
        let manager = FileManager.default
        guard let entries = try? manager.contentsOfDirectory(atPath: folder) else {
            throw UploadError(.usage, "screenshots_path \(folder) is not a folder", hint: "fastlane's layout: \(folder)/en-US/1_iPhone.png, ...")
        }
        var folders: [(path: String, locale: String, iMessage: Bool)] = []
        var problems: [String] = []
        // As deliver: `iMessage` and `appleTV` hold locale folders of their own; `android` is supply's.
        for entry in entries.sorted() where !entry.hasPrefix(".") && entry != "android" && isFolder(folder + "/" + entry) {
            if entry == "iMessage" || entry == "appleTV" {
                let inner = ((try? manager.contentsOfDirectory(atPath: folder + "/" + entry)) ?? []).sorted()
                folders += inner.filter { !$0.hasPrefix(".") && isFolder(folder + "/\(entry)/" + $0) }.map { (folder + "/\(entry)/" + $0, $0, entry == "iMessage") }
            } else if entry == "default" {
                problems.append("\(folder)/default: deliver's default folder is not supported; put its files in each locale's folder")
            } else {
                folders.append((folder + "/" + entry, entry, false))
            }
        }
        var result: [String: [ScreenshotFile]] = [:]
        for (path, locale, iMessage) in folders {
            var names = ((try? manager.contentsOfDirectory(atPath: path)) ?? []).filter { name in
                let lower = name.lowercased()
                return !name.hasPrefix(".") && (lower.hasSuffix(".png") || lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg"))
            }
            if names.contains(where: { $0.lowercased().contains("framed") }) {
                names = names.filter { $0.lowercased().contains("framed") || $0.lowercased().contains("watch") }
            }
            names.sort(by: naturallyBefore)
            for name in names {
                let file = path + "/" + name
                guard let size = ImageSize.read(file) else {
                    problems.append("\(file): not a PNG or JPEG whose size can be read")
                    continue
                }
                guard let type = ScreenshotDisplayType.of(width: size.width, height: size.height, path: file, iMessage: iMessage) else {
                    problems.append("\(file): \(size.width)x\(size.height) is not a screenshot size App Store Connect takes")
                    continue
                }
                result[locale, default: []].append(ScreenshotFile(path: file, locale: locale, displayType: type, width: size.width, height: size.height))
            }
        }
        for (locale, files) in result {
            for (type, count) in Dictionary(grouping: files, by: \.displayType).mapValues(\.count) where count > perSet {
                problems.append("\(folder)/\(locale): \(count) screenshots for \(type); App Store Connect takes \(perSet)")
            }
        }
        guard problems.isEmpty else {
            throw UploadError(.usage, "the screenshots cannot be uploaded:\n  " + problems.sorted().joined(separator: "\n  "),
                              hint: "fix the files named; nothing was sent to App Store Connect")
        }
        return result
    }

    static func isFolder(_ path: String) -> Bool {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) != nil
    }

    /// File names in deliver's order (Ruby's `Naturally`): runs of digits compare by value, so
    /// "2_home" comes before "10_settings".
    static func naturallyBefore(_ left: String, _ right: String) -> Bool {
        func runs(_ text: String) -> [(digits: Bool, text: String)] {
            var result: [(digits: Bool, text: String)] = []
            for character in text {
                let digit = character.isASCII && character.isNumber
                if let last = result.last, last.digits == digit { result[result.count - 1].text.append(character) } else { result.append((digit, String(character))) }
            }
            return result
        }
        for (a, b) in zip(runs(left), runs(right)) where a.text != b.text {
            if a.digits && b.digits {
                let x = a.text.drop { $0 == "0" }, y = b.text.drop { $0 == "0" }
                if x.count != y.count { return x.count < y.count }
                if x != y { return x < y }
                continue
            }
            return a.text < b.text
        }
        return runs(left).count != runs(right).count ? runs(left).count < runs(right).count : left < right
    }
}

/// Apple's display types by pixel size, as fastlane deliver maps them (deliver/lib/deliver/app_screenshot.rb).
public enum ScreenshotDisplayType {
    /// Each type's sizes, portrait and landscape; the first type listed wins a size two types share,
    /// except the conflicts `of` settles by file name as deliver does.
    static let sizes: [(type: String, sizes: [(Int, Int)])] = [
        ("APP_IPHONE_67", [(1260, 2736), (1290, 2796), (1320, 2868)]),
        ("APP_IPHONE_65", [(1242, 2688), (1284, 2778)]),
        ("APP_IPHONE_61", [(1179, 2556), (1206, 2622)]),
        ("APP_IPHONE_58", [(1170, 2532), (1125, 2436), (1080, 2340)]),
        ("APP_IPHONE_55", [(1242, 2208)]),
        ("APP_IPHONE_47", [(750, 1334)]),
        ("APP_IPHONE_40", [(640, 1096), (640, 1136), (600, 1136)]),
        ("APP_IPHONE_35", [(640, 920), (640, 960), (600, 960)]),
        ("APP_IPAD_97", [(748, 1024), (768, 1024), (1496, 2048), (1536, 2048), (768, 1004), (1536, 2008)]),
        ("APP_IPAD_105", [(1668, 2224)]),
        ("APP_IPAD_PRO_3GEN_11", [(1488, 2266), (1668, 2420), (1668, 2388), (1640, 2360)]),
        ("APP_IPAD_PRO_3GEN_129", [(2048, 2732), (2064, 2752)]),
        ("APP_DESKTOP", [(1280, 800), (1440, 900), (2560, 1600), (2880, 1800)]),
        ("APP_WATCH_SERIES_3", [(312, 390)]),
        ("APP_WATCH_SERIES_4", [(368, 448)]),
        ("APP_WATCH_SERIES_7", [(396, 484)]),
        ("APP_WATCH_SERIES_10", [(416, 496)]),
        ("APP_WATCH_ULTRA", [(410, 502), (422, 514)]),
        ("APP_APPLE_TV", [(1920, 1080), (3840, 2160)]),
    ]
    /// The phone and iPad types that have an iMessage twin.
    static let hasIMessageTwin: Set<String> = [
        "APP_IPHONE_67", "APP_IPHONE_65", "APP_IPHONE_61", "APP_IPHONE_58", "APP_IPHONE_55", "APP_IPHONE_47", "APP_IPHONE_40",
        "APP_IPAD_97", "APP_IPAD_105", "APP_IPAD_PRO_3GEN_11", "APP_IPAD_PRO_129", "APP_IPAD_PRO_3GEN_129",
    ]
    /// Sizes that are not rotated (Mac, watch and TV screenshots are taken as they are).
    static let fixedOrientation: Set<String> = [
        "APP_DESKTOP", "APP_WATCH_SERIES_3", "APP_WATCH_SERIES_4", "APP_WATCH_SERIES_7", "APP_WATCH_SERIES_10", "APP_WATCH_ULTRA", "APP_APPLE_TV",
    ]

    /// The display type of a `width`x`height` image at `path`, or nil when Apple takes no such size.
    /// 2048x2732 is a 12.9" iPad Pro of the 2nd generation when the path says so (deliver's rule),
    /// else of the 3rd; 3840x2160 is Vision Pro when the path says "vision", else Apple TV.
    public static func of(width: Int, height: Int, path: String, iMessage: Bool = false) -> String? {
        let lower = path.lowercased()
        let matches: (String, [(Int, Int)]) -> Bool = { type, sizes in
            sizes.contains { ($0.0 == width && $0.1 == height) || (!fixedOrientation.contains(type) && $0.0 == height && $0.1 == width) }
        }
        guard var type = sizes.first(where: { matches($0.type, $0.sizes) })?.type else { return nil }
        if Set([width, height]) == [2048, 2732], lower.contains("app_ipad_pro_129") || (lower.contains("12.9") && lower.contains("2nd generation")) {
            type = "APP_IPAD_PRO_129"
        }
        if type == "APP_APPLE_TV", width == 3840, height == 2160, lower.contains("vision") { type = "APP_APPLE_VISION_PRO" }
        guard iMessage else { return type }
        return hasIMessageTwin.contains(type) ? "IMESSAGE_" + type : nil
    }
}

/// The pixel size of a PNG (its IHDR chunk) or JPEG (its first start-of-frame marker).
public enum ImageSize {
    public static func read(_ path: String) -> (width: Int, height: Int)? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return parse(Array(data))
    }

    static func parse(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        func big(_ at: Int, _ count: Int) -> Int? {
            guard at >= 0, at + count <= bytes.count else { return nil }
            return bytes[at..<at + count].reduce(0) { $0 << 8 | Int($1) }
        }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            guard bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8), let width = big(16, 4), let height = big(20, 4) else { return nil }
            return (width, height)
        }
        guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
        var at = 2
        while at + 4 <= bytes.count {
            guard bytes[at] == 0xFF else { return nil }
            let marker = bytes[at + 1]
            if marker == 0xFF { at += 1; continue }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { at += 2; continue }
            guard let length = big(at + 2, 2), length >= 2 else { return nil }
            // SOF0-SOF15 carry the size; C4 (Huffman), C8 (reserved) and CC (arithmetic) do not.
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard let height = big(at + 5, 2), let width = big(at + 7, 2) else { return nil }
                return (width, height)
            }
            at += 2 + length
        }
        return nil
    }
}

/// What `upload_to_app_store` does with screenshots.
public struct ScreenshotUpload: Sendable {
    public var screenshots: [String: [ScreenshotFile]]
    /// deliver's `overwrite_screenshots`: delete the locale's screenshot sets first.
    public var overwrite: Bool
    public var pollInterval: Double
    /// How long App Store Connect may take to process them (seconds).
    public var timeout: Double

    public init(screenshots: [String: [ScreenshotFile]], overwrite: Bool, pollInterval: Double = 5, timeout: Double = 3600) {
        self.screenshots = screenshots
        self.overwrite = overwrite
        self.pollInterval = pollInterval
        self.timeout = timeout
    }
}

struct ScreenshotSetAttributes: Decodable, Sendable { let screenshotDisplayType: String? }

struct ScreenshotAttributes: Decodable, Sendable {
    let fileName: String?
    let sourceFileChecksum: String?
    let uploadOperations: [AssetUploadOperation]?
    let assetDeliveryState: AssetState?
}

extension AppStoreConnectClient {
    /// Uploads each locale's screenshots into the version localization's sets, as deliver does: with
    /// `overwrite`, the locale's sets are deleted first; otherwise a file whose MD5 a screenshot of
    /// its set has is skipped. Each file is reserved (`appScreenshots`), its parts sent to the upload
    /// operations, committed with its MD5 and `uploaded: true`; then every new screenshot is polled
    /// until App Store Connect has processed it (`assetDeliveryState`), cancellably.
    func uploadScreenshots(_ upload: ScreenshotUpload, localizations: [String: String], dryRun: Bool,
                           change: (String) -> Void, progress: @Sendable (String) -> Void) async throws {
        var pending: [PendingScreenshot] = []
        var sorted: [String] = []
        for locale in upload.screenshots.keys.sorted() {
            let files = upload.screenshots[locale] ?? []
            guard let localizationID = localizations[locale] else {
                // Only a dry run gets here without one: a real run has added it.
                guard dryRun else { throw UploadError(.transfer, "App Store Connect: the version has no \(locale) localization to put screenshots on") }
                for file in files { change("upload \(locale) \(file.displayType) \(file.fileName)") }
                continue
            }
            var sets = try await getAll("/v1/appStoreVersionLocalizations/\(localizationID)/appScreenshotSets", query: [("limit", "50")],
                                        as: Resource<ScreenshotSetAttributes>.self)
            if upload.overwrite, !sets.isEmpty {
                change("delete \(sets.count) screenshot set(s) of \(locale)")
                if !dryRun {
                    for set in sets { try await deleteIfPresent("/v1/appScreenshotSets/\(set.id)") }
                }
                sets = []
            }
            for type in orderedTypes(files) {
                let group = files.filter { $0.displayType == type }
                var setID = sets.first { $0.attributes?.screenshotDisplayType == type }?.id
                var existing: [Resource<ScreenshotAttributes>] = []
                if let setID {
                    existing = try await getAll("/v1/appScreenshotSets/\(setID)/appScreenshots", query: [("limit", "50")], as: Resource<ScreenshotAttributes>.self)
                } else {
                    change("create the \(type) screenshot set of \(locale)")
                    if !dryRun {
                        struct Attributes: Encodable, Sendable { let screenshotDisplayType: String }
                        setID = try await send("POST", "/v1/appScreenshotSets", body: Request(
                            type: "appScreenshotSets", attributes: Attributes(screenshotDisplayType: type),
                            relationships: ["appStoreVersionLocalization": ToOne(data: Linkage(type: "appStoreVersionLocalizations", id: localizationID))]),
                            answer: Document<Resource<ScreenshotSetAttributes>>.self)?.data.id
                        guard setID != nil else { throw UploadError(.transfer, "App Store Connect: POST /v1/appScreenshotSets answered no id") }
                    }
                }
                let present = Set(existing.compactMap { $0.attributes?.sourceFileChecksum?.lowercased() })
                var count = existing.count
                for file in group {
                    let (checksum, size) = try AssetUpload.md5(of: file.path)
                    if present.contains(checksum) {
                        progress("\(locale) \(type) \(file.fileName): already on App Store Connect")
                        continue
                    }
                    guard count < AppStoreScreenshots.perSet else {
                        throw UploadError(.usage, "\(file.path): the \(type) set of \(locale) has \(count) screenshots already; App Store Connect takes \(AppStoreScreenshots.perSet)",
                                          hint: "pass overwrite_screenshots:true to replace them")
                    }
                    count += 1
                    change("upload \(locale) \(type) \(file.fileName)")
                    guard !dryRun, let setID else { continue }
                    pending.append(PendingScreenshot(id: try await uploadScreenshot(file, checksum: checksum, size: size, setID: setID), file: file, setID: setID))
                }
                if !dryRun, let setID, !existing.isEmpty { sorted.append(setID) }
            }
        }
        try await processAndRetry(pending, upload, progress: progress)
        for setID in sorted { try await sortScreenshots(setID: setID, change: change) }
    }

    /// Waits for App Store Connect to process `pending`; as deliver does, a screenshot it could not
    /// process is deleted and uploaded again, `AppStoreScreenshots.tries` times in all.
    private func processAndRetry(_ pending: [PendingScreenshot], _ upload: ScreenshotUpload, progress: @Sendable (String) -> Void) async throws {
        var failed = try await waitForScreenshots(pending, upload, progress: progress)
        var tries = 1
        while let first = failed.first {
            guard tries < AppStoreScreenshots.tries else {
                throw UploadError(.configuration, "App Store Connect could not process \(first.item.file.path) in \(tries) tries: \(first.reasons.isEmpty ? "FAILED" : first.reasons)")
            }
            tries += 1
            var again: [PendingScreenshot] = []
            for (item, reasons) in failed {
                progress("\(item.file.path): App Store Connect could not process it (\(reasons.isEmpty ? "FAILED" : reasons)); try \(tries) of \(AppStoreScreenshots.tries)")
                try await deleteIfPresent("/v1/appScreenshots/\(item.id)")
                let (checksum, size) = try AssetUpload.md5(of: item.file.path)
                again.append(PendingScreenshot(id: try await uploadScreenshot(item.file, checksum: checksum, size: size, setID: item.setID),
                                               file: item.file, setID: item.setID))
            }
            failed = try await waitForScreenshots(again, upload, progress: progress)
        }
    }

    /// As deliver does after uploading into a set that had screenshots: the set in file-name order.
    private func sortScreenshots(setID: String, change: (String) -> Void) async throws {
        let screenshots = try await getAll("/v1/appScreenshotSets/\(setID)/appScreenshots", query: [("limit", "50")], as: Resource<ScreenshotAttributes>.self)
        let ordered = screenshots.enumerated().sorted { left, right in
            let a = left.element.attributes?.fileName ?? "", b = right.element.attributes?.fileName ?? ""
            return a == b ? left.offset < right.offset : AppStoreScreenshots.naturallyBefore(a, b)
        }.map(\.element)
        guard ordered.map(\.id) != screenshots.map(\.id) else { return }
        change("sort the screenshots of set \(setID) by file name")
        try await send("PATCH", "/v1/appScreenshotSets/\(setID)/relationships/appScreenshots",
                       body: ToMany(data: ordered.map { Linkage(type: "appScreenshots", id: $0.id) }))
    }

    /// Types in the order their first file comes.
    private func orderedTypes(_ files: [ScreenshotFile]) -> [String] {
        var seen: [String] = []
        for file in files where !seen.contains(file.displayType) { seen.append(file.displayType) }
        return seen
    }

    /// A DELETE the HTTP rule may have retried: a 404 means an earlier try removed it.
    private func deleteIfPresent(_ path: String) async throws {
        do { try await send("DELETE", path, body: Optional<NoAttributes>.none) } catch let error as AppStoreConnectError where error.status == 404 {}
    }

    private func uploadScreenshot(_ file: ScreenshotFile, checksum: String, size: Int64, setID: String) async throws -> String {
        struct Reserve: Encodable, Sendable { let fileName: String; let fileSize: Int64 }
        let reserved = try await send("POST", "/v1/appScreenshots", body: Request(
            type: "appScreenshots", attributes: Reserve(fileName: file.fileName, fileSize: size),
            relationships: ["appScreenshotSet": ToOne(data: Linkage(type: "appScreenshotSets", id: setID))]),
            answer: Document<Resource<ScreenshotAttributes>>.self)
        guard let screenshot = reserved?.data else { throw UploadError(.transfer, "App Store Connect: POST /v1/appScreenshots answered no screenshot") }
        try await sendParts(screenshot.attributes?.uploadOperations ?? [], path: file.path, size: size,
                            what: "screenshot \(file.fileName)", progress: SilentProgress(), concurrency: 2)
        struct Commit: Encodable, Sendable { let sourceFileChecksum: String; let uploaded: Bool }
        try await send("PATCH", "/v1/appScreenshots/\(screenshot.id)", body: Request(
            type: "appScreenshots", id: screenshot.id, attributes: Commit(sourceFileChecksum: checksum, uploaded: true)))
        return screenshot.id
    }

    /// Polls the new screenshots until none is still UPLOAD_COMPLETE (processing), or the timeout;
    /// returns those App Store Connect marked FAILED, with its reasons.
    private func waitForScreenshots(_ pending: [PendingScreenshot], _ upload: ScreenshotUpload,
                                    progress: @Sendable (String) -> Void) async throws -> [(item: PendingScreenshot, reasons: String)] {
        var left = pending
        var failed: [(item: PendingScreenshot, reasons: String)] = []
        var waited = 0.0
        while !left.isEmpty {
            var still: [PendingScreenshot] = []
            for item in left {
                let state = try await get("/v1/appScreenshots/\(item.id)", as: Document<Resource<ScreenshotAttributes>>.self).data.attributes?.assetDeliveryState
                switch state?.state {
                case "COMPLETE": continue
                case "FAILED": failed.append((item, state?.reasons ?? ""))
                default: still.append(item)
                }
            }
            left = still
            guard !left.isEmpty else { break }
            guard waited + upload.pollInterval <= upload.timeout else {
                throw UploadError(.transfer, "App Store Connect: \(left.count) screenshot(s) still processing after \(Int(waited)) s",
                                  hint: "look at the version's media in App Store Connect")
            }
            progress("\(left.count) screenshot(s) processing; next look in \(Int(upload.pollInterval)) s")
            try await pause(upload.pollInterval)
            waited += upload.pollInterval
        }
        return failed
    }
}

/// A screenshot reserved, sent and committed, waiting for App Store Connect's processing.
struct PendingScreenshot: Sendable {
    let id: String
    let file: ScreenshotFile
    let setID: String
}
