import Foundation
import LanesBuild
import LanesGooglePlay
import LanesTestSupport
import LanesHTTP
import LanesUpload
import Synchronization
import Testing

/// The Google Play client against the local Google Play: tokens, retries, the resumable protocol
/// and edits, each request checked against Google's discovery document by the server.
extension LocalGooglePlayTests {
    @Suite struct GooglePlayClientTests {
        let server: LocalGooglePlay

        init() async throws { server = try await LocalGooglePlay.started() }

        /// Records the waits instead of sleeping them.
        final class RecordingSleeper: Sleeper, @unchecked Sendable {
            let waits = Mutex<[Double]>([])
            func sleep(seconds: Double) { waits.withLock { $0.append(seconds) } }
        }

        func client(sleeper: RecordingSleeper = RecordingSleeper(), now: (@Sendable () -> Int)? = nil,
                    secrets: Locked<[String]>? = nil) throws -> GooglePlayClient {
            let account = try GoogleServiceAccount.decode(server.keyJSON, variable: "json_key", inline: false, for: "test", hint: "")
            return try GooglePlayClient(account: account, baseURL: try #require(HTTPURL(server.base)),
                                        registerSecret: { secret in secrets?.update { $0.append(secret) } }, sleeper: sleeper, now: now)
        }

        /// A real bundle of `bytes` bytes (a sparse hole after its manifest) and its SHA-256.
        func bundle(bytes: Int, code: Int) async throws -> (path: String, sha256: String, folder: URL) {
            let folder = LanesCommandLine.temporaryDirectory("play-bundle")
            try await AndroidTools.build(["bundleRelease"], in: folder.path, properties: ["versionCode": String(code)],
                                   environment: ["GRADLEW_SPARSE_BYTES": String(bytes)])
            let path = folder.appendingPathComponent("app/build/outputs/bundle/release/app-release.aab").path
            let digest = try await Program.streams(["sha256sum", path]).output.split(separator: " ").first.map(String.init) ?? ""
            return (path, digest, folder)
        }

        @Test func aChunkThatFailsWith503IsResumedFromWhereGoogleSaysItIs() async throws {
            try await server.reset(["chunkFailures": [2]])
            let (path, digest, folder) = try await bundle(bytes: 1_500_000, code: 77)
            defer { try? FileManager.default.removeItem(at: folder) }
            let sleeper = RecordingSleeper()
            let client = try client(sleeper: sleeper)
            let code = try await client.call { client in
                let edit = try client.insertEdit(packageName: "com.example.brewer")
                return try client.uploadBundle(packageName: "com.example.brewer", editID: edit, path: path,
                                               settings: ResumableSettings(chunkSize: 256 << 10))
            }
            #expect(code == 77)
            let log = try await server.log()
            let uploads = log["uploads"] as? [[String: Any]] ?? []
            #expect(uploads.last?["sha256"] as? String == digest, "the bytes Google kept are not the file's: \(uploads)")
            #expect((log["log"] as? [[String: Any]] ?? []).contains { $0["event"] as? String == "chunk-failed" })
            #expect(sleeper.waits.withLock { $0.count } == 1)
            #expect(try await server.errors() == [])
        }

        @Test func a429IsRetriedAfterItsRetryAfter() async throws {
            try await server.reset(["throttle": ["path": "/edits", "times": 1, "retryAfter": 3]])
            let sleeper = RecordingSleeper()
            let client = try client(sleeper: sleeper)
            let edit = try await client.call { try $0.insertEdit(packageName: "com.example.brewer") }
            #expect(!edit.isEmpty)
            #expect(sleeper.waits.withLock { $0 } == [3])
            #expect(try await server.events().contains { $0["event"] as? String == "throttled" })
        }

        @Test func anExpiredTokenIsRenewedOnceAndTheRequestRepeated() async throws {
            try await server.reset(["expireTokenAfter": 1])
            let client = try client()
            let tracks = try await client.call { client -> [Track] in
                let edit = try client.insertEdit(packageName: "com.example.brewer")
                return try client.tracks(packageName: "com.example.brewer", editID: edit)
            }
            #expect(tracks.isEmpty)
            #expect(try await server.tokens().count == 2)
            #expect(try await server.events().contains { $0["event"] as? String == "expired-token" })
        }

        @Test func theTokenIsRenewedBeforeItExpires() async throws {
            try await server.reset(["tokenLifetime": 400])
            let clock = Locked(Int(Date().timeIntervalSince1970) - 200)  // assertions dated in the past stay valid for the server
            let secrets = Locked<[String]>([])
            let client = try client(now: { clock.value }, secrets: secrets)
            _ = try await client.call { try $0.insertEdit(packageName: "com.example.brewer") }
            clock.update { $0 += 50 }  // 350 s left: kept
            _ = try await client.call { try $0.insertEdit(packageName: "com.example.brewer") }
            #expect(try await server.tokens().count == 1)
            clock.update { $0 += 60 }  // 290 s left: renewed before the request
            _ = try await client.call { try $0.insertEdit(packageName: "com.example.brewer") }
            let tokens = try await server.tokens()
            #expect(tokens.count == 2)
            #expect(!(try await server.events().contains { $0["event"] as? String == "expired-token" }))
            // Every token and the key went to the redactor.
            let registered = secrets.value
            #expect(tokens.allSatisfy(registered.contains))
            #expect(registered.contains { $0.contains("PRIVATE KEY") })
        }

        @Test func aConflictingEditFailsNamingIt() async throws {
            try await server.reset(["concurrentCommit": true])
            let client = try client()
            await #expect {
                try await client.call { client in
                    let edit = try client.insertEdit(packageName: "com.example.brewer")
                    try client.commitEdit(packageName: "com.example.brewer", editID: edit, changesNotSentForReview: false)
                }
            } throws: { error in
                guard let error = error as? GooglePlayError else { return false }
                return error.status == 409 && error.message.contains(":commit") && (error.hint ?? "").contains("another edit")
            }
        }

        @Test func anUnknownAppIsA404NamingThePackage() async throws {
            try await server.reset([:])
            let client = try client()
            await #expect {
                try await client.call { _ = try $0.insertEdit(packageName: "com.example.missing") }
            } throws: { error in
                (error as? GooglePlayError)?.status == 404 && "\(error)".contains("com.example.missing") && "\(error)".contains("package_name")
            }
        }

        @Test func aFileOverTheMethodsSizeLimitIsRefusedBeforeAnyRequest() async throws {
            try await server.reset([:])
            let folder = LanesCommandLine.temporaryDirectory("play-limit")
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("huge.apk").path
            FileManager.default.createFile(atPath: path, contents: nil)
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.truncate(atOffset: (1 << 30) + 1)  // sparse: one byte over internal app sharing's 1 GiB for APKs
            try handle.close()
            let client = try client()
            await #expect {
                _ = try await client.call { try $0.uploadForInternalSharing(packageName: "com.example.brewer", path: path, isBundle: false) }
            } throws: { "\($0)".contains("internalappsharingartifacts.uploadapk") && "\($0)".contains("huge.apk") }
            #expect(try await server.events().isEmpty)
        }

        /// Async, so that it holds no thread of the cooperative pool while it waits: the upload's task
        /// needs one to start. Its waits count looks, not seconds (a starved pool runs neither the
        /// loop nor the task), and the stop is timed where the transfer ends, on the blocking call's
        /// own thread, not where a pool thread gets round to the task afterwards.
        @Test func cancellingAnUploadStopsItWithinASecondAndTheEditCanStillBeDeleted() async throws {
            try await server.reset(["chunkDelay": 0.05])
            let (path, _, folder) = try await bundle(bytes: 8 << 20, code: 78)
            defer { try? FileManager.default.removeItem(at: folder) }
            let client = try client()
            let edit = try client.insertEdit(packageName: "com.example.brewer")
            let outcome = Locked<Result<Int, any Error>?>(nil)
            let transferEnded = Locked<Date?>(nil)
            let upload = Task {
                let result = await Result(catching: {
                    try await client.call { connection in
                        defer { transferEnded.update { $0 = Date() } }
                        return try connection.uploadBundle(packageName: "com.example.brewer", editID: edit, path: path)
                    }
                })
                outcome.update { $0 = result }
            }
            #expect(await server.sawResumableUpload(looks: 6_000, every: .milliseconds(10)))
            let cancelled = Date()
            upload.cancel()
            #expect(try await eventually(looks: 6_000, every: .milliseconds(10)) { outcome.value != nil })
            let took = (transferEnded.value ?? Date()).timeIntervalSince(cancelled)
            #expect(took < 1, "the upload took \(took) s to stop")
            #expect(throws: CancellationError.self) { try outcome.value?.get() }
            try client.deleteEditForCleanup(packageName: "com.example.brewer", editID: edit)
            #expect(try await server.edits()[edit]?["state"] as? String == "deleted")
        }
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}

/// A value shared with closures that escape (a clock, what the redactor heard).
final class Locked<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    var value: Value { storage.withLock { $0 } }
    func update(_ change: (inout Value) -> Void) { storage.withLock { change(&$0) } }
}
