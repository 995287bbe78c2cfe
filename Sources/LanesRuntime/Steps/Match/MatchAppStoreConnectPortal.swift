import LanesAppStoreConnect
import LanesMatch

/// `readonly: false`'s way to Apple: certificates and profiles created through the App Store
/// Connect API with the lane's key (`app_store_connect_api_key` or APP_STORE_CONNECT_API_KEY_*).
struct AppStoreConnectMatchPortal: MatchPortal {
    let client: AppStoreConnectClient

    func createCertificate(type: MatchType, csrPEM: [UInt8]) async throws -> (id: String, der: [UInt8]) {
        guard let kind = Self.certificateType(type) else {
            throw MatchError.unavailable("App Store Connect's API cannot create \(type.rawValue) certificates",
                                         hint: "create it in Certificates, Identifiers & Profiles and add it with `lanes match import`")
        }
        let issued = try await client.createCertificate(certificateType: kind, csrPEM: csrPEM)
        return (issued.id, issued.der)
    }

    func createProfile(type: MatchType, appIdentifier: String, platform: MatchPlatform, certificateIDs: [String]) async throws -> [UInt8] {
        guard let profileType = Self.profileType(type, platform: platform), let name = MatchLayout.profileName(type: type, appIdentifier: appIdentifier, platform: platform) else {
            throw MatchError.badOption(name: "platform", problem: "Apple has no \(type.rawValue) profiles for \(platform.rawValue)")
        }
        return try await client.replaceProfile(name: name, profileType: profileType, bundleIdentifier: appIdentifier,
                                               certificateIDs: certificateIDs,
                                               devicePlatform: type == .development || type == .adhoc ? Self.devicePlatform(platform) : nil).content
    }

    func enabledDevices(platform: MatchPlatform) async throws -> [String] {
        try await client.enabledDevices(platform: Self.devicePlatform(platform)).compactMap { $0.attributes?.udid }
    }

    /// Apple's device platform: Apple TVs and Vision Pros are registered as `IOS`, Macs as `MAC_OS`.
    static func devicePlatform(_ platform: MatchPlatform) -> String {
        platform == .macos || platform == .catalyst ? "MAC_OS" : "IOS"
    }

    /// The certificate type fastlane's `cert` asks for (Apple's CertificateType).
    static func certificateType(_ type: MatchType) -> String? {
        switch type {
        case .appstore, .adhoc: "DISTRIBUTION"
        case .development: "DEVELOPMENT"
        case .enterprise: "IOS_DISTRIBUTION"
        case .developerID: "DEVELOPER_ID_APPLICATION"
        case .macInstallerDistribution: "MAC_INSTALLER_DISTRIBUTION"
        case .developerIDInstaller: nil
        }
    }

    /// Apple's profileType for a match type on a platform; nil when Apple has none.
    static func profileType(_ type: MatchType, platform: MatchPlatform) -> String? {
        let prefix = switch platform {
        case .ios, .visionos: "IOS"
        case .tvos: "TVOS"
        case .macos: "MAC"
        case .catalyst: "MAC_CATALYST"
        }
        let mac = platform == .macos || platform == .catalyst
        return switch type {
        case .appstore: "\(prefix)_APP_STORE"
        case .development: "\(prefix)_APP_DEVELOPMENT"
        case .adhoc: mac ? nil : "\(prefix)_APP_ADHOC"
        case .enterprise: mac ? nil : "\(prefix)_APP_INHOUSE"
        case .developerID: mac ? "\(prefix)_APP_DIRECT" : nil
        case .macInstallerDistribution, .developerIDInstaller: nil
        }
    }
}
