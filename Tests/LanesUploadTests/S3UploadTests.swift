import Foundation
import LanesUpload
import Testing
import LanesHTTP

/// Uploads to a real S3 implementation (Ceph RGW on 127.0.0.1), checked by HeadObject and GET.
@Suite(.enabled(if: TestServers.installed, "needs ceph-mon, ceph-osd, radosgw and nginx: run `make deps-upload-tests`"))
struct S3UploadTests {
    let servers: TestServers
    let client: S3Client

    init() throws {
        servers = try TestServers.get()
        client = try servers.s3Client()
    }

    /// Small parts so multipart tests stay fast: 5 MiB (S3's minimum), above 6 MiB.
    let smallParts = S3UploadOptions(multipartThreshold: 6 << 20, partSize: 5 << 20, concurrency: 3)

    /// Issue 21: a signed header with runs of spaces is signed (and sent) collapsed, which RGW accepts.
    @Test func aContentTypeWithRunsOfSpacesIsSignedAsTheServerChecksIt() throws {
        let bucket = try servers.freshBucket(client)
        let file = try TestFiles.random(size: 4096)
        _ = try client.putObject(bucket: bucket, key: "spaced.txt", path: file.path, length: 4096,
                                 checksum: .sha256(try Self.sha256(file)), contentType: "text/plain;    charset=utf-8")
        #expect(try client.headObject(bucket: bucket, key: "spaced.txt")?.size == 4096)
    }

    static func sha256(_ file: URL) throws -> [UInt8] {
        let hex = try TestFiles.sha256(of: file)
        return stride(from: 0, to: hex.count, by: 2).map { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
    }

    @Test func singlePutStoresTheBytesUnderTheKey() throws {
        let bucket = try servers.freshBucket(client)
        let file = try TestFiles.random(size: 1_500_000)
        let progress = RecordingProgress()
        let result = try S3Uploader(client: client).upload(file: file.path, bucket: bucket, key: "builds/app.ipa", progress: progress)
        #expect(result.parts == 1)
        #expect(result.size == 1_500_000)
        #expect(progress.finishedValue == 1_500_000)
        let head = try #require(try client.headObject(bucket: bucket, key: "builds/app.ipa"))
        #expect(head.size == 1_500_000)
        #expect(try TestFiles.sha256(client.getObject(bucket: bucket, key: "builds/app.ipa")) == TestFiles.sha256(of: file))
    }

    @Test func multipartUploadSendsPartsInParallelAndTheObjectMatches() throws {
        let bucket = try servers.freshBucket(client)
        let file = try TestFiles.random(size: 17 << 20)
        let result = try S3Uploader(client: client, options: smallParts).upload(file: file.path, bucket: bucket, key: "big file+1.bin", progress: SilentProgress())
        #expect(result.parts == 4)
        #expect(result.resumedParts == 0)
        let head = try #require(try client.headObject(bucket: bucket, key: "big file+1.bin"))
        #expect(head.size == 17 << 20)
        #expect(head.etag.hasSuffix("-4\""))
        #expect(try TestFiles.sha256(client.getObject(bucket: bucket, key: "big file+1.bin")) == TestFiles.sha256(of: file))
        #expect(try client.listMultipartUploads(bucket: bucket, key: "big file+1.bin").isEmpty)
    }

    @Test func aWrongSecretKeyIsAClearErrorNamingTheVariable() throws {
        let bucket = try servers.freshBucket(client)
        let file = try TestFiles.random(size: 10_000)
        let wrongSecret = "not-the-secret-key-0123456789"
        let uploads = Uploads(environment: ["AWS_ACCESS_KEY_ID": servers.accessKey, "AWS_SECRET_ACCESS_KEY": wrongSecret, "HOME": "/nonexistent"],
                              registerSecret: { _ in })
        let error = try #require(throws: UploadError.self) {
            try uploads.upload(file: file.path, to: .s3(bucket: bucket, key: "x.bin"), settings: UploadSettings(s3Endpoint: servers.s3Endpoint))
        }
        #expect(error.kind == .configuration)
        #expect(error.message.contains("s3://\(bucket)/x.bin"))
        #expect(error.message.contains("SignatureDoesNotMatch"))
        #expect(error.hint == "check AWS_SECRET_ACCESS_KEY")
        #expect(!error.description.contains(wrongSecret))
        #expect(try client.headObject(bucket: bucket, key: "x.bin") == nil)
    }

    @Test func anUnknownAccessKeyNamesAWS_ACCESS_KEY_ID() throws {
        let bucket = try servers.freshBucket(client)
        let file = try TestFiles.random(size: 1000)
        let uploads = Uploads(environment: ["AWS_ACCESS_KEY_ID": "AKIAUNKNOWNKEY000000", "AWS_SECRET_ACCESS_KEY": "whatever", "HOME": "/nonexistent"],
                              registerSecret: { _ in })
        let error = try #require(throws: UploadError.self) {
            try uploads.upload(file: file.path, to: .s3(bucket: bucket, key: "x.bin"), settings: UploadSettings(s3Endpoint: servers.s3Endpoint))
        }
        #expect(error.message.contains("InvalidAccessKeyId"))
        #expect(error.hint == "check AWS_ACCESS_KEY_ID")
    }

    @Test func aWrongContentMD5IsRejectedWithBadDigest() throws {
        let bucket = try servers.freshBucket(client)
        let file = try TestFiles.random(size: 4096)
        let error = try #require(throws: UploadError.self) {
            try client.putObject(bucket: bucket, key: "bad.bin", path: file.path, length: 4096, checksum: .md5([UInt8](repeating: 7, count: 16)))
        }
        #expect(error.message.contains("checksum mismatch"))
        #expect(error.message.contains("400 BadDigest"))
        #expect(try client.headObject(bucket: bucket, key: "bad.bin") == nil)
    }

    @Test func aWrongSignedPayloadHashIsRejected() throws {
        let bucket = try servers.freshBucket(client)
        let file = try TestFiles.random(size: 4096)
        let error = try #require(throws: UploadError.self) {
            try client.putObject(bucket: bucket, key: "bad.bin", path: file.path, length: 4096, checksum: .sha256([UInt8](repeating: 7, count: 32)))
        }
        #expect(error.message.contains("checksum mismatch"))
        #expect(error.message.contains("400 XAmzContentSHA256Mismatch"))
        #expect(try client.headObject(bucket: bucket, key: "bad.bin") == nil)
    }

    @Test(arguments: [(PayloadChecksum.Kind.md5, "BadDigest"), (.sha256, "XAmzContentSHA256Mismatch")])
    func aByteCorruptedInTransitFailsTheUploadAndAbortsIt(checksum: PayloadChecksum.Kind, code: String) throws {
        let bucket = try servers.freshBucket(client)
        let file = try TestFiles.random(size: 12 << 20)
        let proxy = try FaultProxy(upstream: servers.s3Endpoint, fault: .corruptByte(at: 3 << 20))
        let proxied = try servers.s3Client(endpoint: proxy.url)
        var options = smallParts
        options.checksum = checksum
        let error = try #require(throws: UploadError.self) {
            try S3Uploader(client: proxied, options: options).upload(file: file.path, bucket: bucket, key: "corrupt.bin", progress: SilentProgress())
        }
        #expect(proxy.faults == 1)
        #expect(error.message.contains("checksum mismatch"))
        #expect(error.message.contains(code))
        // Nothing left behind: no object, no multipart upload holding parts.
        #expect(try client.headObject(bucket: bucket, key: "corrupt.bin") == nil)
        #expect(try client.listMultipartUploads(bucket: bucket, key: "corrupt.bin").isEmpty)
    }

    @Test func aConnectionCutInTheMiddleOfAPartIsRetriedAndTheUploadCompletes() throws {
        let bucket = try servers.freshBucket(client)
        let file = try TestFiles.random(size: 16 << 20)
        let proxy = try FaultProxy(upstream: servers.s3Endpoint, fault: .cutAfter(7 << 20))
        let proxied = try servers.s3Client(endpoint: proxy.url)
        let progress = RecordingProgress()
        let result = try S3Uploader(client: proxied, options: smallParts).upload(file: file.path, bucket: bucket, key: "cut.bin", progress: progress)
        #expect(proxy.faults == 1)
        #expect(result.parts == 4)
        // The failed attempt's bytes were taken back: the total is the file, not more.
        #expect(progress.finishedValue == 16 << 20)
        #expect(try TestFiles.sha256(client.getObject(bucket: bucket, key: "cut.bin")) == TestFiles.sha256(of: file))
    }

    @Test func anUploaderKilledAfterTwoPartsIsResumedThroughListParts() throws {
        let bucket = try servers.freshBucket(client)
        let file = try TestFiles.random(size: 18 << 20)
        let partSize: Int64 = 5 << 20
        // What a killed run leaves: an upload with two parts and no abort.
        let uploadID = try client.createMultipartUpload(bucket: bucket, key: "resume.bin")
        for number in 1...2 {
            let data = try FileHandle(forReadingFrom: file)
            try data.seek(toOffset: UInt64(Int64(number - 1) * partSize))
            let bytes = Array(try data.read(upToCount: Int(partSize)) ?? Data())
            try data.close()
            let md5 = try md5Of(bytes)
            _ = try client.uploadPart(bucket: bucket, key: "resume.bin", uploadID: uploadID, number: number, path: file.path,
                                      offset: Int64(number - 1) * partSize, length: partSize, checksum: .md5(md5))
        }
        let result = try S3Uploader(client: client, options: smallParts).upload(file: file.path, bucket: bucket, key: "resume.bin", progress: SilentProgress())
        #expect(result.resumedParts == 2)
        #expect(result.parts == 4)
        #expect(try TestFiles.sha256(client.getObject(bucket: bucket, key: "resume.bin")) == TestFiles.sha256(of: file))
        #expect(try client.listMultipartUploads(bucket: bucket, key: "resume.bin").isEmpty)
    }

    @Test func theCommandReportsTheUploadAsJSONAndRedactsNothingItShouldNotPrint() throws {
        let bucket = try servers.freshBucket(client)
        let file = try TestFiles.random(size: 200_000, name: "app.ipa")
        let tool = TestServers.repositoryRoot.appendingPathComponent(".build/debug/lanes-tool")
        try #require(FileManager.default.isExecutableFile(atPath: tool.path), "run `swift build` first (make test does)")
        let run = try Spawn.output([tool.path, "upload", file.path, "--to", "s3://\(bucket)/drops/", "--endpoint", servers.s3Endpoint, "--json"],
                                   environment: servers.s3Environment)
        let text = String(decoding: run.output, as: UTF8.self)
        #expect(run.status == 0, "\(text)")
        // The command runs the upload step: its receipt is the `result` event of the JSON lines.
        let result = try #require(text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.first { $0["event"] as? String == "result" })
        let receipt = try #require(result["value"] as? [String: Any])
        #expect(receipt["location"] as? String == "s3://\(bucket)/drops/app.ipa")
        #expect(receipt["size"] as? Int == 200_000)
        #expect(!text.contains(servers.secretKey))
        #expect(try client.headObject(bucket: bucket, key: "drops/app.ipa")?.size == 200_000)
    }

    private func md5Of(_ bytes: [UInt8]) throws -> [UInt8] {
        Array(try Spawn.output(["openssl", "dgst", "-md5", "-binary"], input: bytes).output)
    }
}
