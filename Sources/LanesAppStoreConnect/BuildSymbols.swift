#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesUpload
import LanesHTTP
internal import LanesPlatform

/// A build with what `download_dsyms` needs: its train (the pre-release version), number, upload
/// date, and its bundles' symbols. App Store Connect's public API gives a dSYM as a build
/// bundle's `dSYMUrl` (`GET /v1/builds?include=buildBundles`), as fastlane's action reads it.
public struct BuildSymbols: Sendable {
    public let buildID: String
    /// `CFBundleShortVersionString` (the pre-release version's `version`).
    public let appVersion: String?
    /// `CFBundleVersion`.
    public let buildNumber: String?
    public let uploadedDate: String?
    public let bundles: [Bundle]

    public struct Bundle: Sendable {
        public let id: String
        public let bundleIdentifier: String?
        public let includesSymbols: Bool
        /// Nil while Apple has not made the dSYM yet.
        public let dSYMURL: String?
    }

    /// The bundles that include symbols, and their URLs: complete when every one has its URL.
    public var symbolBundles: [Bundle] { bundles.filter(\.includesSymbols) }
    public var isProcessed: Bool { symbolBundles.allSatisfy { $0.dSYMURL != nil } }
}

extension AppStoreConnectClient {
    static let symbolsInclude = "preReleaseVersion,buildBundles"
    static let symbolsFields: [(String, String)] = [
        ("fields[builds]", "version,uploadedDate,preReleaseVersion,buildBundles"),
        ("fields[preReleaseVersions]", "version,platform"),
        ("fields[buildBundles]", "bundleId,includesSymbols,dSYMUrl"),
        ("limit[buildBundles]", "50"),
    ]

    /// The app's builds on `platform`, newest upload first, with their bundles' symbols; filtered by
    /// train and build number when given. `first` reads one build only (fastlane's `latest`).
    public func buildSymbols(appID: String, platform: AppStorePlatform, version: String?, buildNumber: String?,
                             first: Bool = false) async throws -> [BuildSymbols] {
        var query: [(String, String)] = [("filter[app]", appID), ("filter[preReleaseVersion.platform]", platform.rawValue)]
        if let version { query.append(("filter[preReleaseVersion.version]", version)) }
        if let buildNumber { query.append(("filter[version]", buildNumber)) }
        query += [("sort", "-uploadedDate"), ("include", Self.symbolsInclude)] + Self.symbolsFields + [("limit", first ? "1" : "200")]
        let pages = try await getPages("/v1/builds", query: query, as: SymbolsPage.self, pageLimit: first ? 1 : 1000)
        let builds = pages.flatMap { page in page.data.map { $0.symbols(included: page.included ?? []) } }
        return first ? Array(builds.prefix(1)) : builds
    }

    /// One build read again (`GET /v1/builds/{id}`), while its dSYMs are being processed.
    public func buildSymbols(buildID: String) async throws -> BuildSymbols {
        let document = try await get("/v1/builds/\(HTTPURL.encode(buildID))", query: [("include", Self.symbolsInclude)] + Self.symbolsFields,
                                     as: SymbolsDocument.self)
        return document.data.symbols(included: document.included ?? [])
    }

    /// The dSYM zip at `url`, a presigned address of Apple's: fetched without the API token, which
    /// goes to App Store Connect only; https unless it is App Store Connect's own server.
    public func downloadSymbols(_ url: String, maximumBytes: Int) async throws -> [UInt8] {
        guard let target = HTTPURL(url), target.isTLS || target.origin == baseURL.origin else {
            throw UploadError(.transfer, "App Store Connect: a dSYM URL is not https: \(url.prefix(80))")
        }
        var built = HTTPRequest(method: "GET", url: target)
        built.maximumResponseBody = maximumBytes
        let request = built
        let shown = target.origin + target.path
        let outcome: Result<HTTPResponse, TransportError> = try await BlockingThread.run(onCancel: { [http] in http.cancellation.cancel() }) { [http] in
            do throws(TransportError) { return .success(try http.send(request)) } catch { return .failure(error) }
        }
        try Task.checkCancellation()
        switch outcome {
        case .failure(let error):
            throw UploadError(.transfer, "downloading the dSYM \(shown) failed: \(error.detail)")
        case .success(let response):
            guard response.isSuccess else { throw UploadError(.transfer, "downloading the dSYM \(shown) answered \(response.status)") }
            return response.body
        }
    }
}

/// `GET /v1/builds` with `include=preReleaseVersion,buildBundles`.
struct SymbolsPage: PagedDocument {
    let data: [SymbolsBuild]
    let included: [IncludedResource]?
    let links: PageLinks?
    var nextLink: String? { links?.next }
}

struct SymbolsDocument: Decodable, Sendable {
    let data: SymbolsBuild
    let included: [IncludedResource]?
}

struct SymbolsBuild: Decodable, Sendable {
    struct Relationships: Decodable, Sendable {
        struct One: Decodable, Sendable { let data: Linkage? }
        struct Many: Decodable, Sendable { let data: [Linkage]? }
        let preReleaseVersion: One?
        let buildBundles: Many?
    }

    let id: String
    let attributes: BuildAttributes?
    let relationships: Relationships?

    func symbols(included: [IncludedResource]) -> BuildSymbols {
        let train = relationships?.preReleaseVersion?.data.flatMap { link in included.first { $0.type == link.type && $0.id == link.id } }
        let bundles = (relationships?.buildBundles?.data ?? []).compactMap { link in
            included.first { $0.type == "buildBundles" && $0.id == link.id }
        }
        return BuildSymbols(buildID: id, appVersion: train?.attributes?.version, buildNumber: attributes?.version,
                            uploadedDate: attributes?.uploadedDate,
                            bundles: bundles.map { BuildSymbols.Bundle(id: $0.id, bundleIdentifier: $0.attributes?.bundleId,
                                                                       includesSymbols: $0.attributes?.includesSymbols == true,
                                                                       dSYMURL: $0.attributes?.dSYMUrl) })
    }
}

/// An included resource of either kind asked for: a pre-release version or a build bundle.
struct IncludedResource: Decodable, Sendable {
    struct Attributes: Decodable, Sendable {
        let version: String?
        let bundleId: String?
        let includesSymbols: Bool?
        let dSYMUrl: String?
    }

    let type: String
    let id: String
    let attributes: Attributes?
}
