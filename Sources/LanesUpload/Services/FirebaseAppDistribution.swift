import LanesHTTP
/// What to do with a release once Firebase has it.
public struct FirebaseReleaseOptions: Sendable, Hashable {
    public var releaseNotes: String?
    public var testers: [String]
    public var groups: [String]
    /// Seconds between polls of the upload's long-running operation, and the most polls.
    public var pollInterval: Double
    public var maximumPolls: Int

    public init(releaseNotes: String? = nil, testers: [String] = [], groups: [String] = [], pollInterval: Double = 5, maximumPolls: Int = 360) {
        self.releaseNotes = releaseNotes
        self.testers = testers
        self.groups = groups
        self.pollInterval = pollInterval
        self.maximumPolls = maximumPolls
    }
}

/// Firebase App Distribution through its REST API: an OAuth token from the service account's
/// RS256 JWT, `releases:upload` with the raw binary, polling of the operation, release notes,
/// then `:distribute` to testers and groups.
public struct FirebaseAppDistribution: ArtifactDestination {
    public let appID: String
    let account: GoogleServiceAccount
    let options: FirebaseReleaseOptions
    let http: HTTPClient
    let apiBase: HTTPURL
    let tokenURL: HTTPURL?
    let registerSecret: @Sendable (String) -> Void
    let sleeper: any Sleeper
    let now: @Sendable () -> Int

    static let scope = "https://www.googleapis.com/auth/cloud-platform"
    var destination: String { "firebase://\(appID)" }

    struct TokenAnswer: Decodable { let access_token: String? }
    struct Operation: Decodable {
        struct Failure: Decodable { let code: Int?; let message: String? }
        struct Answer: Decodable {
            struct Release: Decodable { let name: String?; let displayVersion: String?; let buildVersion: String? }
            let result: String?
            let release: Release?
        }
        let name: String?
        let done: Bool?
        let error: Failure?
        let response: Answer?
    }
    struct ReleaseNotesPatch: Encodable { struct Notes: Encodable { let text: String }; let name: String; let releaseNotes: Notes }
    struct Distribution: Encodable { let testerEmails: [String]; let groupAliases: [String] }

    public func upload(file path: String, metadata: ArtifactMetadata, progress: any ProgressReporter) throws(UploadError) -> UploadReceipt {
        guard let project = UploadDestination.firebaseProjectNumber(appID) else { throw .usage("\(destination): not a Firebase app ID") }
        let file = try ArtifactFile.artifact(path)
        let size = file.size
        file.close()
        let token = try accessToken()
        let auth = ("Authorization", "Bearer \(token)")

        let counter = TransferCounter(name: FilePathName.last(path), total: size, reporter: progress)
        let uploadURL = apiBase.appending(path: "/upload/v1/projects/\(project)/apps/\(appID)/releases:upload")
        let uploaded = try call(HTTPRequest(method: "POST", url: uploadURL, headers: [
            auth, ("X-Goog-Upload-Protocol", "raw"), ("X-Goog-Upload-File-Name", HTTPURL.encode(FilePathName.last(path))),
            ("Content-Type", "application/octet-stream"),
        ], body: .file(path: path, offset: 0, length: size)), what: "releases:upload", progress: counter.add)
        counter.finish()
        guard let operationName = try JSONBody.decode(Operation.self, from: uploaded, destination: destination, what: "releases:upload").name else {
            throw .transfer(destination, "releases:upload answered without an operation name")
        }

        var polls = 0
        var operation: Operation
        while true {
            let answer = try call(HTTPRequest(method: "GET", url: apiBase.appending(path: "/v1/\(operationName)"), headers: [auth]), what: "the upload operation")
            operation = try JSONBody.decode(Operation.self, from: answer, destination: destination, what: "the upload operation")
            if operation.done == true { break }
            polls += 1
            guard polls < options.maximumPolls else {
                throw .transfer(destination, "Firebase was still processing the upload after \(polls) polls", hint: "look at the app in the Firebase console")
            }
            sleeper.sleep(seconds: options.pollInterval)
        }
        if let error = operation.error {
            throw .transfer(destination, "Firebase rejected the binary: \(error.message ?? "code \(error.code ?? 0)")")
        }
        guard let release = operation.response?.release?.name else { throw .transfer(destination, "the finished operation names no release") }

        if let notes = options.releaseNotes {
            let body = JSONBody.encode(ReleaseNotesPatch(name: release, releaseNotes: .init(text: notes)))
            _ = try call(HTTPRequest(method: "PATCH", url: apiBase.appending(path: "/v1/\(release)", query: "updateMask=release_notes.text"),
                                     headers: [auth, ("Content-Type", "application/json")], body: .bytes(body)), what: "the release notes")
        }
        if !options.testers.isEmpty || !options.groups.isEmpty {
            let body = JSONBody.encode(Distribution(testerEmails: options.testers, groupAliases: options.groups))
            _ = try call(HTTPRequest(method: "POST", url: apiBase.appending(path: "/v1/\(release):distribute"),
                                     headers: [auth, ("Content-Type", "application/json")], body: .bytes(body)), what: ":distribute")
        }
        return UploadReceipt(destination: destination, location: release, size: size, sha256: nil,
                             details: ["release": release, "result": operation.response?.result ?? "",
                                       "testers": String(options.testers.count), "groups": options.groups.joined(separator: ",")])
    }

    /// Exchanges the service account's signed assertion for an OAuth access token.
    func accessToken() throws(UploadError) -> String {
        let endpoint = tokenURL ?? account.tokenURI.flatMap(HTTPURL.init) ?? HTTPURL(isTLS: true, host: "oauth2.googleapis.com", path: "/token")
        let assertion = try account.assertion(audience: account.tokenURI ?? "https://oauth2.googleapis.com/token", scope: Self.scope, now: now())
        registerSecret(assertion)
        let form = "grant_type=\(HTTPURL.encode("urn:ietf:params:oauth:grant-type:jwt-bearer"))&assertion=\(assertion)"
        let response: HTTPResponse
        do {
            response = try http.send(HTTPRequest(method: "POST", url: endpoint, headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                                 body: .bytes(Array(form.utf8)), idempotent: true))  // a token exchange
        } catch {
            throw .transfer(destination, "cannot reach the token endpoint \(endpoint): \(error.detail)")
        }
        guard response.isSuccess else {
            throw .credentials(destination: destination, variable: account.variable,
                               detail: "the token endpoint answered \(response.status) for \(account.clientEmail)")
        }
        guard let token = try JSONBody.decode(TokenAnswer.self, from: response, destination: destination, what: "the token request").access_token else {
            throw .transfer(destination, "the token endpoint answered without an access_token")
        }
        registerSecret(token)
        return token
    }

    private func call(_ request: HTTPRequest, what: String, progress: @Sendable (Int64) -> Void = { _ in }) throws(UploadError) -> HTTPResponse {
        let response: HTTPResponse
        do { response = try http.send(request, progress: progress) } catch {
            throw .transfer(destination, "\(what): \(error.detail)")
        }
        switch response.status {
        case 200..<300: return response
        case 401, 403:
            throw .credentials(destination: destination, variable: account.variable,
                               detail: "\(what) answered \(response.status): the service account \(account.clientEmail) lacks access to \(appID)")
        case 404: throw UploadError(.configuration, "\(destination): \(what) answered 404: no such app", hint: "check the app ID after firebase://")
        default: throw .transfer(destination, "\(what) answered \(response.status)")
        }
    }
}
