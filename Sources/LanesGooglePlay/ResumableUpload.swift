#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesHTTP
import LanesUpload
internal import LanesPlatform

/// A media upload method of the API: where its resumable sessions start and its size limit, as
/// Google's discovery document gives them (`mediaUpload.maxSize`, `protocols.resumable.path`).
public struct MediaMethod: Sendable {
    /// The method's id in the discovery document, for messages.
    public let id: String
    /// The resumable protocol's path, its parameters filled in.
    let path: String
    let query: [(String, String)]
    let maximumSize: Int64
    let contentType: String

    public static func bundle(packageName: String, editID: String) -> MediaMethod {
        MediaMethod(id: "edits.bundles.upload", path: resumable(GooglePlayClient.edit(packageName, editID) + "/bundles"), query: [],
                    maximumSize: 53_687_091_200, contentType: "application/octet-stream")
    }

    public static func apk(packageName: String, editID: String) -> MediaMethod {
        MediaMethod(id: "edits.apks.upload", path: resumable(GooglePlayClient.edit(packageName, editID) + "/apks"), query: [],
                    maximumSize: 10_737_418_240, contentType: "application/vnd.android.package-archive")
    }

    /// `type` is proguard (mapping.txt) or nativeCode (native debug symbols).
    public static func deobfuscationFile(packageName: String, editID: String, versionCode: Int, type: String) -> MediaMethod {
        MediaMethod(id: "edits.deobfuscationfiles.upload",
                    path: resumable(GooglePlayClient.edit(packageName, editID) + "/apks/\(versionCode)/deobfuscationFiles/\(HTTPURL.encode(type))"),
                    query: [], maximumSize: 2_097_152_000, contentType: "application/octet-stream")
    }

    public static func image(packageName: String, editID: String, language: String, type: String, contentType: String) -> MediaMethod {
        MediaMethod(id: "edits.images.upload",
                    path: resumable(GooglePlayClient.edit(packageName, editID) + "/listings/\(HTTPURL.encode(language))/\(HTTPURL.encode(type))"),
                    query: [], maximumSize: 15_728_640, contentType: contentType)
    }

    public static func internalSharingBundle(packageName: String) -> MediaMethod {
        MediaMethod(id: "internalappsharingartifacts.uploadbundle",
                    path: resumable("/androidpublisher/v3/applications/internalappsharing/\(HTTPURL.encode(packageName))/artifacts/bundle"),
                    query: [], maximumSize: 10_737_418_240, contentType: "application/octet-stream")
    }

    public static func internalSharingAPK(packageName: String) -> MediaMethod {
        MediaMethod(id: "internalappsharingartifacts.uploadapk",
                    path: resumable("/androidpublisher/v3/applications/internalappsharing/\(HTTPURL.encode(packageName))/artifacts/apk"),
                    query: [], maximumSize: 1_073_741_824, contentType: "application/vnd.android.package-archive")
    }

    static func resumable(_ apiPath: String) -> String { "/resumable/upload" + apiPath }
}

/// How a resumable upload moves: chunk size (a multiple of 256 KiB, as Google requires) and how
/// many times one chunk is tried before the upload fails.
public struct ResumableSettings: Sendable {
    public var chunkSize: Int64
    public var attemptsPerChunk: Int

    public static let granularity: Int64 = 256 << 10

    public init(chunkSize: Int64 = 8 << 20, attemptsPerChunk: Int = 6) {
        self.chunkSize = max(Self.granularity, chunkSize / Self.granularity * Self.granularity)
        self.attemptsPerChunk = max(1, attemptsPerChunk)
    }
}

extension GooglePlayClient {
    /// Google's resumable upload protocol: a POST starts a session (the file's type and length in
    /// `X-Upload-Content-*`; Google answers with the session's URL in `Location`), then each chunk is
    /// a PUT with `Content-Range: bytes FIRST-LAST/TOTAL`, answered `308` with the `Range` Google has
    /// until the last, which answers the method's resource. A chunk that fails (a 5xx, a 429, a broken
    /// connection) is followed by a status query (`Content-Range: bytes */TOTAL`) and the upload goes
    /// on from where Google says it is. Chunks are streamed from the file, so memory does not grow
    /// with its size. Returns the final answer's body. Blocking: call inside `call`.
    public func uploadResumable(file path: String, method: MediaMethod, settings: ResumableSettings = ResumableSettings(),
                                progress: any ProgressReporter = SilentProgress()) throws -> [UInt8] {
        let size = try Self.fileSize(path)
        guard size <= method.maximumSize else {
            throw UploadError(.configuration, "Google Play: \(path) is \(ByteCount.text(size)), over the \(ByteCount.text(method.maximumSize)) \(method.id) accepts")
        }
        let name = "\(method.id) (\(FilePathName.last(path)))"
        let started = try perform(HTTPRequest(method: "POST", url: url(method.path, [("uploadType", "resumable")] + method.query), headers: [
            ("X-Upload-Content-Type", method.contentType), ("X-Upload-Content-Length", String(size)),
        ], body: .empty, idempotent: false), name: "POST \(method.id) (start)")
        guard let location = started.header("Location"), let session = HTTPURL(location),
              session.isTLS == baseURL.isTLS, session.host == baseURL.host, session.port == baseURL.port else {
            throw UploadError(.transfer, "Google Play: \(name): the upload session's URL is missing or on another server")
        }
        // The session URL lets anyone add bytes to this upload: it is kept out of every output.
        registerSecret(location)

        progress.start(name: FilePathName.last(path), total: size)
        var offset: Int64 = 0
        var failures = 0
        while true {
            if isCancelled { throw CancellationError() }
            let length = min(settings.chunkSize, size - offset)
            var request = HTTPRequest(method: "PUT", url: session, headers: [
                ("Authorization", "Bearer \(try bearer())"),
                ("Content-Range", length > 0 ? "bytes \(offset)-\(offset + length - 1)/\(size)" : "bytes */\(size)"),
            ], body: length > 0 ? .file(path: path, offset: offset, length: length) : .empty)
            request.followsRedirects = false
            let outcome: Result<HTTPResponse, TransportError>
            do { outcome = .success(try http.send(request)) } catch { outcome = .failure(error) }
            if isCancelled { throw CancellationError() }
            switch outcome {
            case .success(let response) where response.isSuccess:
                progress.finish(completed: size, total: size)
                return response.body
            case .success(let response) where response.status == 308:
                let next = Self.received(response)
                guard next <= size else { throw UploadError(.transfer, "Google Play: \(name): Google claims more bytes than the file has") }
                if next > offset { failures = 0 }
                offset = next
                progress.update(completed: offset, total: size)
                continue
            case .success(let response) where response.status == 404 || response.status == 410:
                throw UploadError(.transfer, "Google Play: \(name): the upload session expired (\(response.status))", hint: "run again: a new session starts from the first byte")
            case .success(let response) where response.status == 401:
                _ = try bearer(renew: true)
                failures += 1
            case .success(let response) where !RetryPolicy.isRetryable(response):
                throw GooglePlayError.from(status: response.status, body: response.body, request: "PUT \(name)", keySource: account.variable)
            case .success(let response):
                failures += 1
                guard failures < settings.attemptsPerChunk else {
                    throw GooglePlayError.from(status: response.status, body: response.body, request: "PUT \(name)", keySource: account.variable)
                }
                var attempt = failures
                try pause(afterAttempt: &attempt, what: "\(name) at byte \(offset)", problem: "HTTP \(response.status)", response: response)
            case .failure(let error):
                failures += 1
                guard error.isRetryable, failures < settings.attemptsPerChunk else {
                    throw UploadError(.transfer, "Google Play: \(name) failed at byte \(offset) of \(size): \(error.detail)")
                }
                var attempt = failures
                try pause(afterAttempt: &attempt, what: "\(name) at byte \(offset)", problem: error.detail, response: nil)
            }
            // Where is the upload now? Google may have kept part of the failed chunk.
            offset = try status(of: session, size: size, name: name, completed: { _ in })
            progress.update(completed: offset, total: size)
        }
    }

    /// The number of bytes Google has (`Range: bytes=0-LAST` of a 308), or `size` when the upload is complete.
    private func status(of session: HTTPURL, size: Int64, name: String, completed: ([UInt8]) -> Void) throws -> Int64 {
        var request = HTTPRequest(method: "PUT", url: session, headers: [
            ("Authorization", "Bearer \(try bearer())"), ("Content-Range", "bytes */\(size)"),
        ])
        request.followsRedirects = false
        for attempt in 1...retry.attempts {
            if isCancelled { throw CancellationError() }
            do {
                let response = try http.send(request)
                if response.status == 308 { return Self.received(response) }
                if response.isSuccess { return size }  // the next PUT (bytes */size) fetches the final answer
                guard RetryPolicy.isRetryable(response), attempt < retry.attempts else {
                    throw GooglePlayError.from(status: response.status, body: response.body, request: "PUT \(name) (status)", keySource: account.variable)
                }
            } catch let error as TransportError {
                if isCancelled { throw CancellationError() }
                guard error.isRetryable, attempt < retry.attempts else {
                    throw UploadError(.transfer, "Google Play: \(name): cannot ask how far the upload got: \(error.detail)")
                }
            }
            var next = attempt
            try pause(afterAttempt: &next, what: "\(name) (status)", problem: "no answer", response: nil)
        }
        throw UploadError(.transfer, "Google Play: \(name): cannot ask how far the upload got")
    }

    /// `Range: bytes=0-N` means N + 1 bytes arrived; no Range, none.
    static func received(_ response: HTTPResponse) -> Int64 {
        guard let range = response.header("Range"), let dash = range.lastIndex(of: "-"), let last = Int64(range[range.index(after: dash)...]) else { return 0 }
        return last + 1
    }

    static func fileSize(_ path: String) throws(UploadError) -> Int64 {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw UploadError(.configuration, "Google Play: \(path) is not a readable file")
        }
        return Int64(info.st_size)
    }

    // MARK: Media methods

    /// Uploads an .aab into the edit; its version code as Google read it.
    public func uploadBundle(packageName: String, editID: String, path: String, settings: ResumableSettings = ResumableSettings(),
                             progress: any ProgressReporter = SilentProgress()) throws -> Int {
        let body = try uploadResumable(file: path, method: .bundle(packageName: packageName, editID: editID), settings: settings, progress: progress)
        guard let code = try? JSONDecoder().decode(BundleAnswer.self, from: Data(body)).versionCode else {
            throw UploadError(.transfer, "Google Play: the bundle upload of \(path) answered no versionCode")
        }
        return code
    }

    public func uploadAPK(packageName: String, editID: String, path: String, settings: ResumableSettings = ResumableSettings(),
                          progress: any ProgressReporter = SilentProgress()) throws -> Int {
        let body = try uploadResumable(file: path, method: .apk(packageName: packageName, editID: editID), settings: settings, progress: progress)
        guard let code = try? JSONDecoder().decode(ApkAnswer.self, from: Data(body)).versionCode else {
            throw UploadError(.transfer, "Google Play: the APK upload of \(path) answered no versionCode")
        }
        return code
    }

    public func uploadDeobfuscationFile(packageName: String, editID: String, versionCode: Int, path: String, type: String = "proguard") throws {
        _ = try uploadResumable(file: path, method: .deobfuscationFile(packageName: packageName, editID: editID, versionCode: versionCode, type: type))
    }

    public func uploadImage(packageName: String, editID: String, language: String, type: String, path: String) throws {
        let contentType = path.lowercased().hasSuffix(".png") ? "image/png" : "image/jpeg"
        _ = try uploadResumable(file: path, method: .image(packageName: packageName, editID: editID, language: language, type: type, contentType: contentType))
    }

    /// Uploads to internal app sharing; the artifact's download URL.
    public func uploadForInternalSharing(packageName: String, path: String, isBundle: Bool,
                                         progress: any ProgressReporter = SilentProgress()) throws -> InternalAppSharingArtifact {
        let method: MediaMethod = isBundle ? .internalSharingBundle(packageName: packageName) : .internalSharingAPK(packageName: packageName)
        let body = try uploadResumable(file: path, method: method, progress: progress)
        guard let artifact = try? JSONDecoder().decode(InternalAppSharingArtifact.self, from: Data(body)), artifact.downloadUrl != nil else {
            throw UploadError(.transfer, "Google Play: internal app sharing answered no downloadUrl for \(path)")
        }
        return artifact
    }
}

enum FilePathName {
    static func last(_ path: String) -> String { String(path.split(separator: "/").last ?? Substring(path)) }
}
