import LanesHTTP
/// Where an S3 bucket is served, and how buckets are addressed there.
public struct S3Endpoint: Sendable {
    public enum Addressing: Sendable, Hashable {
        /// `https://host/bucket/key`: what S3-compatible servers (Ceph RGW, MinIO) answer by default.
        case path
        /// `https://bucket.host/key`: what AWS prefers.
        case virtualHosted
    }

    public let base: HTTPURL
    public let region: String
    public let addressing: Addressing

    public init(base: HTTPURL, region: String, addressing: Addressing) {
        self.base = base
        self.region = region
        self.addressing = addressing
    }

    /// `--endpoint`/`AWS_ENDPOINT_URL` when given (path-style unless told otherwise), else AWS in
    /// `region` (virtual-hosted). The region is `--region`, `AWS_REGION`, `AWS_DEFAULT_REGION` or us-east-1.
    public static func resolve(endpoint: String?, region: String?, addressing: Addressing? = nil,
                               environment: [String: String]) throws(UploadError) -> S3Endpoint {
        let region = region ?? environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"] ?? "us-east-1"
        if let text = endpoint ?? environment["AWS_ENDPOINT_URL_S3"] ?? environment["AWS_ENDPOINT_URL"] {
            guard let url = HTTPURL(text) else {
                throw .usage("--endpoint \(text) is not an http(s)://host[:port] URL (from --endpoint or AWS_ENDPOINT_URL)")
            }
            return S3Endpoint(base: url.with(path: "/"), region: region, addressing: addressing ?? .path)
        }
        let host = region == "us-east-1" ? "s3.amazonaws.com" : "s3.\(region).amazonaws.com"
        return S3Endpoint(base: HTTPURL(isTLS: true, host: host, path: "/"), region: region, addressing: addressing ?? .virtualHosted)
    }

    /// The URL of `key` in `bucket` (or the bucket itself when `key` is empty), with `query`.
    func url(bucket: String, key: String, query: String? = nil) -> HTTPURL {
        let encodedKey = HTTPURL.encode(key, keepSlash: true)
        switch addressing {
        case .path:
            return base.with(path: "/\(HTTPURL.encode(bucket))/\(encodedKey)", query: query)
        case .virtualHosted:
            return HTTPURL(isTLS: base.isTLS, host: "\(bucket).\(base.host)", port: base.port, path: "/\(encodedKey)", query: query)
        }
    }
}

/// The checksum a PUT carries, which the server verifies before it keeps anything:
/// `Content-MD5` (a mismatch is 400 BadDigest), or the SigV4 signed payload hash
/// `x-amz-content-sha256` (a mismatch is 400 XAmzContentSHA256Mismatch). SHA-256 is the default:
/// with the SHA extensions OpenSSL hashes it over twice as fast as MD5.
public enum PayloadChecksum: Sendable, Hashable {
    case md5([UInt8])
    case sha256([UInt8])

    public enum Kind: Sendable, Hashable { case md5, sha256 }
}

/// One part of a multipart upload as the server holds it.
public struct S3Part: Sendable, Hashable {
    public let number: Int
    public let etag: String
    public let size: Int64
}

/// S3's REST operations that an upload needs, signed with SigV4. Errors name the destination and
/// the credential variable to check.
public struct S3Client: Sendable {
    public let endpoint: S3Endpoint
    /// Asked before every request, so temporary credentials are renewed during a long upload.
    public let credentialProvider: S3CredentialProvider
    let http: HTTPClient
    let now: @Sendable () -> Int

    /// The credentials last signed with (their source and variables name what to check in errors).
    public var credentials: S3Credentials { credentialProvider.latest }

    public init(endpoint: S3Endpoint, credentials: S3Credentials, http: HTTPClient, now: @escaping @Sendable () -> Int = systemSeconds) {
        self.init(endpoint: endpoint, credentialProvider: S3CredentialProvider(fixed: credentials), http: http, now: now)
    }

    public init(endpoint: S3Endpoint, credentialProvider: S3CredentialProvider, http: HTTPClient, now: @escaping @Sendable () -> Int = systemSeconds) {
        self.endpoint = endpoint
        self.credentialProvider = credentialProvider
        self.http = http
        self.now = now
    }

    func send(_ method: String, bucket: String, key: String, query: String? = nil, headers: [(name: String, value: String)] = [],
              body: RequestBody = .empty, checksum: PayloadChecksum? = nil, cleanup: Bool = false, maximumResponseBody: Int = 16 << 20,
              progress: @Sendable (Int64) -> Void = { _ in }) throws(UploadError) -> HTTPResponse {
        var headers = headers
        let payloadHash: String
        switch (body, checksum) {
        case (.bytes(let bytes), _): payloadHash = Digest.hash(.sha256, bytes).hex
        case (.empty, _): payloadHash = Digest.hash(.sha256, [UInt8]()).hex
        case (.file, .sha256(let sum)): payloadHash = sum.hex
        case (.file, .md5(let sum)):
            headers.append(("Content-MD5", sum.base64))
            payloadHash = SigV4Signer.unsignedPayload
        case (.file, nil): payloadHash = SigV4Signer.unsignedPayload
        }
        // S3's calls are all safe to repeat (a multipart create or complete included), as the AWS SDKs retry them.
        var request = HTTPRequest(method: method, url: endpoint.url(bucket: bucket, key: key, query: query), headers: headers, body: body,
                                  idempotent: true)
        request.maximumResponseBody = maximumResponseBody
        SigV4Signer(credentials: try credentialProvider.current(), region: endpoint.region, now: now).sign(&request, payloadHash: payloadHash)
        do {
            return cleanup ? try http.sendCleanup(request) : try http.send(request, progress: progress)
        } catch {
            throw .transfer("s3://\(bucket)/\(key)", "\(error.detail)", hint: "check --endpoint (\(endpoint.base.origin)) and the network")
        }
    }

    /// Turns an error answer into an `UploadError` naming what to check.
    func failure(_ response: HTTPResponse, bucket: String, key: String, action: String) -> UploadError {
        let body = Substring(response.text)
        let code = XMLFields.value("Code", in: body) ?? "HTTP \(response.status)"
        let message = XMLFields.value("Message", in: body).map { ": \($0)" } ?? ""
        let destination = "s3://\(bucket)/\(key)"
        switch code {
        case "SignatureDoesNotMatch":
            return .credentials(destination: destination, variable: credentials.secretVariable,
                                detail: "\(response.status) SignatureDoesNotMatch while trying to \(action): the secret key does not match the access key")
        case "InvalidAccessKeyId":
            return .credentials(destination: destination, variable: credentials.keyVariable,
                                detail: "\(response.status) InvalidAccessKeyId: the server does not know access key \(credentials.accessKeyID)")
        case "AccessDenied":
            return .credentials(destination: destination, variable: "\(credentials.keyVariable) (its permissions)",
                                detail: "\(response.status) AccessDenied while trying to \(action)")
        case "BadDigest", "InvalidDigest", "XAmzContentSHA256Mismatch", "BadChecksum":
            return .checksumMismatch(destination: destination, detail: "\(response.status) \(code) while trying to \(action)\(message)")
        case "NoSuchBucket":
            return UploadError(.configuration, "\(destination): the bucket \(bucket) does not exist at \(endpoint.base.origin)",
                               hint: "check the bucket name, --endpoint and --region")
        default:
            return .transfer(destination, "cannot \(action): \(response.status) \(code)\(message)")
        }
    }

    // MARK: - Objects

    /// PUTs `length` bytes of `path` from `offset` as `key`, checked by the server against `checksum`.
    public func putObject(bucket: String, key: String, path: String, offset: Int64 = 0, length: Int64, checksum: PayloadChecksum,
                          contentType: String = "application/octet-stream", progress: @Sendable (Int64) -> Void = { _ in }) throws(UploadError) -> String {
        let response = try send("PUT", bucket: bucket, key: key, headers: [("Content-Type", contentType)],
                                body: .file(path: path, offset: offset, length: length), checksum: checksum, progress: progress)
        guard response.isSuccess else { throw failure(response, bucket: bucket, key: key, action: "upload the object") }
        return response.header("ETag") ?? ""
    }

    /// The size and ETag of `key`, or nil when it does not exist.
    public func headObject(bucket: String, key: String) throws(UploadError) -> (size: Int64, etag: String)? {
        let response = try send("HEAD", bucket: bucket, key: key)
        if response.status == 404 { return nil }
        guard response.isSuccess else { throw failure(response, bucket: bucket, key: key, action: "read the object's metadata") }
        return (Int64(response.header("Content-Length") ?? "") ?? -1, response.header("ETag") ?? "")
    }

    /// - Parameter maximumBytes: a larger object fails the download (a caller that keeps it in
    ///   memory bounds it); by default its size is the object's, not an API answer's.
    public func getObject(bucket: String, key: String, maximumBytes: Int = .max) throws(UploadError) -> [UInt8] {
        let response = try send("GET", bucket: bucket, key: key, maximumResponseBody: maximumBytes)
        guard response.isSuccess else { throw failure(response, bucket: bucket, key: key, action: "download the object") }
        return response.body
    }

    public func deleteObject(bucket: String, key: String) throws(UploadError) {
        let response = try send("DELETE", bucket: bucket, key: key)
        guard response.isSuccess || response.status == 404 else { throw failure(response, bucket: bucket, key: key, action: "delete the object") }
    }

    public func createBucket(_ bucket: String) throws(UploadError) {
        let response = try send("PUT", bucket: bucket, key: "")
        guard response.isSuccess || XMLFields.value("Code", in: Substring(response.text)) == "BucketAlreadyOwnedByYou" else {
            throw failure(response, bucket: bucket, key: "", action: "create the bucket")
        }
    }

    // MARK: - Multipart

    public func createMultipartUpload(bucket: String, key: String, contentType: String = "application/octet-stream") throws(UploadError) -> String {
        let response = try send("POST", bucket: bucket, key: key, query: "uploads=", headers: [("Content-Type", contentType)])
        guard response.isSuccess, let id = XMLFields.value("UploadId", in: Substring(response.text)) else {
            throw failure(response, bucket: bucket, key: key, action: "start a multipart upload")
        }
        return id
    }

    public func uploadPart(bucket: String, key: String, uploadID: String, number: Int, path: String, offset: Int64, length: Int64,
                           checksum: PayloadChecksum, progress: @Sendable (Int64) -> Void = { _ in }) throws(UploadError) -> String {
        let query = "partNumber=\(number)&uploadId=\(HTTPURL.encode(uploadID))"
        let response = try send("PUT", bucket: bucket, key: key, query: query,
                                body: .file(path: path, offset: offset, length: length), checksum: checksum, progress: progress)
        guard response.isSuccess else { throw failure(response, bucket: bucket, key: key, action: "upload part \(number)") }
        return response.header("ETag") ?? ""
    }

    /// Every part the server holds for `uploadID`, following pagination.
    public func listParts(bucket: String, key: String, uploadID: String) throws(UploadError) -> [S3Part] {
        var parts: [S3Part] = []
        var marker = 0
        while true {
            let query = "max-parts=1000&part-number-marker=\(marker)&uploadId=\(HTTPURL.encode(uploadID))"
            let response = try send("GET", bucket: bucket, key: key, query: query)
            guard response.isSuccess else { throw failure(response, bucket: bucket, key: key, action: "list the uploaded parts") }
            let body = Substring(response.text)
            for block in XMLFields.blocks("Part", in: body) {
                guard let number = XMLFields.value("PartNumber", in: block).flatMap({ Int($0) }),
                      let etag = XMLFields.value("ETag", in: block),
                      let size = XMLFields.value("Size", in: block).flatMap({ Int64($0) }) else { continue }
                parts.append(S3Part(number: number, etag: etag, size: size))
            }
            guard XMLFields.value("IsTruncated", in: body) == "true",
                  let next = XMLFields.value("NextPartNumberMarker", in: body).flatMap({ Int($0) }), next > marker else { return parts }
            marker = next
        }
    }

    /// Multipart uploads in progress under exactly `key`, oldest first.
    public func listMultipartUploads(bucket: String, key: String) throws(UploadError) -> [String] {
        let response = try send("GET", bucket: bucket, key: "", query: "prefix=\(HTTPURL.encode(key))&uploads=")
        guard response.isSuccess else { throw failure(response, bucket: bucket, key: key, action: "list multipart uploads") }
        return XMLFields.blocks("Upload", in: Substring(response.text)).compactMap { block in
            XMLFields.value("Key", in: block) == key ? XMLFields.value("UploadId", in: block) : nil
        }
    }

    public func completeMultipartUpload(bucket: String, key: String, uploadID: String, parts: [(number: Int, etag: String)]) throws(UploadError) {
        var xml = "<CompleteMultipartUpload>"
        for part in parts { xml += "<Part><PartNumber>\(part.number)</PartNumber><ETag>\(XMLFields.escape(part.etag))</ETag></Part>" }
        xml += "</CompleteMultipartUpload>"
        let response = try send("POST", bucket: bucket, key: key, query: "uploadId=\(HTTPURL.encode(uploadID))",
                                headers: [("Content-Type", "application/xml")], body: .bytes(Array(xml.utf8)))
        // S3 may answer 200 with an <Error> body when completion fails late.
        guard response.isSuccess, !response.text.contains("<Error>") else {
            throw failure(response, bucket: bucket, key: key, action: "complete the multipart upload")
        }
    }

    public func abortMultipartUpload(bucket: String, key: String, uploadID: String) throws(UploadError) {
        // Sent even when the upload was cancelled: an abandoned multipart upload costs storage for good.
        let response = try send("DELETE", bucket: bucket, key: key, query: "uploadId=\(HTTPURL.encode(uploadID))", cleanup: true)
        guard response.isSuccess || response.status == 404 else {
            throw failure(response, bucket: bucket, key: key, action: "abort the multipart upload")
        }
    }
}
