#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesUpload
import Synchronization
import LanesHTTP
internal import LanesPlatform

/// Waiting between attempts and polls. `TaskSleeper` is `Task.sleep`, so cancelling the step's task
/// ends a wait at once; tests pass one that records and returns.
public protocol AsyncSleeper: Sendable {
    func sleep(seconds: Double) async throws
}

public struct TaskSleeper: AsyncSleeper {
    public init() {}

    public func sleep(seconds: Double) async throws {
        guard seconds > 0 else { try Task.checkCancellation(); return }
        try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
    }
}

/// App Store Connect's REST API: a JWT (ES256, 20 minutes, renewed a minute before it ends) on every
/// request, `links.next` followed page by page, and failures named by Apple's `errors[].detail` and
/// the request (method and path; never the token). Retries follow the HTTP client's one rule
/// (`HTTPRequest.isIdempotent`, `RetryPolicy.isRetryable`): GET and DELETE are tried again on 429
/// (after `Retry-After`), 5xx and connection failures; POST and PATCH only when they surely never
/// left, since a second try could create a second resource. The waits are the client's own
/// (`AsyncSleeper`), so cancelling the task ends them at once.
public final class AppStoreConnectClient: Sendable {
    public let key: AppStoreConnectKey
    public let baseURL: HTTPURL
    let http: HTTPClient
    let registerSecret: @Sendable (String) -> Void
    private let sleeper: any AsyncSleeper
    private let now: @Sendable () -> Int
    private let log: @Sendable (String) -> Void
    private let retry: RetryPolicy
    private let token = Mutex<(value: String, expires: Int)?>(nil)

    public static let defaultBaseURL = "https://api.appstoreconnect.apple.com"
    /// Where an enterprise (`in_house`) key's requests go, as fastlane sends them.
    public static let enterpriseBaseURL = "https://api.enterprise.developer.apple.com"
    /// Points lanes at another App Store Connect (a local one in tests).
    public static let baseURLVariable = "LANES_ASC_API_URL"

    public init(key: AppStoreConnectKey, baseURL: HTTPURL, registerSecret: @escaping @Sendable (String) -> Void,
                http: HTTPClient = HTTPClient(retry: RetryPolicy(attempts: 1)), retry: RetryPolicy = RetryPolicy(attempts: 5, baseDelay: 1, maximumDelay: 30),
                sleeper: any AsyncSleeper = TaskSleeper(), now: @escaping @Sendable () -> Int = systemSeconds,
                log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.key = key
        self.baseURL = baseURL
        self.http = http
        self.registerSecret = registerSecret
        self.retry = retry
        self.sleeper = sleeper
        self.now = now
        self.log = log
        key.secrets.forEach(registerSecret)
    }

    /// The base URL `LANES_ASC_API_URL` names, else Apple's (its enterprise API for an in-house key).
    public static func baseURL(environment: [String: String], inHouse: Bool) throws(UploadError) -> HTTPURL {
        let text = environment[baseURLVariable] ?? (inHouse ? enterpriseBaseURL : defaultBaseURL)
        guard let url = HTTPURL(text) else {
            throw UploadError(.configuration, "\(baseURLVariable)=\(text) is not an http(s) URL", hint: "check \(baseURLVariable)")
        }
        return url
    }

    // MARK: Requests

    /// One resource document (`{"data": {...}}`) or any typed answer.
    public func get<Answer: Decodable>(_ path: String, query: [(String, String)] = [], as type: Answer.Type) async throws -> Answer {
        let response = try await perform("GET", url(path, query), body: nil)
        return try decode(type, response, "GET", path)
    }

    /// Every resource of a collection, following `links.next` until it ends.
    public func getAll<Resource: Decodable & Sendable>(_ path: String, query: [(String, String)] = [], as type: Resource.Type,
                                                       pageLimit: Int = 1000) async throws -> [Resource] {
        try await getPages(path, query: query, as: Page<Resource>.self, pageLimit: pageLimit).flatMap(\.data)
    }

    /// Every page of a collection as its whole document (with `included`, say), following
    /// `links.next` until it ends or `pageLimit` pages were read.
    public func getPages<Document: PagedDocument>(_ path: String, query: [(String, String)] = [], as type: Document.Type,
                                                  pageLimit: Int = 1000) async throws -> [Document] {
        var results: [Document] = []
        var next: HTTPURL? = url(path, query)
        while let page = next {
            let response = try await perform("GET", page, body: nil)
            let document = try decode(Document.self, response, "GET", page.path)
            results.append(document)
            guard let link = document.nextLink else { break }
            guard let linked = HTTPURL(link), linked.isTLS == baseURL.isTLS, linked.host == baseURL.host, linked.port == baseURL.port else {
                // The token goes only to the server it was made for.
                throw UploadError(.transfer, "App Store Connect: GET \(path): links.next points at another server (\(link))")
            }
            guard results.count < pageLimit else { throw UploadError(.transfer, "App Store Connect: GET \(path): more than \(pageLimit) pages") }
            next = linked
        }
        return results
    }

    /// POST, PATCH or DELETE with a JSON body, sent once; the answer's `data`, when there is one, decoded as `Answer`.
    @discardableResult
    public func send<Body: Encodable & Sendable, Answer: Decodable>(_ method: String, _ path: String, body: Body?,
                                                                     answer: Answer.Type) async throws -> Answer? {
        let bytes = try body.map { value in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return Array(try encoder.encode(value))
        }
        let response = try await perform(method, url(path, []), body: bytes)
        guard !response.body.isEmpty, response.status != 204 else { return nil }
        return try decode(answer, response, method, path)
    }

    public func send<Body: Encodable & Sendable>(_ method: String, _ path: String, body: Body?) async throws {
        try await send(method, path, body: body, answer: Ignored.self)
    }

    private struct Ignored: Decodable {}

    // MARK: Plumbing

    func url(_ path: String, _ query: [(String, String)]) -> HTTPURL {
        let text = query.map { HTTPURL.encode($0.0) + "=" + HTTPURL.encode($0.1) }.joined(separator: "&")
        return HTTPURL(isTLS: baseURL.isTLS, host: baseURL.host, port: baseURL.port,
                       path: baseURL.path == "/" ? path : baseURL.path + path, query: text.isEmpty ? nil : text)
    }

    /// The current token, made again when less than a minute of it is left.
    func bearer(renew: Bool = false) throws(UploadError) -> String {
        let now = now()
        if !renew, let current = token.withLock({ $0 }), current.expires - now > 60 { return current.value }
        let fresh = try key.token(now: now)
        registerSecret(fresh)
        token.withLock { $0 = (fresh, now + AppStoreConnectKey.lifetime) }
        return fresh
    }

    private func perform(_ method: String, _ url: HTTPURL, body: [UInt8]?) async throws -> HTTPResponse {
        let name = "\(method) \(url.path)"
        var attempt = 1
        var renewed = false
        while true {
            try Task.checkCancellation()
            var headers: [(name: String, value: String)] = [("Authorization", "Bearer \(try bearer())"), ("Accept", "application/json")]
            if body != nil { headers.append(("Content-Type", "application/json")) }
            let request = HTTPRequest(method: method, url: url, headers: headers, body: body.map { .bytes($0) } ?? .empty)
            let response: HTTPResponse
            // The socket call blocks: on a thread of its own, whose connection cancelling the task closes.
            let outcome: Result<HTTPResponse, TransportError> = try await BlockingThread.run(onCancel: { [http] in http.cancellation.cancel() }) { [http] in
                do throws(TransportError) { return .success(try http.send(request)) } catch { return .failure(error) }
            }
            switch outcome {
            case .success(let answer): response = answer
            case .failure(let error):
                let again = error.isRetryable && (request.isIdempotent || error.isBeforeSending)
                guard again, attempt < retry.attempts else {
                    throw UploadError(.transfer, "App Store Connect: \(name) failed: \(error.detail)",
                                      hint: request.isIdempotent || error.isBeforeSending ? nil : "not retried: it may have reached App Store Connect; look there before running again")
                }
                try await wait(retry.delay(afterAttempt: attempt, unitRandom: Double.random(in: 0.5...1)), name, error.detail, &attempt)
                continue
            }
            try Task.checkCancellation()
            if response.isSuccess { return response }
            // An expired or revoked token was never acted on, so one retry with a new token is safe for any method.
            if response.status == 401, !renewed {
                renewed = true
                _ = try bearer(renew: true)
                continue
            }
            if request.isIdempotent, RetryPolicy.isRetryable(response), attempt < retry.attempts {
                let delay = response.status == 429
                    ? min(retry.maximumDelay * 4, response.header("Retry-After").flatMap { Double($0.filter { !$0.isWhitespace }) }
                        ?? retry.delay(afterAttempt: attempt, unitRandom: 1))
                    : retry.delay(afterAttempt: attempt, unitRandom: Double.random(in: 0.5...1))
                try await wait(delay, name, "HTTP \(response.status)", &attempt)
                continue
            }
            throw Self.failure(response, name: name, key: key)
        }
    }

    /// A cancellable wait through the client's sleeper.
    func pause(_ seconds: Double) async throws { try await sleeper.sleep(seconds: seconds) }

    private func wait(_ seconds: Double, _ name: String, _ problem: String, _ attempt: inout Int) async throws {
        log("App Store Connect: \(name): \(problem); retry \(attempt) of \(retry.attempts - 1) in \(Int(seconds * 1000)) ms")
        try await sleeper.sleep(seconds: seconds)
        attempt += 1
    }

    private func decode<Answer: Decodable>(_ type: Answer.Type, _ response: HTTPResponse, _ method: String, _ path: String) throws(UploadError) -> Answer {
        do { return try JSONDecoder().decode(type, from: Data(response.body)) } catch {
            throw UploadError(.transfer, "App Store Connect: the answer to \(method) \(path) is not the JSON expected (\(response.status), \(response.body.count) bytes): \(error)")
        }
    }

    /// Apple's error document, as one message naming the request.
    static func failure(_ response: HTTPResponse, name: String, key: AppStoreConnectKey) -> AppStoreConnectError {
        let errors = (try? JSONDecoder().decode(ErrorDocument.self, from: Data(response.body)))?.errors ?? []
        let details = errors.map { error in
            [error.code, error.detail ?? error.title].compactMap { $0 }.joined(separator: ": ")
        }
        return AppStoreConnectError(status: response.status, request: name, codes: errors.compactMap(\.code),
                                    details: details.isEmpty ? [String(decoding: response.body.prefix(200), as: UTF8.self)] : details,
                                    keyID: key.keyID)
    }
}

/// A request App Store Connect refused, with Apple's reasons.
public struct AppStoreConnectError: Error, Sendable, CustomStringConvertible {
    public let status: Int
    /// `METHOD /path` (no query, no token).
    public let request: String
    public let codes: [String]
    public let details: [String]
    let keyID: String

    public var message: String {
        "App Store Connect answered \(status) to \(request): \(details.filter { !$0.isEmpty }.joined(separator: "; "))"
    }

    public var hint: String? {
        switch status {
        case 401: "check the API key (\(AppStoreConnectKey.Variable.keyID), \(AppStoreConnectKey.Variable.issuerID), \(AppStoreConnectKey.Variable.key)); key \(keyID) may be revoked"
        case 403: "key \(keyID)'s role does not allow this (App Store Connect > Users and Access > Integrations)"
        case 409: "the resource exists already or is in a state that does not allow this"
        default: nil
        }
    }

    public var uploadError: UploadError {
        UploadError(status == 401 || status == 403 || status == 404 || status == 409 || status == 422 ? .configuration : .transfer, message, hint: hint)
    }
}

struct ErrorDocument: Decodable {
    struct Item: Decodable { let status: String?; let code: String?; let title: String?; let detail: String? }
    let errors: [Item]
}

/// A document of a paged collection: where its next page is.
public protocol PagedDocument: Decodable, Sendable {
    var nextLink: String? { get }
}

/// `links.next` of a collection document.
public struct PageLinks: Decodable, Sendable { public let next: String? }

/// A page of a collection: `data` and `links.next`.
public struct Page<Resource: Decodable & Sendable>: PagedDocument {
    public let data: [Resource]
    public let links: PageLinks?
    public var nextLink: String? { links?.next }
}

/// A single-resource document.
public struct Document<Resource: Decodable>: Decodable {
    public let data: Resource
}
