import Synchronization
import LanesHTTP
internal import LanesPlatform

/// One of App Store Connect's `uploadOperations` (Apple's `UploadOperation` schema): which byte range
/// of the file goes where, with which method and headers. Builds (`buildUploadFiles`) and
/// screenshots (`appScreenshots`) are uploaded the same way.
public struct AssetUploadOperation: Decodable, Sendable {
    public struct Header: Decodable, Sendable { public let name: String; public let value: String }
    public let method: String?
    public let url: String
    public let length: Int64
    public let offset: Int64
    public let requestHeaders: [Header]?
}

public enum AssetUpload {
    /// The MD5 App Store Connect's commit wants (`sourceFileChecksum(s)`), in hex, and the file's size.
    public static func md5(of path: String) throws(UploadError) -> (hex: String, size: Int64) {
        let md5 = Digest(.md5)
        try FileDigest.compute([md5], path: path)
        let file = try ArtifactFile.artifact(path)
        defer { file.close() }
        return (md5.finish().hex, file.size)
    }

    /// Sends each operation's byte range of `path` to its (presigned) URL, `concurrency` at a time,
    /// after checking that the operations cover the file exactly once. The URLs' queries (their
    /// signatures) go to `registerSecret` first. Blocking; `http.cancellation` stops it.
    public static func send(_ operations: [AssetUploadOperation], path: String, size: Int64, http: HTTPClient, concurrency: Int = 4,
                            what: String, registerSecret: @Sendable (String) -> Void,
                            progress: any ProgressReporter = SilentProgress()) throws(UploadError) {
        var covered: Int64 = 0
        for operation in operations.sorted(by: { $0.offset < $1.offset }) {
            guard operation.offset == covered, operation.length > 0 else { covered = -1; break }
            covered += operation.length
        }
        guard !operations.isEmpty, covered == size else {
            throw UploadError(.transfer, "\(what): App Store Connect's upload operations do not cover the \(size)-byte file exactly")
        }
        for operation in operations {
            if let query = HTTPURL(operation.url)?.query { registerSecret(query) }
        }
        let counter = TransferCounter(name: FilePathName.last(path), total: size, reporter: progress)
        let state = Mutex<(next: Int, failure: UploadError?)>((0, nil))
        ParallelWorkers.run(count: min(concurrency, operations.count)) { _ in
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
                        // The URL's path only: its query is a signature.
                        failure = response.isSuccess ? nil : UploadError(.transfer, "\(what): part \(index + 1) of \(operations.count): \(url.host)\(url.path) answered \(response.status)")
                    } catch {
                        failure = UploadError(.transfer, "\(what): part \(index + 1) of \(operations.count): \(error.detail)")
                    }
                } else {
                    failure = UploadError(.transfer, "\(what): upload operation \(index + 1) has an invalid URL")
                }
                if let failure {
                    state.withLock { value in if value.failure == nil { value.failure = failure } }
                    return
                }
            }
        }
        if let failure = state.withLock({ $0.failure }) { throw failure }
        counter.finish()
    }
}
