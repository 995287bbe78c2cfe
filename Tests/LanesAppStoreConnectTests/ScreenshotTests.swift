import Foundation
import LanesAppStoreConnect
import LanesTestSupport
import LanesUpload
import Testing
import LanesHTTP

/// Screenshot files as tests write them: a PNG or JPEG header of the given size, then `padding` bytes.
enum ScreenshotFixture {
    static func png(width: Int, height: Int, padding: Int = 64, seed: UInt64 = 1) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        bytes += bigEndian(width, 4) + bigEndian(height, 4) + [8, 6, 0, 0, 0] + [0, 0, 0, 0]
        return Data(bytes + noise(padding, seed: seed))
    }

    /// A JPEG with an APP0 segment before its baseline start-of-frame, as cameras write them.
    static func jpeg(width: Int, height: Int, padding: Int = 64, seed: UInt64 = 2) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        bytes += [0xFF, 0xC0, 0, 17, 8] + bigEndian(height, 2) + bigEndian(width, 2) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        return Data(bytes + noise(padding, seed: seed) + [0xFF, 0xD9])
    }

    static func bigEndian(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    static func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}

struct ScreenshotTests {
    @Test func pngAndJpegSizesAreRead() throws {
        let folder = LanesProcess.temporaryDirectory("shots-size")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try ScreenshotFixture.png(width: 1290, height: 2796).write(to: folder.appendingPathComponent("a.png"))
        try ScreenshotFixture.jpeg(width: 2732, height: 2048).write(to: folder.appendingPathComponent("b.jpg"))
        try Data("not an image".utf8).write(to: folder.appendingPathComponent("c.png"))
        #expect(ImageSize.read(folder.appendingPathComponent("a.png").path).map { [$0.width, $0.height] } == [1290, 2796])
        #expect(ImageSize.read(folder.appendingPathComponent("b.jpg").path).map { [$0.width, $0.height] } == [2732, 2048])
        #expect(ImageSize.read(folder.appendingPathComponent("c.png").path) == nil)
    }

    @Test(arguments: [
        (1290, 2796, "shot.png", "APP_IPHONE_67"), (2796, 1290, "shot.png", "APP_IPHONE_67"), (1242, 2688, "shot.png", "APP_IPHONE_65"),
        (1242, 2208, "shot.png", "APP_IPHONE_55"), (2048, 2732, "iPad Pro (12.9-inch) (3rd generation).png", "APP_IPAD_PRO_3GEN_129"),
        (2048, 2732, "iPad Pro (12.9-inch) (2nd generation).png", "APP_IPAD_PRO_129"), (2880, 1800, "mac.png", "APP_DESKTOP"),
        (396, 484, "watch.png", "APP_WATCH_SERIES_7"), (3840, 2160, "tv.png", "APP_APPLE_TV"), (3840, 2160, "vision.png", "APP_APPLE_VISION_PRO"),
    ])
    func displayTypesFollowDeliver(_ example: (Int, Int, String, String)) {
        #expect(ScreenshotDisplayType.of(width: example.0, height: example.1, path: "/shots/en-US/" + example.2) == example.3)
    }

    @Test func iMessageAndUnknownSizes() {
        #expect(ScreenshotDisplayType.of(width: 1242, height: 2688, path: "x.png", iMessage: true) == "IMESSAGE_APP_IPHONE_65")
        #expect(ScreenshotDisplayType.of(width: 640, height: 960, path: "x.png", iMessage: true) == nil, "no 3.5-inch iMessage type")
        #expect(ScreenshotDisplayType.of(width: 1800, height: 2880, path: "mac.png") == nil, "Mac screenshots are landscape only")
        #expect(ScreenshotDisplayType.of(width: 1000, height: 1000, path: "x.png") == nil)
    }

    @Test func theFolderIsReadInDeliversOrderWithFramedPreferred() throws {
        let folder = LanesProcess.temporaryDirectory("shots-folder")
        let english = folder.appendingPathComponent("en-US"), messages = folder.appendingPathComponent("iMessage/de-DE")
        for path in [english, messages] { try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true) }
        for name in ["10_settings_framed.png", "2_home_framed.png", "2_home.png"] {
            try ScreenshotFixture.png(width: 1290, height: 2796).write(to: english.appendingPathComponent(name))
        }
        try ScreenshotFixture.png(width: 396, height: 484).write(to: english.appendingPathComponent("watch.png"))
        try ScreenshotFixture.jpeg(width: 1242, height: 2688).write(to: messages.appendingPathComponent("chat.jpeg"))
        let television = folder.appendingPathComponent("appleTV/en-US"), android = folder.appendingPathComponent("android/en-US")
        for path in [television, android] { try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true) }
        try ScreenshotFixture.png(width: 1920, height: 1080).write(to: television.appendingPathComponent("tv.png"))
        try ScreenshotFixture.png(width: 1, height: 1).write(to: android.appendingPathComponent("phone.png"))
        let read = try AppStoreScreenshots.read(folder: folder.path)
        // Folders in name order (appleTV/en-US first), files in deliver's order within each.
        #expect(read["en-US"]?.map(\.fileName) == ["tv.png", "2_home_framed.png", "10_settings_framed.png", "watch.png"])
        #expect(read["en-US"]?.map(\.displayType) == ["APP_APPLE_TV", "APP_IPHONE_67", "APP_IPHONE_67", "APP_WATCH_SERIES_7"], "android/ is supply's")
        #expect(read["de-DE"]?.map(\.displayType) == ["IMESSAGE_APP_IPHONE_65"])
    }

    @Test func badFilesAndMoreThanTenFailNamingEachFile() throws {
        let folder = LanesProcess.temporaryDirectory("shots-bad")
        let english = folder.appendingPathComponent("en-US")
        try FileManager.default.createDirectory(at: english, withIntermediateDirectories: true)
        for index in 1...11 { try ScreenshotFixture.png(width: 1242, height: 2688, seed: UInt64(index)).write(to: english.appendingPathComponent("\(index).png")) }
        try ScreenshotFixture.png(width: 1000, height: 1000).write(to: english.appendingPathComponent("square.png"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("default"), withIntermediateDirectories: true)
        let error = try #require(throws: UploadError.self) { try AppStoreScreenshots.read(folder: folder.path) }
        #expect(error.kind == .usage)
        #expect(error.message.contains("en-US/square.png: 1000x1000 is not a screenshot size App Store Connect takes"), "\(error.message)")
        #expect(error.message.contains("en-US: 11 screenshots for APP_IPHONE_65; App Store Connect takes 10"), "\(error.message)")
        #expect(error.message.contains("/default: deliver's default folder is not supported"), "\(error.message)")
    }
}
