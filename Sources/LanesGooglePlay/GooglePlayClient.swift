#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesHTTP
import LanesUpload
import Synchronization
internal import LanesPlatform

/// The Google Play Developer API (androidpublisher v3) for one service account: an OAuth access token
/// from the key's RS256 assertion (exchanged at the key's `token_uri`, renewed five minutes before it
/// ends, and once more when Google answers 401), JSON requests, and Google's resumable media uploads
/// (`ResumableUpload`). Retries: a 429 (after `Retry-After`) for any request, since Google refused it
/// unseen; 5xx and connection failures only for requests that may be sent twice (GET, PUT, DELETE).
///
/// The HTTP client blocks, so every call runs on a thread of its own (`call`), and cancelling the
/// calling task shuts its sockets and ends its waits at once. After that, only `deleteEditForCleanup`
/// still reaches Google (through `HTTPClient.sendCleanup`), so a cancelled lane leaves no open edit.
public final class GooglePlayClient: Sendable {
    public let account: GoogleServiceAccount
    public let baseURL: HTTPURL
    let tokenURL: HTTPURL
    let http: HTTPClient
    let retry: RetryPolicy
    let registerSecret: @Sendable (String) -> Void
    let log: @Sendable (String) -> Void
    let now: @Sendable () -> Int
    let sleeper: any Sleeper
    private let token = Mutex<(value: String, expires: Int)?>(nil)

    public static let defaultBaseURL = "https://androidpublisher.googleapis.com"
    public static let defaultTokenURI = "https://oauth2.googleapis.com/token"
    /// Points lanes at another Google Play (a local one in tests), as `LANES_ASC_API_URL` does for App Store Connect.
    public static let baseURLVariable = "LANES_GOOGLE_PLAY_API_URL"
    public static let scope = "https://www.googleapis.com/auth/androidpublisher"
    /// A token is renewed when less than this many seconds of it are left.
    static let renewalMargin = 300

    public init(account: GoogleServiceAccount, baseURL: HTTPURL, registerSecret: @escaping @Sendable (String) -> Void,
                timeouts: RequestTimeouts = RequestTimeouts(), retry: RetryPolicy = RetryPolicy(attempts: 5, baseDelay: 1, maximumDelay: 30),
                cancellation: TransferCancellation = TransferCancellation(), sleeper: (any Sleeper)? = nil,
                now: (@Sendable () -> Int)? = nil,
                log: @escaping @Sendable (String) -> Void = { _ in }) throws(UploadError) {
        self.account = account
        self.baseURL = baseURL
        self.tokenURL = try Self.tokenURL(account)
        // One attempt per send: the retries are this client's own, so each is logged and its wait cancellable.
        self.http = HTTPClient(timeouts: timeouts, retry: RetryPolicy(attempts: 1), cancellation: cancellation)
        self.retry = retry
        self.registerSecret = registerSecret
        self.sleeper = sleeper ?? ThreadSleeper(cancellation: cancellation)
        self.now = now ?? { Int(Date().timeIntervalSince1970) }
        self.log = log
        account.secrets.forEach(registerSecret)
    }

    /// The base URL `LANES_GOOGLE_PLAY_API_URL` names, else Google's.
    public static func baseURL(environment: [String: String]) throws(UploadError) -> HTTPURL {
        let text = environment[baseURLVariable].flatMap { $0.isEmpty ? nil : $0 } ?? defaultBaseURL
        guard let url = HTTPURL(text) else {
            throw UploadError(.configuration, "\(baseURLVariable)=\(text) is not an http(s) URL", hint: "check \(baseURLVariable)")
        }
        return url
    }

    /// The key's `token_uri` (Google's when absent). Plain http only to this machine: the signed
    /// assertion is a credential for an hour.
    static func tokenURL(_ account: GoogleServiceAccount) throws(UploadError) -> HTTPURL {
        let text = account.tokenURI ?? defaultTokenURI
        guard let url = HTTPURL(text) else {
            throw UploadError(.configuration, "Google Play: the key's token_uri \(text) is not an http(s) URL", hint: "check \(account.variable)")
        }
        guard url.isTLS || ["127.0.0.1", "::1", "localhost"].contains(url.host) else {
            throw UploadError(.configuration, "Google Play: the key's token_uri \(text) is plain http to another machine; the signed assertion would travel in clear",
                              hint: "use the key Google issued (token_uri https://oauth2.googleapis.com/token)")
        }
        return url
    }

    /// Runs blocking work of this client on a thread of its own; cancelling the task cancels its transfers.
    public func call<T: Sendable>(_ work: @escaping @Sendable (GooglePlayClient) throws -> T) async throws -> T {
        try Task.checkCancellation()
        return try await BlockingThread.run(onCancel: { [http] in http.cancellation.cancel() }) { try work(self) }
    }

    public var isCancelled: Bool { http.cancellation.isCancelled }

    // MARK: Token

    struct TokenAnswer: Decodable {
        let access_token: String?
        let expires_in: Int?
    }

    /// The current access token; a new one when less than `renewalMargin` seconds are left or `renew`.
    func bearer(renew: Bool = false, cleanup: Bool = false) throws -> String {
        let now = now()
        if !renew, let current = token.withLock({ $0 }), current.expires - now > Self.renewalMargin { return current.value }
        let assertion = try account.assertion(audience: account.tokenURI ?? Self.defaultTokenURI, scope: Self.scope, now: now)
        registerSecret(assertion)
        let form = "grant_type=\(HTTPURL.encode("urn:ietf:params:oauth:grant-type:jwt-bearer"))&assertion=\(assertion)"
        let request = HTTPRequest(method: "POST", url: tokenURL, headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                  body: .bytes(Array(form.utf8)), idempotent: true)
        var attempt = 1
        while true {
            let response: HTTPResponse
            do {
                response = cleanup ? try http.sendCleanup(request) : try http.send(request)
            } catch {
                if isCancelled && !cleanup { throw CancellationError() }
                guard !cleanup, error.isRetryable, attempt < retry.attempts else {
                    throw UploadError(.transfer, "Google Play: cannot reach the token endpoint \(tokenURL): \(error.detail)")
                }
                try pause(afterAttempt: &attempt, what: "the token request", problem: error.detail, response: nil)
                continue
            }
            if !cleanup, RetryPolicy.isRetryable(response), attempt < retry.attempts {
                try pause(afterAttempt: &attempt, what: "the token request", problem: "HTTP \(response.status)", response: response)
                continue
            }
            guard response.isSuccess else {
                let reason = (try? JSONDecoder().decode([String: String].self, from: Data(response.body)))?["error"] ?? "HTTP \(response.status)"
                throw UploadError(.configuration, "Google Play: the token endpoint refused the service account \(account.clientEmail): \(reason)",
                                  hint: "check \(account.variable): the key may be deleted or disabled, or the machine's clock wrong")
            }
            guard let answer = try? JSONDecoder().decode(TokenAnswer.self, from: Data(response.body)), let value = answer.access_token, !value.isEmpty else {
                throw UploadError(.transfer, "Google Play: the token endpoint answered without an access_token")
            }
            registerSecret(value)
            token.withLock { $0 = (value, now + (answer.expires_in ?? 3600)) }
            return value
        }
    }

    // MARK: Requests

    /// A request to the API (`path` below the base URL, starting with "/"), retried as the type
    /// comment says; returns the successful response or throws `GooglePlayError`.
    func perform(_ method: String, _ path: String, query: [(String, String)] = [], body: RequestBody = .empty,
                 headers extra: [(name: String, value: String)] = [], idempotent: Bool? = nil) throws -> HTTPResponse {
        try perform(HTTPRequest(method: method, url: url(path, query), headers: extra, body: body, idempotent: idempotent), name: "\(method) \(path)")
    }

    func perform(_ template: HTTPRequest, name: String) throws -> HTTPResponse {
        var attempt = 1
        var renewed = false
        while true {
            if isCancelled { throw CancellationError() }
            var request = template
            request.headers.append(("Authorization", "Bearer \(try bearer())"))
            let response: HTTPResponse
            do { response = try http.send(request) } catch {
                if isCancelled { throw CancellationError() }
                let again = error.isRetryable && (request.isIdempotent || error.isBeforeSending)
                guard again, attempt < retry.attempts else {
                    throw UploadError(.transfer, "Google Play: \(name) failed: \(error.detail)",
                                      hint: again ? nil : "not retried: it may have reached Google Play")
                }
                try pause(afterAttempt: &attempt, what: name, problem: error.detail, response: nil)
                continue
            }
            if response.isSuccess || response.status == 308 { return response }
            // An expired or revoked token was never acted on: one retry with a new token is safe for any method.
            if response.status == 401, !renewed {
                renewed = true
                _ = try bearer(renew: true)
                continue
            }
            let retryable = response.status == 429 || (request.isIdempotent && RetryPolicy.isRetryable(response))
            if retryable, attempt < retry.attempts {
                try pause(afterAttempt: &attempt, what: name, problem: "HTTP \(response.status)", response: response)
                continue
            }
            throw GooglePlayError.from(status: response.status, body: response.body, request: name, keySource: account.variable)
        }
    }

    /// Waits before the next attempt: `Retry-After` when a 429 says it (at most two minutes), else the policy's backoff.
    func pause(afterAttempt attempt: inout Int, what: String, problem: String, response: HTTPResponse?) throws {
        let asked = response.flatMap { $0.status == 429 ? $0.header("Retry-After") : nil }.flatMap { Double($0.filter { !$0.isWhitespace }) }
        let wait = asked.map { min(max($0, 0), 120) } ?? retry.delay(afterAttempt: attempt, unitRandom: Double.random(in: 0.5...1))
        log("Google Play: \(what): \(problem); retry \(attempt) of \(retry.attempts - 1) in \(Int(wait * 1000)) ms")
        sleeper.sleep(seconds: wait)
        if isCancelled { throw CancellationError() }
        attempt += 1
    }

    func url(_ path: String, _ query: [(String, String)]) -> HTTPURL {
        let text = query.map { HTTPURL.encode($0.0) + "=" + HTTPURL.encode($0.1) }.joined(separator: "&")
        let prefix = baseURL.path == "/" ? "" : (baseURL.path.hasSuffix("/") ? String(baseURL.path.dropLast()) : baseURL.path)
        return HTTPURL(isTLS: baseURL.isTLS, host: baseURL.host, port: baseURL.port, path: prefix + path, query: text.isEmpty ? nil : text)
    }

    func decode<Answer: Decodable>(_ type: Answer.Type, _ response: HTTPResponse, _ name: String) throws(UploadError) -> Answer {
        do { return try JSONDecoder().decode(type, from: Data(response.body)) } catch {
            throw UploadError(.transfer, "Google Play: the answer to \(name) is not the JSON expected (\(response.status), \(response.body.count) bytes)")
        }
    }

    static func json<Value: Encodable>(_ value: Value) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? Array(encoder.encode(value))) ?? []
    }
}

/// `{"error": {"code", "message", "status", "errors": [{"reason", "message"}]}}`.
struct GoogleErrorDocument: Decodable {
    struct Body: Decodable {
        struct Item: Decodable { let reason: String?; let message: String? }
        let code: Int?
        let message: String?
        let status: String?
        let errors: [Item]?
    }
    let error: Body

    static func decode(_ bytes: [UInt8]) -> GoogleErrorDocument? {
        try? JSONDecoder().decode(GoogleErrorDocument.self, from: Data(bytes))
    }
}
