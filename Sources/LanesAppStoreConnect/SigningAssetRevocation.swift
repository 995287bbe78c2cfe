import LanesUpload
import LanesHTTP

extension AppStoreConnectClient {
    /// The team's certificates of Apple's `types` (`DISTRIBUTION`, `IOS_DISTRIBUTION`, ...), every page read.
    public func certificates(types: [String]) async throws -> [Resource<CertificateAttributes>] {
        guard !types.isEmpty else { return [] }
        return try await getAll("/v1/certificates", query: [("filter[certificateType]", types.joined(separator: ",")), ("limit", "200")],
                                as: Resource<CertificateAttributes>.self)
    }

    /// The team's profiles of Apple's `types` (`IOS_APP_STORE`, ...), for every app, every page read.
    public func profiles(types: [String]) async throws -> [Resource<ProfileAttributes>] {
        guard !types.isEmpty else { return [] }
        return try await getAll("/v1/profiles", query: [("filter[profileType]", types.joined(separator: ",")), ("limit", "200")],
                                as: Resource<ProfileAttributes>.self)
    }

    /// `DELETE /v1/profiles/{id}`.
    public func deleteProfile(id: String) async throws {
        try await send("DELETE", "/v1/profiles/\(HTTPURL.encode(id))", body: NoAttributes?.none)
    }

    /// `DELETE /v1/certificates/{id}`: Apple revokes the certificate.
    public func revokeCertificate(id: String) async throws {
        try await send("DELETE", "/v1/certificates/\(HTTPURL.encode(id))", body: NoAttributes?.none)
    }
}
