#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesUpload
import LanesHTTP

public struct CertificateAttributes: Decodable, Sendable {
    public let name: String?
    public let certificateType: String?
    public let displayName: String?
    public let serialNumber: String?
    public let expirationDate: String?
    public let certificateContent: String?
}

/// A certificate App Store Connect issued: its portal id (the name fastlane match stores it under)
/// and its DER bytes.
public struct IssuedCertificate: Sendable {
    public let id: String
    public let der: [UInt8]
}

extension AppStoreConnectClient {
    /// `POST /v1/certificates`: Apple signs `csrPEM` as a certificate of `certificateType`
    /// (`DISTRIBUTION`, `DEVELOPMENT`, ...).
    public func createCertificate(certificateType: String, csrPEM: [UInt8]) async throws -> IssuedCertificate {
        struct Attributes: Encodable, Sendable { let csrContent: String; let certificateType: String }
        let answer = try await send("POST", "/v1/certificates",
                                    body: Request(type: "certificates", attributes: Attributes(csrContent: String(decoding: csrPEM, as: UTF8.self),
                                                                                                certificateType: certificateType)),
                                    answer: Document<Resource<CertificateAttributes>>.self)
        guard let created = answer?.data, let text = created.attributes?.certificateContent, let der = Data(base64Encoded: text) else {
            throw UploadError(.transfer, "App Store Connect: POST /v1/certificates answered no readable certificateContent")
        }
        return IssuedCertificate(id: created.id, der: Array(der))
    }

    /// The enabled devices of `platform` (Apple's `IOS` or `MAC_OS`), as match puts them in profiles.
    public func enabledDevices(platform: String) async throws -> [Resource<DeviceAttributes>] {
        try await getAll("/v1/devices", query: [("filter[platform]", platform), ("filter[status]", "ENABLED"), ("limit", "200")],
                         as: Resource<DeviceAttributes>.self)
    }

    /// A new profile named `name` of Apple's `profileType` for `bundleIdentifier`, listing exactly
    /// `certificateIDs` and every enabled device of `devicePlatform` (nil: none). Profiles already named
    /// `name` for that bundle id are deleted first, as fastlane's renewal (`force`) does.
    public func replaceProfile(name: String, profileType: String, bundleIdentifier: String, certificateIDs: [String],
                               devicePlatform: String?) async throws -> DownloadedProfile {
        let bundle = try await bundleID(identifier: bundleIdentifier)
        let existing = try await getAll("/v1/bundleIds/\(bundle.id)/profiles", query: [("limit", "200")], as: Resource<ProfileAttributes>.self)
        for old in existing where old.attributes?.name == name {
            try await send("DELETE", "/v1/profiles/\(old.id)", body: NoAttributes?.none)
        }
        var deviceIDs: [String] = []
        if let devicePlatform { deviceIDs = try await enabledDevices(platform: devicePlatform).map(\.id) }
        let answer = try await send("POST", "/v1/profiles", body: ProfileCreate(
            name: name, type: profileType, bundleID: bundle.id, certificates: certificateIDs, devices: deviceIDs),
            answer: Document<Resource<ProfileAttributes>>.self)
        guard let created = answer?.data else { throw UploadError(.transfer, "App Store Connect: POST /v1/profiles answered no profile") }
        return try Self.downloaded(created, created: true)
    }
}
