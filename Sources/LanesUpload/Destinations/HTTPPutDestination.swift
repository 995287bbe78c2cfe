import LanesHTTP
/// A PUT of the whole file to a URL (Artifactory, Nexus raw repositories, WebDAV), with the
/// checksum headers those servers verify, and basic or bearer authentication from the environment:
/// `LANES_HTTP_TOKEN` (bearer), or `LANES_HTTP_USER` with `LANES_HTTP_PASSWORD` (basic).
public struct HTTPPutDestination: ArtifactDestination {
    public enum Authorization: Sendable {
        case none
        case bearer(token: String)
        case basic(user: String, password: String)

        /// Variables the user should check when the server refuses.
        var variables: String {
            switch self {
            case .none: "LANES_HTTP_TOKEN or LANES_HTTP_USER/LANES_HTTP_PASSWORD (none is set)"
            case .bearer: "LANES_HTTP_TOKEN"
            case .basic: "LANES_HTTP_USER and LANES_HTTP_PASSWORD"
            }
        }

        var header: (name: String, value: String)? {
            switch self {
            case .none: nil
            case .bearer(let token): ("Authorization", "Bearer \(token)")
            case .basic(let user, let password): ("Authorization", "Basic \(Array("\(user):\(password)".utf8).base64)")
            }
        }

        /// Values to redact.
        public var secrets: [String] {
            switch self {
            case .none: []
            case .bearer(let token): [token]
            case .basic(let user, let password): [password, Array("\(user):\(password)".utf8).base64]
            }
        }

        public static func from(environment: [String: String]) -> Authorization {
            if let token = environment["LANES_HTTP_TOKEN"], !token.isEmpty { return .bearer(token: token) }
            if let user = environment["LANES_HTTP_USER"], !user.isEmpty {
                return .basic(user: user, password: environment["LANES_HTTP_PASSWORD"] ?? "")
            }
            return .none
        }
    }

    public let url: HTTPURL
    public let authorization: Authorization
    let http: HTTPClient

    public init(url: HTTPURL, authorization: Authorization, http: HTTPClient) {
        self.url = url
        self.authorization = authorization
        self.http = http
    }

    public func upload(file path: String, metadata: ArtifactMetadata, progress: any ProgressReporter) throws(UploadError) -> UploadReceipt {
        let file = try ArtifactFile.artifact(path)
        let size = file.size
        file.close()
        let target = url.path.hasSuffix("/") ? url.with(path: url.path + HTTPURL.encode(FilePathName.last(path)), query: url.query) : url
        // The headers precede the body, so the file is hashed first: SHA-256 and SHA-1, which
        // Artifactory verifies, each on a thread. MD5 is left out: at a third of their speed it would
        // double the wait, and servers that check a checksum take these.
        let digests = try FileDigest.computeInParallel([.sha256, .sha1], path: path)
        let sums = (sha256: digests[0].hex, sha1: digests[1].hex)
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "application/octet-stream"),
            ("X-Checksum-Sha256", sums.sha256), ("X-Checksum-Sha1", sums.sha1),
        ]
        if let header = authorization.header { headers.append(header) }
        let counter = TransferCounter(name: FilePathName.last(path), total: size, reporter: progress)
        let response: HTTPResponse
        do {
            response = try http.send(HTTPRequest(method: "PUT", url: target, headers: headers, body: .file(path: path, offset: 0, length: size)),
                                     progress: counter.add)
        } catch {
            throw .transfer(target.description, error.detail, hint: "check the URL and the network")
        }
        switch response.status {
        case 200..<300:
            counter.finish()
            return UploadReceipt(destination: url.description, location: target.description, size: size, sha256: sums.sha256,
                                 details: ["status": String(response.status)])
        case 401, 403:
            throw .credentials(destination: target.description, variable: authorization.variables,
                               detail: "the server answered \(response.status)")
        case 409 where response.text.lowercased().contains("checksum"), 412 where response.text.lowercased().contains("checksum"):
            throw .checksumMismatch(destination: target.description, detail: "the server answered \(response.status): \(response.text.prefix(200))")
        default:
            throw .transfer(target.description, "the server answered \(response.status) to the PUT")
        }
    }
}
