/// The androidpublisher v3 resources lanes reads and writes, with Google's field names.

/// `AppEdit`: an edit's id and when Google drops it.
public struct AppEdit: Codable, Sendable {
    public let id: String?
    public let expiryTimeSeconds: String?
}

/// `LocalizedText`: release notes in one language.
public struct LocalizedText: Codable, Sendable, Hashable {
    public var language: String
    public var text: String

    public init(language: String, text: String) {
        self.language = language
        self.text = text
    }
}

/// `TrackRelease`. Version codes are strings in the API (int64 in JSON).
public struct TrackRelease: Codable, Sendable, Hashable {
    public var name: String?
    public var versionCodes: [String]?
    public var status: String?
    public var userFraction: Double?
    public var releaseNotes: [LocalizedText]?
    public var inAppUpdatePriority: Int?

    public init(name: String? = nil, versionCodes: [String]? = nil, status: String? = nil, userFraction: Double? = nil,
                releaseNotes: [LocalizedText]? = nil, inAppUpdatePriority: Int? = nil) {
        self.name = name
        self.versionCodes = versionCodes
        self.status = status
        self.userFraction = userFraction
        self.releaseNotes = releaseNotes
        self.inAppUpdatePriority = inAppUpdatePriority
    }
}

/// `Track`: a track's name and its releases.
public struct Track: Codable, Sendable {
    public var track: String?
    public var releases: [TrackRelease]?

    public init(track: String, releases: [TrackRelease]) {
        self.track = track
        self.releases = releases
    }
}

struct TracksListResponse: Decodable { let tracks: [Track]? }

/// `Listing`: a language's store listing texts.
public struct Listing: Codable, Sendable, Hashable {
    public var language: String?
    public var title: String?
    public var shortDescription: String?
    public var fullDescription: String?
    public var video: String?

    public init(language: String, title: String? = nil, shortDescription: String? = nil, fullDescription: String? = nil, video: String? = nil) {
        self.language = language
        self.title = title
        self.shortDescription = shortDescription
        self.fullDescription = fullDescription
        self.video = video
    }
}

struct ListingsListResponse: Decodable { let listings: [Listing]? }

/// `Image`: an uploaded image and where Google serves it.
public struct PlayImage: Codable, Sendable {
    public let id: String?
    public let url: String?
    public let sha1: String?
    public let sha256: String?
}

struct ImagesListResponse: Decodable { let images: [PlayImage]? }
struct ImagesUploadResponse: Decodable { let image: PlayImage? }

/// `Bundle` and `Apk`: what an uploaded binary became.
struct BundleAnswer: Decodable { let versionCode: Int?; let sha256: String? }
struct ApkAnswer: Decodable {
    struct Binary: Decodable { let sha256: String? }
    let versionCode: Int?
    let binary: Binary?
}

/// `InternalAppSharingArtifact`.
public struct InternalAppSharingArtifact: Decodable, Sendable {
    public let downloadUrl: String?
    public let certificateFingerprint: String?
    public let sha256: String?
}

/// fastlane supply's release statuses (`TrackRelease.status`).
public enum PlayReleaseStatus: String, Sendable, CaseIterable {
    case completed, inProgress, halted, draft
}

/// The image types of a store listing, as supply lays them out: single images in
/// `<locale>/images/<type>.png|jpg|jpeg`, screenshots in `<locale>/images/<type>/*.png|jpg|jpeg`.
public enum PlayImageType {
    public static let images = ["featureGraphic", "icon", "tvBanner"]
    public static let screenshots = ["phoneScreenshots", "sevenInchScreenshots", "tenInchScreenshots", "tvScreenshots", "wearScreenshots"]
}
