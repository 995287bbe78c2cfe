internal import LanesPlatform
import Synchronization
import LanesHTTP

/// How an object is cut into parts.
public struct S3UploadOptions: Sendable, Hashable {
    /// Files above this size go up in parts.
    public var multipartThreshold: Int64
    /// The size of every part but the last (at least 5 MiB, S3's minimum; raised so there are at most 10,000).
    public var partSize: Int64
    /// Parts in flight at once, each on its own connection.
    public var concurrency: Int
    /// The checksum every PUT carries for the server to verify.
    public var checksum: PayloadChecksum.Kind

    public init(multipartThreshold: Int64 = 64 << 20, partSize: Int64 = 64 << 20, concurrency: Int = 4, checksum: PayloadChecksum.Kind = .md5) {
        self.multipartThreshold = multipartThreshold
        self.partSize = partSize
        self.concurrency = concurrency
        self.checksum = checksum
    }

    /// Computes this kind of checksum of a byte range.
    func checksum(path: String, offset: Int64, length: Int64) throws(UploadError) -> PayloadChecksum {
        switch checksum {
        case .md5:
            let digest = Digest(.md5)
            try FileDigest.compute([digest], path: path, offset: offset, length: length)
            return .md5(digest.finish())
        case .sha256:
            let digest = Digest(.sha256)
            try FileDigest.compute([digest], path: path, offset: offset, length: length)
            return .sha256(digest.finish())
        }
    }

    func partSize(for size: Int64) -> Int64 {
        let minimum: Int64 = 5 << 20
        let forCount = (size + 9_999) / 10_000
        return max(minimum, partSize, forCount)
    }
}

/// The checksum of every part, computed when a worker first needs it. MD5s go in batches of
/// `MD5Lanes.width` consecutive parts, one pass for the batch: the first worker to need a part of
/// a batch computes it while holding the batch's lock, and the others needing it wait on that lock.
final class PartChecksums: Sendable {
    private let path: String
    private let size: Int64
    private let partSize: Int64
    private let count: Int
    private let options: S3UploadOptions
    private let cancellation: TransferCancellation
    private let batches: [Batch]

    /// One batch's checksums, once computed (or the error that stopped them).
    private final class Batch: Sendable {
        let sums = Mutex<Result<[PayloadChecksum], UploadError>?>(nil)
    }

    init(path: String, size: Int64, partSize: Int64, count: Int, options: S3UploadOptions,
         cancellation: TransferCancellation = TransferCancellation()) {
        self.path = path
        self.cancellation = cancellation
        self.size = size
        self.partSize = partSize
        self.count = count
        self.options = options
        let batchCount = options.checksum == .md5 ? (count + MD5Lanes.width - 1) / MD5Lanes.width : 0
        batches = (0..<batchCount).map { _ in Batch() }
    }

    /// The checksum of part `number` (1-based).
    func checksum(part number: Int) throws(UploadError) -> PayloadChecksum {
        guard options.checksum == .md5 else {
            let (offset, length) = range(of: number)
            return try options.checksum(path: path, offset: offset, length: length)
        }
        let batch = (number - 1) / MD5Lanes.width
        let sums = batches[batch].sums.withLock { held -> Result<[PayloadChecksum], UploadError> in
            if let held { return held }
            let first = batch * MD5Lanes.width + 1
            let ranges = (first...min(count, first + MD5Lanes.width - 1)).map(range(of:))
            let computed = Result { () throws(UploadError) in try MD5Lanes.digests(path: path, ranges: ranges, cancellation: cancellation).map(PayloadChecksum.md5) }
            held = computed
            return computed
        }
        return try sums.get()[(number - 1) % MD5Lanes.width]
    }

    /// The MD5 of part `number`, which a part the server already holds must have as its ETag: the
    /// batch's when MD5s are the checksum, else computed on its own.
    func md5(part number: Int) throws(UploadError) -> [UInt8] {
        if options.checksum == .md5, case .md5(let sum) = try checksum(part: number) { return sum }
        let (offset, length) = range(of: number)
        let digest = Digest(.md5)
        try FileDigest.compute([digest], path: path, offset: offset, length: length)
        return digest.finish()
    }

    private func range(of number: Int) -> (offset: Int64, length: Int64) {
        let offset = Int64(number - 1) * partSize
        return (offset, min(partSize, size - offset))
    }
}

/// What an S3 upload left on the server.
public struct S3UploadResult: Sendable, Hashable, Codable {
    public let bucket: String
    public let key: String
    public let size: Int64
    /// The ETag HeadObject reports: the MD5 for a single PUT, MD5-of-MD5s-N for multipart.
    public let etag: String
    public let parts: Int
    /// Parts an earlier, interrupted run had already sent (found through ListParts).
    public let resumedParts: Int
}

/// Uploads a file to S3: a single PUT below the threshold, multipart above it with several parts in
/// flight, Content-MD5 on every request, resume of an interrupted upload of the same key through
/// ListMultipartUploads + ListParts, and abort on failure so nothing is left behind.
public struct S3Uploader: Sendable {
    public let client: S3Client
    public let options: S3UploadOptions

    public init(client: S3Client, options: S3UploadOptions = S3UploadOptions()) {
        self.client = client
        self.options = options
    }

    public func upload(file path: String, bucket: String, key: String, progress: any ProgressReporter) throws(UploadError) -> S3UploadResult {
        let file = try ArtifactFile.artifact(path)
        let size = file.size
        file.close()
        let counter = TransferCounter(name: FilePathName.last(path), total: size, reporter: progress)
        let result: S3UploadResult
        if size <= options.multipartThreshold {
            result = try single(path: path, size: size, bucket: bucket, key: key, counter: counter)
        } else {
            result = try multipart(path: path, size: size, bucket: bucket, key: key, counter: counter)
        }
        counter.finish()
        return result
    }

    private func single(path: String, size: Int64, bucket: String, key: String, counter: TransferCounter) throws(UploadError) -> S3UploadResult {
        let checksum = try options.checksum(path: path, offset: 0, length: size)
        let answered = try client.putObject(bucket: bucket, key: key, path: path, length: size, checksum: checksum, progress: counter.add)
        let expected: String? = if case .md5(let sum) = checksum { sum.hex } else { answered.trimmingQuotes.isEmpty ? nil : answered.trimmingQuotes }
        let etag = try verify(bucket: bucket, key: key, size: size, expectedETag: expected)
        return S3UploadResult(bucket: bucket, key: key, size: size, etag: etag, parts: 1, resumedParts: 0)
    }

    private func multipart(path: String, size: Int64, bucket: String, key: String, counter: TransferCounter) throws(UploadError) -> S3UploadResult {
        let partSize = options.partSize(for: size)
        let count = Int((size + partSize - 1) / partSize)
        // Resume the newest unfinished upload of this key, if any; its matching parts are kept.
        let existing = try client.listMultipartUploads(bucket: bucket, key: key).last
        let uploadID: String
        if let existing { uploadID = existing } else { uploadID = try client.createMultipartUpload(bucket: bucket, key: key) }
        do throws(UploadError) {
            var held: [S3Part] = []
            if let existing { held = try client.listParts(bucket: bucket, key: key, uploadID: existing) }
            let heldByNumber = Dictionary(held.map { ($0.number, $0) }, uniquingKeysWith: { _, last in last })
            let state = Mutex<(next: Int, etags: [Int: String], resumed: Int, failure: UploadError?)>(
                (1, [:], 0, nil))
            let client = self.client, options = self.options
            let checksums = PartChecksums(path: path, size: size, partSize: partSize, count: count, options: options,
                                         cancellation: client.http.cancellation)
            ParallelWorkers.run(count: min(options.concurrency, count)) { _ in
                while true {
                    let number: Int? = state.withLock { value in
                        guard value.failure == nil, value.next <= count else { return nil }
                        defer { value.next += 1 }
                        return value.next
                    }
                    guard let number else { return }
                    let offset = Int64(number - 1) * partSize
                    let length = min(partSize, size - offset)
                    do throws(UploadError) {
                        var etag: String?
                        // A part the server already holds is kept when its ETag is the MD5 of our bytes.
                        if let part = heldByNumber[number], part.size == length,
                           part.etag.trimmingQuotes == (try checksums.md5(part: number)).hex {
                            etag = part.etag
                        }
                        let resumed = etag == nil ? 0 : 1
                        if etag != nil {
                            counter.add(length)
                        } else {
                            let checksum = try checksums.checksum(part: number)
                            etag = try client.uploadPart(bucket: bucket, key: key, uploadID: uploadID, number: number, path: path,
                                                         offset: offset, length: length, checksum: checksum, progress: counter.add)
                        }
                        state.withLock { value in
                            value.etags[number] = etag
                            value.resumed += resumed
                        }
                    } catch {
                        state.withLock { value in if value.failure == nil { value.failure = error } }
                        return
                    }
                }
            }
            let (etags, resumed, failure) = state.withLock { ($0.etags, $0.resumed, $0.failure) }
            if let failure { throw failure }
            let parts = (1...count).map { (number: $0, etag: etags[$0]!) }
            try client.completeMultipartUpload(bucket: bucket, key: key, uploadID: uploadID, parts: parts)
            // Complete's own ETag is unreliable (Ceph RGW answers an empty one): HeadObject's must be
            // the MD5 of the parts' MD5s (their ETags, each verified by the server on receipt).
            let partMD5s = parts.map { Self.bytes(hex: $0.etag.trimmingQuotes) }
            let combined: String? = partMD5s.contains { $0 == nil } ? nil : Digest.hash(.md5, partMD5s.flatMap { $0! }).hex + "-\(count)"
            let etag = try verify(bucket: bucket, key: key, size: size, expectedETag: combined)
            return S3UploadResult(bucket: bucket, key: key, size: size, etag: etag, parts: count, resumedParts: resumed)
        } catch {
            // Leave no orphaned parts behind: they cost storage and would never complete.
            try? client.abortMultipartUpload(bucket: bucket, key: key, uploadID: uploadID)
            throw error
        }
    }

    /// HeadObject must show the size sent and the ETag the checksums predict; otherwise the object
    /// is deleted, so that no wrong object stays under the key.
    private func verify(bucket: String, key: String, size: Int64, expectedETag: String?) throws(UploadError) -> String {
        guard let head = try client.headObject(bucket: bucket, key: key) else {
            throw .transfer("s3://\(bucket)/\(key)", "the object is missing after the upload reported success")
        }
        let etag = head.etag.trimmingQuotes
        guard head.size == size, expectedETag == nil || etag == expectedETag || etag.isEmpty else {
            try? client.deleteObject(bucket: bucket, key: key)
            throw .checksumMismatch(destination: "s3://\(bucket)/\(key)",
                                    detail: "the server holds \(head.size) bytes with ETag \(etag), expected \(size) bytes with ETag \(expectedETag ?? "-")")
        }
        return etag
    }

    /// 16 bytes from 32 hex digits; nil for anything else (an ETag that is not a plain MD5).
    static func bytes(hex: String) -> [UInt8]? {
        guard hex.utf8.count == 32 else { return nil }
        return Hex.decode(hex)
    }
}

extension String {
    var trimmingQuotes: String {
        var view = Substring(self)
        if view.hasPrefix("W/") { view = view.dropFirst(2) }
        while view.first == "\"" { view = view.dropFirst() }
        while view.last == "\"" { view = view.dropLast() }
        return String(view)
    }
}

enum FilePathName {
    static func last(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
