import Synchronization

/// The build a TestFlight upload declares.
public struct TestFlightBuildOptions: Sendable, Hashable {
    /// CFBundleShortVersionString and CFBundleVersion of the build (both required by the API).
    public var version: String?
    public var buildNumber: String?
    /// IOS, MAC_OS, TV_OS or VISION_OS.
    public var platform: String
    public var waitForProcessing: Bool
    public var pollInterval: Double
    public var maximumPolls: Int
    public var concurrency: Int

    public init(version: String? = nil, buildNumber: String? = nil, platform: String = "IOS", waitForProcessing: Bool = true,
                pollInterval: Double = 15, maximumPolls: Int = 240, concurrency: Int = 4) {
        self.version = version
        self.buildNumber = buildNumber
        self.platform = platform
        self.waitForProcessing = waitForProcessing
        self.pollInterval = pollInterval
        self.maximumPolls = maximumPolls
        self.concurrency = concurrency
    }
}

/// App Store Connect's build-upload API: create a `buildUploads` resource, a `buildUploadFiles`
/// resource whose `uploadOperations` say which byte range goes where, PUT each range, commit
/// with the MD5 checksum, then poll the build upload's state until processing ends.
public struct AppStoreConnectUpload: ArtifactDestination {
    public let appID: String
    let key: AppStoreConnectKey
    let options: TestFlightBuildOptions
    let http: HTTPClient
    let apiBase: HTTPURL
    let registerSecret: @Sendable (String) -> Void
    let sleeper: any Sleeper
    let now: @Sendable () -> Int

    var destination: String { "testflight://\(appID)" }

    // JSON:API documents, as in Apple's OpenAPI description.
    struct Linkage: Codable { let type: String; let id: String }
    struct Relation: Codable { let data: Linkage }
    struct BuildUploadCreate: Encodable {
        struct Data: Encodable {
            struct Attributes: Encodable { let cfBundleShortVersionString: String; let cfBundleVersion: String; let platform: String }
            let type = "buildUploads"
            let attributes: Attributes
            let relationships: [String: Relation]
        }
        let data: Data
    }
    struct FileCreate: Encodable {
        struct Data: Encodable {
            struct Attributes: Encodable { let assetType: String; let fileName: String; let fileSize: Int64; let uti: String }
            let type = "buildUploadFiles"
            let attributes: Attributes
            let relationships: [String: Relation]
        }
        let data: Data
    }
    struct FileCommit: Encodable {
        struct Data: Encodable {
            struct Attributes: Encodable {
                struct Checksums: Encodable { struct Checksum: Encodable { let hash: String; let algorithm: String }; let file: Checksum }
                let sourceFileChecksums: Checksums
                let uploaded: Bool
            }
            let type = "buildUploadFiles"
            let id: String
            let attributes: Attributes
        }
        let data: Data
    }
    struct Operation: Decodable {
        struct Header: Decodable { let name: String; let value: String }
        let method: String?
        let url: String
        let length: Int64
        let offset: Int64
        let requestHeaders: [Header]?
    }
    struct Document<Attributes: Decodable>: Decodable {
        struct Resource: Decodable { let id: String; let attributes: Attributes? }
        let data: Resource
    }
    struct Empty: Decodable {}
    struct FileAttributes: Decodable { let uploadOperations: [Operation]? }
    struct UploadAttributes: Decodable {
        struct State: Decodable {
            struct Detail: Decodable { let code: String?; let description: String? }
            let state: String?
            let errors: [Detail]?
        }
        let state: State?
    }

    public func upload(file path: String, metadata: ArtifactMetadata, progress: any ProgressReporter) throws(UploadError) -> UploadReceipt {
        guard let version = options.version, let build = options.buildNumber else {
            throw .usage("\(destination): the build's version and build number are required (CFBundleShortVersionString, CFBundleVersion)",
                         hint: "pass --app-version and --build-number, or version:/buildNumber: in the step")
        }
        let md5 = Digest(.md5)
        try FileDigest.compute([md5], path: path)
        let checksum = md5.finish().hex
        let file = try ArtifactFile.open(path)
        let size = file.size
        file.close()
        let name = FilePathName.last(path)

        let created = try call("POST", "/v1/buildUploads", BuildUploadCreate(data: .init(
            attributes: .init(cfBundleShortVersionString: version, cfBundleVersion: build, platform: options.platform),
            relationships: ["app": Relation(data: Linkage(type: "apps", id: appID))])), what: "create the build upload")
        let uploadID = try JSONBody.decode(Document<Empty>.self, from: created, destination: destination, what: "buildUploads").data.id

        let fileAnswer = try call("POST", "/v1/buildUploadFiles", FileCreate(data: .init(
            attributes: .init(assetType: "ASSET", fileName: name, fileSize: size, uti: name.hasSuffix(".pkg") ? "com.apple.pkg" : "com.apple.ipa"),
            relationships: ["buildUpload": Relation(data: Linkage(type: "buildUploads", id: uploadID))])), what: "reserve the file")
        let fileDocument = try JSONBody.decode(Document<FileAttributes>.self, from: fileAnswer, destination: destination, what: "buildUploadFiles")
        let operations = fileDocument.data.attributes?.uploadOperations ?? []
        guard !operations.isEmpty, operations.map(\.length).reduce(0, +) == size else {
            throw .transfer(destination, "App Store Connect's upload operations do not cover the \(size)-byte file")
        }

        let counter = TransferCounter(name: name, total: size, reporter: progress)
        try sendParts(operations, path: path, counter: counter)
        counter.finish()

        _ = try call("PATCH", "/v1/buildUploadFiles/\(fileDocument.data.id)", FileCommit(data: .init(
            id: fileDocument.data.id,
            attributes: .init(sourceFileChecksums: .init(file: .init(hash: checksum, algorithm: "MD5")), uploaded: true))),
            what: "commit the file")

        var state = "PROCESSING"
        if options.waitForProcessing {
            var polls = 0
            while true {
                let answer = try call("GET", "/v1/buildUploads/\(uploadID)", Optional<Int>.none, what: "read the processing state")
                let attributes = try JSONBody.decode(Document<UploadAttributes>.self, from: answer, destination: destination, what: "buildUploads").data.attributes
                state = attributes?.state?.state ?? "UNKNOWN"
                if state == "FAILED" {
                    let reasons = (attributes?.state?.errors ?? []).map { "\($0.code ?? "?"): \($0.description ?? "")" }.joined(separator: "; ")
                    throw .transfer(destination, "App Store Connect rejected build \(version) (\(build)): \(reasons)")
                }
                if state == "COMPLETE" { break }
                polls += 1
                guard polls < options.maximumPolls else {
                    throw .transfer(destination, "build \(version) (\(build)) was still \(state) after \(polls) polls", hint: "look at TestFlight in App Store Connect")
                }
                sleeper.sleep(seconds: options.pollInterval)
            }
        }
        return UploadReceipt(destination: destination, location: "buildUploads/\(uploadID)", size: size, sha256: nil,
                             details: ["buildUpload": uploadID, "state": state, "md5": checksum, "parts": String(operations.count)])
    }

    /// PUTs each operation's byte range to its (presigned) URL, several at a time.
    private func sendParts(_ operations: [Operation], path: String, counter: TransferCounter) throws(UploadError) {
        for operation in operations {
            if let query = HTTPURL(operation.url)?.query { registerSecret(query) }
        }
        let state = Mutex<(next: Int, failure: UploadError?)>((0, nil))
        let http = self.http, destination = self.destination
        ParallelWorkers.run(count: min(options.concurrency, operations.count)) { _ in
            while true {
                let index: Int? = state.withLock { value in
                    guard value.failure == nil, value.next < operations.count else { return nil }
                    defer { value.next += 1 }
                    return value.next
                }
                guard let index else { return }
                let operation = operations[index]
                let failure: UploadError?
                if let url = HTTPURL(operation.url) {
                    let headers = (operation.requestHeaders ?? []).map { (name: $0.name, value: $0.value) }
                    let request = HTTPRequest(method: operation.method ?? "PUT", url: url, headers: headers,
                                              body: .file(path: path, offset: operation.offset, length: operation.length))
                    do throws(TransportError) {
                        let response = try http.send(request, progress: counter.add)
                        failure = response.isSuccess ? nil : .transfer(destination, "part \(index + 1) of \(operations.count): \(url) answered \(response.status)")
                    } catch {
                        failure = .transfer(destination, "part \(index + 1) of \(operations.count): \(error.detail)")
                    }
                } else {
                    failure = .transfer(destination, "upload operation \(index + 1) has an invalid URL")
                }
                if let failure {
                    state.withLock { value in if value.failure == nil { value.failure = failure } }
                    return
                }
            }
        }
        if let failure = state.withLock({ $0.failure }) { throw failure }
    }

    private func call<Body: Encodable>(_ method: String, _ path: String, _ body: Body?, what: String) throws(UploadError) -> HTTPResponse {
        let token = try key.token(now: now())
        registerSecret(token)
        var headers: [(name: String, value: String)] = [("Authorization", "Bearer \(token)")]
        var payload = RequestBody.empty
        if let body {
            headers.append(("Content-Type", "application/json"))
            payload = .bytes(JSONBody.encode(body))
        }
        let response: HTTPResponse
        do { response = try http.send(HTTPRequest(method: method, url: apiBase.appending(path: path), headers: headers, body: payload)) } catch {
            throw .transfer(destination, "cannot \(what): \(error.detail)")
        }
        switch response.status {
        case 200..<300: return response
        case 401:
            throw .credentials(destination: destination, variable: "\(AppStoreConnectKey.Variable.keyID), \(AppStoreConnectKey.Variable.issuerID) and \(AppStoreConnectKey.Variable.key) (or ASC_KEY_ID, ASC_ISSUER_ID, ASC_PRIVATE_KEY)",
                               detail: "App Store Connect answered 401 to the request to \(what)")
        case 403:
            throw .credentials(destination: destination, variable: "\(AppStoreConnectKey.Variable.keyID) (the key's role)", detail: "App Store Connect answered 403 to the request to \(what)")
        case 409:
            throw UploadError(.configuration, "\(destination): App Store Connect refused to \(what) (409): \(response.text.prefix(300))",
                              hint: "a build with this version and build number may exist already")
        default:
            throw .transfer(destination, "cannot \(what): App Store Connect answered \(response.status)")
        }
    }
}
