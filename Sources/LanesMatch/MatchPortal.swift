/// What `readonly: false` needs from Apple: create a certificate from a certificate signing
/// request, and create or renew a profile listing given certificates. `sync_code_signing` uses the
/// App Store Connect API through it.
public protocol MatchPortal: Sendable {
    /// The DER certificate Apple issues for `csrPEM`, and its portal id (fastlane's file name).
    func createCertificate(type: MatchType, csrPEM: [UInt8]) async throws -> (id: String, der: [UInt8])
    /// A new signed profile for `appIdentifier` listing `certificateIDs`.
    func createProfile(type: MatchType, appIdentifier: String, platform: MatchPlatform,
                       certificateIDs: [String]) async throws -> [UInt8]
    /// The UDIDs of the team's enabled devices for `platform` (what a new development or ad hoc profile lists).
    func enabledDevices(platform: MatchPlatform) async throws -> [String]
}
