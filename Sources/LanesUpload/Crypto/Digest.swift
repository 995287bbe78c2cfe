internal import LanesPlatform
internal import COpenSSL
import LanesHTTP
import Synchronization

/// A message digest computed incrementally, so that a file of any size is hashed in constant memory.
/// Not Sendable: it owns an OpenSSL context; one per task.
final class Digest {
    enum Algorithm: Sendable {
        case md5, sha1, sha256

        var name: String {
            switch self {
            case .md5: "MD5"
            case .sha1: "SHA1"
            case .sha256: "SHA256"
            }
        }
    }

    private let context: OpaquePointer

    init(_ algorithm: Algorithm) {
        OpenSSLStart.ensure()
        context = EVP_MD_CTX_new()
        let method = EVP_MD_fetch(nil, algorithm.name, nil)
        EVP_DigestInit_ex2(context, method, nil)
        EVP_MD_free(method)
    }

    deinit { EVP_MD_CTX_free(context) }

    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

    func finish() -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &output, &length)
        return Array(output.prefix(Int(length)))
    }

    static func hash(_ algorithm: Algorithm, _ bytes: [UInt8]) -> [UInt8] {
        let digest = Digest(algorithm)
        digest.update(bytes)
        return digest.finish()
    }

    static func hash(_ algorithm: Algorithm, _ text: String) -> [UInt8] { hash(algorithm, Array(text.utf8)) }
}

enum HMAC {
    static func sha256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        OpenSSLStart.ensure()
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: Int = 0
        key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                _ = EVP_Q_mac(nil, "HMAC", nil, "SHA256", nil, keyBytes.baseAddress, keyBytes.count,
                              messageBytes.baseAddress, messageBytes.count, &output, output.count, &length)
            }
        }
        return Array(output.prefix(length))
    }
}

/// Digests of a whole file or of a byte range of it, read in blocks.
enum FileDigest {
    static let blockSize = 1 << 20

    /// Feeds `length` bytes of `path` from `offset` to every digest, in one pass.
    static func compute(_ digests: [Digest], path: String, offset: Int64 = 0, length: Int64? = nil) throws(UploadError) {
        let file = try ArtifactFile.artifact(path)
        defer { file.close() }
        let total = length ?? (file.size - offset)
        var buffer = [UInt8](repeating: 0, count: min(blockSize, max(1, Int(total))))
        var done: Int64 = 0
        while done < total {
            let wanted = Int(min(Int64(buffer.count), total - done))
            let count = try file.readArtifact(into: &buffer, count: wanted, at: offset + done)
            buffer.withUnsafeBytes { raw in digests.forEach { $0.update(UnsafeRawBufferPointer(rebasing: raw[0..<count])) } }
            done += Int64(count)
        }
    }
}

extension FileDigest {
    /// The digests of a whole file, each on a thread of its own (a pass each over the page cache),
    /// so that three digests cost about the slowest one, not their sum, on a machine with cores.
    static func computeInParallel(_ algorithms: [Digest.Algorithm], path: String) throws(UploadError) -> [[UInt8]] {
        let results = Mutex<[Int: Result<[UInt8], UploadError>]>([:])
        ParallelWorkers.run(count: algorithms.count) { index in
            let digest = Digest(algorithms[index])
            let outcome: Result<[UInt8], UploadError>
            do throws(UploadError) { try compute([digest], path: path); outcome = .success(digest.finish()) } catch { outcome = .failure(error) }
            results.withLock { $0[index] = outcome }
        }
        let collected = results.withLock { $0 }
        var sums: [[UInt8]] = []
        for index in algorithms.indices {
            guard let outcome = collected[index] else { throw .internal("a digest thread of \(path) ended without a result") }
            sums.append(try outcome.get())
        }
        return sums
    }
}

extension Array where Element == UInt8 {
    var hex: String { Hex.encode(self) }

    var base64: String { Base64.encode(self) }

    /// Base64 with the URL alphabet and no padding, as JWTs use.
    var base64URL: String { Base64.encodeURL(self) }
}
