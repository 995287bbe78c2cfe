#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesHTTP
import LanesUpload

/// The edit workflow: every change to an app goes into one edit (insert), which is committed
/// (or only validated) at the end, or deleted. These calls block: run them inside `call`.
extension GooglePlayClient {
    static func applications(_ packageName: String) -> String { "/androidpublisher/v3/applications/\(HTTPURL.encode(packageName))" }
    static func edit(_ packageName: String, _ editID: String) -> String { applications(packageName) + "/edits/\(HTTPURL.encode(editID))" }

    /// Exchanges the key for a fresh access token: what `validate_play_store_json_key` checks.
    public func signIn() throws { _ = try bearer(renew: true) }

    public func insertEdit(packageName: String) throws -> String {
        let name = "POST /applications/\(packageName)/edits"
        let response = try perform("POST", Self.applications(packageName) + "/edits", body: .bytes(Array("{}".utf8)),
                                   headers: [("Content-Type", "application/json")])
        guard let id = try decode(AppEdit.self, response, name).id, !id.isEmpty else {
            throw UploadError(.transfer, "Google Play: \(name) answered no edit id")
        }
        return id
    }

    public func commitEdit(packageName: String, editID: String, changesNotSentForReview: Bool) throws {
        let query = changesNotSentForReview ? [("changesNotSentForReview", "true")] : []
        _ = try perform("POST", Self.edit(packageName, editID) + ":commit", query: query)
    }

    public func validateEdit(packageName: String, editID: String) throws {
        _ = try perform("POST", Self.edit(packageName, editID) + ":validate")
    }

    public func deleteEdit(packageName: String, editID: String) throws {
        _ = try perform("DELETE", Self.edit(packageName, editID))
    }

    /// Deletes an edit even after this client was cancelled: one attempt on a fresh connection with
    /// short time limits (the token is renewed the same way if it must be).
    public func deleteEditForCleanup(packageName: String, editID: String) throws {
        let token = try bearer(cleanup: true)
        let request = HTTPRequest(method: "DELETE", url: url(Self.edit(packageName, editID), []), headers: [("Authorization", "Bearer \(token)")])
        let response = try http.sendCleanup(request)
        guard response.isSuccess || response.status == 404 else {
            throw GooglePlayError.from(status: response.status, body: response.body, request: "DELETE edit \(editID)", keySource: account.variable)
        }
    }

    // MARK: Tracks

    /// A track of the edit, or nil when the app has no such track.
    public func track(packageName: String, editID: String, track: String) throws -> Track? {
        let path = Self.edit(packageName, editID) + "/tracks/\(HTTPURL.encode(track))"
        do {
            return try decode(Track.self, try perform("GET", path), "GET tracks/\(track)")
        } catch let error as GooglePlayError where error.status == 404 {
            return nil
        }
    }

    public func tracks(packageName: String, editID: String) throws -> [Track] {
        try decode(TracksListResponse.self, try perform("GET", Self.edit(packageName, editID) + "/tracks"), "GET tracks").tracks ?? []
    }

    public func updateTrack(packageName: String, editID: String, track: Track) throws {
        let name = track.track ?? ""
        _ = try perform("PUT", Self.edit(packageName, editID) + "/tracks/\(HTTPURL.encode(name))", body: .bytes(Self.json(track)),
                        headers: [("Content-Type", "application/json")])
    }

    // MARK: Listings and images

    public func listings(packageName: String, editID: String) throws -> [Listing] {
        try decode(ListingsListResponse.self, try perform("GET", Self.edit(packageName, editID) + "/listings"), "GET listings").listings ?? []
    }

    public func listing(packageName: String, editID: String, language: String) throws -> Listing? {
        do {
            return try decode(Listing.self, try perform("GET", Self.edit(packageName, editID) + "/listings/\(HTTPURL.encode(language))"), "GET listings/\(language)")
        } catch let error as GooglePlayError where error.status == 404 {
            return nil
        }
    }

    public func updateListing(packageName: String, editID: String, listing: Listing) throws {
        let language = listing.language ?? ""
        _ = try perform("PUT", Self.edit(packageName, editID) + "/listings/\(HTTPURL.encode(language))", body: .bytes(Self.json(listing)),
                        headers: [("Content-Type", "application/json")])
    }

    public func images(packageName: String, editID: String, language: String, type: String) throws -> [PlayImage] {
        let path = Self.edit(packageName, editID) + "/listings/\(HTTPURL.encode(language))/\(HTTPURL.encode(type))"
        return try decode(ImagesListResponse.self, try perform("GET", path), "GET images \(language)/\(type)").images ?? []
    }

    public func deleteAllImages(packageName: String, editID: String, language: String, type: String) throws {
        _ = try perform("DELETE", Self.edit(packageName, editID) + "/listings/\(HTTPURL.encode(language))/\(HTTPURL.encode(type))")
    }

    /// Downloads an image Google serves (`PlayImage.url`), for `download_from_play_store`; only from the API's own server or https.
    public func download(_ location: String, maximumSize: Int = 16 << 20) throws -> [UInt8] {
        guard let url = HTTPURL(location), url.isTLS || (url.host == baseURL.host && url.port == baseURL.port) else {
            throw UploadError(.transfer, "Google Play: an image URL is neither https nor on the API's server: \(location)")
        }
        var request = HTTPRequest(method: "GET", url: url)
        request.maximumResponseBody = maximumSize
        let response: HTTPResponse
        do { response = try http.send(request) } catch {
            if isCancelled { throw CancellationError() }
            throw UploadError(.transfer, "Google Play: downloading an image failed: \(error.detail)")
        }
        guard response.isSuccess else { throw UploadError(.transfer, "Google Play: downloading an image answered \(response.status)") }
        return response.body
    }
}
