#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesBuild
import Synchronization
import LanesUpload
internal import LanesGooglePlay
internal import LanesPlatform

/// The service-account key options every Google Play step takes, with supply's names and variables.
struct GooglePlayKeyOptions: StepOptionGroup {
    @StepOption("json_key", "The service account's JSON key file", env: "SUPPLY_JSON_KEY")
    var jsonKey: String?
    @StepOption("json_key_data", "The service account's JSON key itself", env: "SUPPLY_JSON_KEY_DATA", secret: true)
    var jsonKeyData: Secret?

    init() {}

    /// The key: json_key_data, else json_key, else GOOGLE_APPLICATION_CREDENTIALS (a path), as supply falls back.
    func account(context: StepContext, step: String) throws -> GoogleServiceAccount {
        let hint = "download a JSON key of a service account invited to the Play Console (Users and permissions)"
        let redactor = context.environment.redactor
        if let data = jsonKeyData {
            redactor.register(data.value)
            return try GoogleServiceAccount.decode(data.value, variable: "json_key_data (SUPPLY_JSON_KEY_DATA)", inline: true, for: step, hint: hint)
        }
        let path: String, variable: String
        if let jsonKey {
            (path, variable) = (context.resolve(jsonKey), "json_key (SUPPLY_JSON_KEY)")
        } else if let fallback = context.environment.variables["GOOGLE_APPLICATION_CREDENTIALS"], !fallback.isEmpty {
            (path, variable) = (context.resolve(fallback), "GOOGLE_APPLICATION_CREDENTIALS")
        } else {
            throw LanesError(.environment, "\(step): no service account key (json_key, json_key_data, SUPPLY_JSON_KEY, SUPPLY_JSON_KEY_DATA or GOOGLE_APPLICATION_CREDENTIALS)",
                             hint: hint)
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw LanesError(.environment, "\(step): \(variable) names \(path), which cannot be read", hint: "check \(variable)")
        }
        redactor.register(text)
        return try GoogleServiceAccount.decode(text, variable: variable, inline: false, for: step, hint: hint)
    }

    /// A client for the lane: the key's material registered with the redactor, retries logged.
    func client(context: StepContext, step: String) throws -> GooglePlayClient {
        let account = try account(context: context, step: step)
        let redactor = context.environment.redactor, log = context.log
        account.secrets.forEach { redactor.register($0) }
        return try GooglePlayClient(account: account, baseURL: try GooglePlayClient.baseURL(environment: context.environment.variables),
                                    registerSecret: { redactor.register($0) }, log: { log.line($0) })
    }
}

/// The Android artifacts the lane built last (`gradle` and its aliases), for `upload_to_play_store`'s defaults.
public enum LaneAndroidBuild: LaneValueKey {
    public typealias Value = GradleResult
}

/// One edit for a run: inserted, then committed; deleted when the step fails or is cancelled, so
/// nothing half-published stays behind. A lane cleanup deletes it too when the step was abandoned
/// mid-request (its deadline's grace period ended first).
final class OpenEdit: Sendable {
    let client: GooglePlayClient
    let packageName: String
    let id: String
    private let open = Mutex(true)

    private init(client: GooglePlayClient, packageName: String, id: String) {
        self.client = client
        self.packageName = packageName
        self.id = id
    }

    static func insert(client: GooglePlayClient, packageName: String, context: StepContext) async throws -> OpenEdit {
        let id = try await client.call { try $0.insertEdit(packageName: packageName) }
        let edit = OpenEdit(client: client, packageName: packageName, id: id)
        let log = context.log
        context.log.line("opened edit \(id) of \(packageName)")
        context.cleanups.push("delete Google Play edit \(id)") { await edit.discard(log: log) }
        return edit
    }

    /// Commits (or with `validateOnly` validates, then deletes) the edit.
    func finish(validateOnly: Bool, changesNotSentForReview: Bool) async throws {
        if validateOnly {
            try await client.call { [packageName, id] in try $0.validateEdit(packageName: packageName, editID: id) }
            try await client.call { [packageName, id] in try $0.deleteEdit(packageName: packageName, editID: id) }
        } else {
            try await client.call { [packageName, id] in try $0.commitEdit(packageName: packageName, editID: id, changesNotSentForReview: changesNotSentForReview) }
        }
        open.withLock { $0 = false }
    }

    /// Deletes the edit if it is still open, even after the client was cancelled.
    func discard(log: StepLog) async {
        guard open.withLock({ state in defer { state = false }; return state }) else { return }
        let client = self.client, packageName = self.packageName, id = self.id
        do {
            try await BlockingThread.run(onCancel: {}) { try client.deleteEditForCleanup(packageName: packageName, editID: id) }
            log.line("deleted edit \(id): nothing of it was published")
        } catch {
            log.line("could not delete edit \(id) (Google drops it when it expires): \(error)")
        }
    }

    /// Runs `work` with the edit; on any failure (cancellation included) the edit is deleted first.
    func using<T: Sendable>(context: StepContext, _ work: () async throws -> T) async throws -> T {
        do { return try await work() } catch {
            await discard(log: context.log)
            throw error
        }
    }
}

extension StepContext {
    /// The artifacts to upload: the ones given, else the lane's last Android build (its .aab files
    /// when it made any, else its .apk files).
    func androidArtifacts(aab: [String], apk: [String], skipAAB: Bool, skipAPK: Bool, step: String) throws -> (aabs: [String], apks: [String]) {
        var aabs = skipAAB ? [] : aab.map(resolve)
        var apks = skipAPK ? [] : apk.map(resolve)
        if aab.isEmpty && apk.isEmpty, let built = values[LaneAndroidBuild.self] {
            if !skipAAB, let newest = built.aabPath { aabs = [newest] } else if !skipAPK, let newest = built.apkPath { apks = [newest] }
        }
        if !aabs.isEmpty && !apks.isEmpty {
            throw LanesError(.usage, "\(step): cannot upload both apk(s) and aab(s) in one release", hint: "use skip_upload_apk or skip_upload_aab")
        }
        for path in aabs + apks where !FilePath.exists(path) {
            throw LanesError(.configuration, "\(step): \(path) does not exist", hint: "check aab/apk, or build it in the lane first (gradle task:bundle)")
        }
        return (aabs, apks)
    }
}

/// The package name: the option, else the manifest of the first artifact.
func playPackageName(_ given: String?, artifacts: [String], step: String) throws -> String {
    if let given, !given.isEmpty { return given }
    if let first = artifacts.first {
        do { return try AndroidArtifactReader.read(path: first).packageName } catch {
            throw LanesError(.configuration, "\(step): cannot read the package name from \(first): \(error)", hint: "give package_name (SUPPLY_PACKAGE_NAME)")
        }
    }
    throw LanesError(.usage, "\(step): no package_name given", hint: "pass package_name, or set SUPPLY_PACKAGE_NAME")
}
