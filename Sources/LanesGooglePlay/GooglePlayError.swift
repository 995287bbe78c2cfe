/// A request Google Play refused, with Google's reason: `error.message` and the first
/// `error.errors[].reason` (or `error.status`). Never the token, the key or an upload session URL.
public struct GooglePlayError: Error, Sendable {
    public let status: Int
    /// `METHOD /path` (no query).
    public let request: String
    public let reason: String?
    public let detail: String
    /// The option and environment variable the key came from, named in hints.
    let keySource: String

    public var message: String {
        "Google Play answered \(status) to \(request): \(detail)\(reason.map { " (\($0))" } ?? "")"
    }

    public var hint: String? {
        switch status {
        case 401: return "check the service account key (\(keySource)); it may be deleted or disabled"
        case 403: return "give the service account access to this app in the Play Console (Users and permissions), and enable the Google Play Android Developer API for its project"
        case 404: return "check package_name: the app must exist in the Play Console (its first upload is made there by hand)"
        case 409: return "another edit of this app was committed while this one was open (another lane, or the Play Console): run again"
        default: return nil
        }
    }

    /// Google's error document, as one error naming the request.
    static func from(status: Int, body: [UInt8], request: String, keySource: String) -> GooglePlayError {
        let document = GoogleErrorDocument.decode(body)
        let detail = document?.error.message ?? String(decoding: body.prefix(200), as: UTF8.self)
        let reason = document?.error.errors?.first?.reason ?? document?.error.status
        return GooglePlayError(status: status, request: request, reason: reason, detail: detail, keySource: keySource)
    }
}
