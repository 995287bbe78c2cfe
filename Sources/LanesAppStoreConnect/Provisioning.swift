#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesUpload
import LanesHTTP

public struct BundleIDAttributes: Decodable, Sendable {
    public let identifier: String?
    public let name: String?
    public let platform: String?
}

public struct ProfileAttributes: Decodable, Sendable {
    public let name: String?
    public let profileType: String?
    public let profileState: String?
    public let profileContent: String?
    public let uuid: String?
    public let expirationDate: String?
}

public struct DeviceAttributes: Decodable, Sendable {
    public let name: String?
    public let udid: String?
    public let platform: String?
    public let status: String?
}

/// A provisioning profile downloaded from App Store Connect: its `.mobileprovision` bytes and what
/// App Store Connect says about it.
public struct DownloadedProfile: Sendable {
    public let id: String
    public let name: String
    /// Apple's type (`IOS_APP_STORE`, `IOS_APP_ADHOC`, ...).
    public let profileType: String
    public let uuid: String?
    public let expirationDate: String?
    public let content: [UInt8]
    /// Whether this call created it.
    public let created: Bool
}

/// The profile types lanes asks for, by fastlane's words (sigh's `development`, `adhoc`, default App Store).
public enum ProfileKind: String, Sendable, CaseIterable {
    case appStore = "appstore", adHoc = "adhoc", development, enterprise

    /// Apple's `profileType` for this kind on `platform`.
    public func profileType(platform: AppStorePlatform) -> String {
        let prefix = switch platform {
        case .ios, .visionOS: "IOS"
        case .macOS: "MAC"
        case .tvOS: "TVOS"
        }
        return switch self {
        case .appStore: "\(prefix)_APP_STORE"
        case .adHoc: platform == .macOS ? "MAC_APP_DIRECT" : "\(prefix)_APP_ADHOC"
        case .development: "\(prefix)_APP_DEVELOPMENT"
        case .enterprise: "\(prefix)_APP_INHOUSE"
        }
    }

    /// The certificate types a profile of this kind may hold.
    var certificateTypes: String {
        self == .development ? "DEVELOPMENT,IOS_DEVELOPMENT,MAC_APP_DEVELOPMENT" : "DISTRIBUTION,IOS_DISTRIBUTION,MAC_APP_DISTRIBUTION"
    }

    var needsDevices: Bool { self == .development || self == .adHoc }
}

extension AppStoreConnectClient {
    /// The registered bundle id `identifier` (exactly: App Store Connect's filter also matches others).
    public func bundleID(identifier: String) async throws -> Resource<BundleIDAttributes> {
        let found = try await getAll("/v1/bundleIds", query: [("filter[identifier]", identifier), ("limit", "200")], as: Resource<BundleIDAttributes>.self)
        guard let match = found.first(where: { $0.attributes?.identifier == identifier }) else {
            throw UploadError(.configuration, "App Store Connect has no bundle id \(identifier) registered for key \(key.keyID)'s team",
                              hint: "register it in Certificates, Identifiers & Profiles, or check app_identifier")
        }
        return match
    }

    /// The newest active profile of `kind` for `bundleIdentifier`, created (with every certificate of
    /// the right type and, for development and ad hoc, every enabled device) when there is none and
    /// `create` is true. For callers such as match, which need a profile and nothing else.
    public func provisioningProfile(bundleIdentifier: String, kind: ProfileKind, platform: AppStorePlatform = .ios,
                                    create: Bool, name: String? = nil) async throws -> DownloadedProfile {
        let bundle = try await bundleID(identifier: bundleIdentifier)
        let type = kind.profileType(platform: platform)
        let profiles = try await getAll("/v1/bundleIds/\(bundle.id)/profiles", query: [("limit", "200")], as: Resource<ProfileAttributes>.self)
        let active = profiles.filter { $0.attributes?.profileType == type && $0.attributes?.profileState == "ACTIVE" }
            .max { ($0.attributes?.expirationDate ?? "") < ($1.attributes?.expirationDate ?? "") }
        if let active { return try Self.downloaded(active, created: false) }
        guard create else {
            throw UploadError(.configuration, "App Store Connect has no active \(type) profile for \(bundleIdentifier)",
                              hint: "drop readonly:true to let lanes create one")
        }
        let certificates = try await getAll("/v1/certificates", query: [("filter[certificateType]", kind.certificateTypes), ("limit", "200")],
                                            as: Resource<NoAttributes>.self)
        guard !certificates.isEmpty else {
            throw UploadError(.configuration, "App Store Connect has no \(kind == .development ? "development" : "distribution") certificate for a \(type) profile",
                              hint: "create the certificate first")
        }
        var devices: [Resource<DeviceAttributes>] = []
        if kind.needsDevices {
            devices = try await getAll("/v1/devices", query: [("filter[status]", "ENABLED"), ("limit", "200")], as: Resource<DeviceAttributes>.self)
        }
        let profileName = name ?? "\(bundleIdentifier) \(kind.rawValue) lanes"
        let answer = try await send("POST", "/v1/profiles", body: ProfileCreate(
            name: profileName, type: type, bundleID: bundle.id, certificates: certificates.map(\.id), devices: devices.map(\.id)),
            answer: Document<Resource<ProfileAttributes>>.self)
        guard let created = answer?.data else { throw UploadError(.transfer, "App Store Connect: POST /v1/profiles answered no profile") }
        return try Self.downloaded(created, created: true)
    }

    static func downloaded(_ resource: Resource<ProfileAttributes>, created: Bool) throws(UploadError) -> DownloadedProfile {
        guard let text = resource.attributes?.profileContent, let data = Data(base64Encoded: text) else {
            throw UploadError(.transfer, "App Store Connect: profile \(resource.id) came without readable profileContent")
        }
        return DownloadedProfile(id: resource.id, name: resource.attributes?.name ?? resource.id, profileType: resource.attributes?.profileType ?? "?",
                                 uuid: resource.attributes?.uuid, expirationDate: resource.attributes?.expirationDate, content: Array(data), created: created)
    }

    /// Registers the devices App Store Connect does not have yet (by UDID, case-insensitive);
    /// returns the names of those added and of those already there.
    public func registerDevices(_ devices: [(name: String, udid: String)], platform: String, dryRun: Bool = false) async throws
        -> (added: [String], existing: [String]) {
        let known = Set(try await getAll("/v1/devices", query: [("limit", "200")], as: Resource<DeviceAttributes>.self)
            .compactMap { $0.attributes?.udid?.lowercased() })
        var added: [String] = [], existing: [String] = []
        for device in devices {
            if known.contains(device.udid.lowercased()) { existing.append(device.name); continue }
            if !dryRun {
                struct Attributes: Encodable, Sendable { let name: String; let udid: String; let platform: String }
                try await send("POST", "/v1/devices", body: Request(type: "devices", attributes: Attributes(name: device.name, udid: device.udid, platform: platform)))
            }
            added.append(device.name)
        }
        return (added, existing)
    }
}

/// `POST /v1/profiles`: to-many relationships, which `Request` does not model.
struct ProfileCreate: Encodable, Sendable {
    let name: String, type: String, bundleID: String, certificates: [String], devices: [String]

    func encode(to encoder: any Encoder) throws {
        struct Attributes: Encodable { let name: String; let profileType: String }
        struct Relationships: Encodable { let bundleId: ToOne; let certificates: ToMany; let devices: ToMany? }
        struct Body: Encodable { let type = "profiles"; let attributes: Attributes; let relationships: Relationships }
        struct Envelope: Encodable { let data: Body }
        try Envelope(data: Body(attributes: Attributes(name: name, profileType: type), relationships: Relationships(
            bundleId: ToOne(data: Linkage(type: "bundleIds", id: bundleID)),
            certificates: ToMany(data: certificates.map { Linkage(type: "certificates", id: $0) }),
            devices: devices.isEmpty ? nil : ToMany(data: devices.map { Linkage(type: "devices", id: $0) })))).encode(to: encoder)
    }
}
