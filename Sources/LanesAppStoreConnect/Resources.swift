import LanesHTTP
/// The App Store Connect resources lanes reads, typed after Apple's OpenAPI description (only the
/// attributes lanes uses; every one optional, as Apple's schemas make them).
public struct Resource<Attributes: Decodable & Sendable>: Decodable, Sendable {
    public let type: String
    public let id: String
    public let attributes: Attributes?
}

public struct AppAttributes: Decodable, Sendable {
    public let name: String?
    public let bundleId: String?
    public let sku: String?
    public let primaryLocale: String?
}

public struct BuildAttributes: Decodable, Sendable {
    public let version: String?
    public let uploadedDate: String?
    public let expired: Bool?
    public let processingState: String?
    public let usesNonExemptEncryption: Bool?
}

public struct PreReleaseVersionAttributes: Decodable, Sendable {
    public let version: String?
    public let platform: String?
}

public struct AppStoreVersionAttributes: Decodable, Sendable {
    public let platform: String?
    public let versionString: String?
    public let appStoreState: String?
    public let appVersionState: String?
}

public struct BetaGroupAttributes: Decodable, Sendable {
    public let name: String?
    public let isInternalGroup: Bool?
}

public struct BetaBuildLocalizationAttributes: Decodable, Sendable {
    public let whatsNew: String?
    public let locale: String?
}

public typealias App = Resource<AppAttributes>
public typealias Build = Resource<BuildAttributes>

/// A JSON:API resource identifier (`{"type": "apps", "id": "123"}`).
public struct Linkage: Codable, Sendable {
    public let type: String
    public let id: String
    public init(type: String, id: String) { self.type = type; self.id = id }
}

/// `{"data": linkage}` and `{"data": [linkage]}`.
public struct ToOne: Codable, Sendable { public let data: Linkage }
public struct ToMany: Codable, Sendable { public let data: [Linkage] }

/// A create or update request document: `{"data": {"type", "id"?, "attributes"?, "relationships"?}}`.
public struct Request<Attributes: Encodable & Sendable>: Encodable, Sendable {
    public struct Body: Encodable, Sendable {
        public let type: String
        public let id: String?
        public let attributes: Attributes?
        public let relationships: [String: ToOne]?
    }
    public let data: Body

    public init(type: String, id: String? = nil, attributes: Attributes?, relationships: [String: ToOne]? = nil) {
        data = Body(type: type, id: id, attributes: attributes, relationships: relationships)
    }
}

/// For requests with relationships and no attributes.
public struct NoAttributes: Codable, Sendable {}
