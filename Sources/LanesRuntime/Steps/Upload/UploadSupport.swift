import LanesUpload
import LanesGit
import Synchronization
internal import LanesPlatform
import LanesHTTP

extension StepContext {
    /// Runs `work` with the uploader for a step: the lane's variables with the step's resolved
    /// `credentials` over them (an empty value hides the variable), every secret it meets registered
    /// with the lane's redactor, and retries said in the step's output. The client blocks in socket
    /// calls, so it runs on a thread of its own (never on the cooperative pool), and cancelling the
    /// step (timeout, Ctrl-C) shuts its connections down: the upload ends within moments, an S3
    /// multipart upload aborted on the way out.
    func withUploads<T: Sendable>(credentials: [String: String] = [:],
                                  _ work: @escaping @Sendable (Uploads) throws -> T) async throws -> T {
        let redactor = environment.redactor
        let log = self.log
        let cancellation = TransferCancellation()
        let variables = environment.variables.merging(credentials) { _, resolved in resolved }
        let uploads = Uploads(environment: variables, registerSecret: { redactor.register($0) },
                              http: HTTPClient(cancellation: cancellation, proxies: ProxySettings(environment: variables),
                                                onRetry: { log.line("retrying: \($0)") }))
        return try await BlockingWork.run(onCancel: cancellation.cancel) { try work(uploads) }
    }

    /// The file a step ships: the one given, else what the lane built last (.ipa, then artifact).
    func artifactToShip(_ given: String?, step: String) throws -> String {
        if let given { return resolve(given) }
        if let product = values[BuiltAppValue.self]?.path { return product }
        if let artifact = values[BuiltArtifact.self] { return artifact.artifactPath }
        throw LanesError(.usage, "\(step): no file given and nothing built in this lane", hint: "pass the file, or run build_app or build_swift_package first")
    }

    /// What the manifest of a local upload records.
    func artifactMetadata(configuration: String?) -> ArtifactMetadata {
        let commit = (try? Repository(discoveringFrom: projectDirectory).head().commit?.description) ?? nil
        return ArtifactMetadata(lane: values[RunningLaneName.self], configuration: configuration, commit: commit)
    }
}

/// Upload progress as step output: a line at every 10%, whatever the terminal.
final class StepLogProgress: ProgressReporter {
    let log: StepLog
    private let lastTenth = Mutex(-1)

    init(log: StepLog) { self.log = log }

    func start(name: String, total: Int64) {
        log.line("uploading \(name) (\(total) bytes)")
    }

    func update(completed: Int64, total: Int64) {
        guard total > 0 else { return }
        let tenth = Int(completed * 10 / total)
        let isNew = lastTenth.withLock { last in
            guard tenth > last else { return false }
            last = tenth
            return true
        }
        if isNew, tenth < 10 { log.line("\(tenth * 10)%") }
    }

    func finish(completed: Int64, total: Int64) {
        log.line("100% (\(completed) bytes)")
    }
}

extension UploadReceipt: ReportableResult {
    public var report: StepResultReport {
        StepResultReport(
            lines: ["uploaded \(size) bytes to \(location)"] + details.keys.sorted().compactMap { key in
                details[key].flatMap { $0.isEmpty ? nil : "\(key): \($0)" }
            } + (sha256.map { ["sha256: \($0)"] } ?? []),
            json: .object([("destination", .string(destination)), ("location", .string(location)), ("size", .number(Double(size))),
                           ("sha256", sha256.map(JSONValue.string) ?? .null),
                           ("details", .object(details.keys.sorted().map { ($0, .string(details[$0] ?? "")) }))]))
    }
}
