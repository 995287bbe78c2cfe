#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesBuild
import Synchronization
import LanesHTTP
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

    /// The journal entry naming this edit while it is open (no secret in it).
    private let journal = Mutex<String?>(nil)

    static func insert(client: GooglePlayClient, packageName: String, context: StepContext) async throws -> OpenEdit {
        try await EditJournal.deleteLeftovers(of: packageName, client: client, context: context)
        let id = try await client.call { try $0.insertEdit(packageName: packageName) }
        let edit = OpenEdit(client: client, packageName: packageName, id: id)
        edit.journal.withLock { $0 = EditJournal.record(packageName: packageName, editID: id, context: context) }
        let log = context.log
        context.log.line("opened edit \(id) of \(packageName)")
        context.cleanups.push("delete Google Play edit \(id)") { await edit.discard(log: log) }
        return edit
    }

    private func forget() {
        if let path = journal.withLock({ state in defer { state = nil }; return state }) { unlink(path) }
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
        forget()
    }

    /// Deletes the edit if it is still open, even after the client was cancelled.
    func discard(log: StepLog) async {
        guard open.withLock({ state in defer { state = false }; return state }) else { return }
        let client = self.client, packageName = self.packageName, id = self.id
        do {
            try await BlockingThread.run(onCancel: {}) { try client.deleteEditForCleanup(packageName: packageName, editID: id) }
            forget()
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

/// Open edits on disk (`<state>/google-play-edits/<pid>-<edit>`: the package and the edit id), so
/// that the edit of a run killed with kill -9 (no cleanup could run) is deleted by the next Google
/// Play step of the project, once its process is gone.
enum EditJournal {
    static func folder(_ context: StepContext) -> String { context.stateDirectory + "/google-play-edits" }

    static func record(packageName: String, editID: String, context: StepContext) -> String? {
        let folder = folder(context)
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil else { return nil }
        let path = "\(folder)/\(ProjectState.currentProcessID)-\(editID.filter { $0.isLetter || $0.isNumber || $0 == "-" })"
        return (try? AtomicFile.write(packageName + "\n" + editID + "\n", to: path, permissions: 0o600)) != nil ? path : nil
    }

    /// Deletes the edits of `packageName` that runs no longer alive left open.
    static func deleteLeftovers(of packageName: String, client: GooglePlayClient, context: StepContext) async throws {
        let folder = folder(context)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            guard let dash = name.firstIndex(of: "-"), let pid = Int32(name[..<dash]), !ProjectState.isProcessAlive(pid),
                  let text = try? String(contentsOfFile: "\(folder)/\(name)", encoding: .utf8) else { continue }
            let lines = text.split(separator: "\n").map(String.init)
            guard lines.count == 2, lines[0] == packageName else { continue }
            do {
                try await client.call { try $0.deleteEdit(packageName: packageName, editID: lines[1]) }
                context.log.line("deleted edit \(lines[1]) of \(packageName), left open by a run that was killed")
            } catch let error as GooglePlayError where [400, 404].contains(error.status) {
                // Committed, deleted or expired already.
            }
            unlink("\(folder)/\(name)")
        }
    }
}

extension StepContext {
    /// The artifacts to upload: the ones given, else the lane's last Android build (its .aab files
    /// when it made any, else its .apk files).
    func androidArtifacts(aab: [String], apk: [String], skipAAB: Bool, skipAPK: Bool, step: String) throws -> (aabs: [String], apks: [String]) {
        var aabs = skipAAB ? [] : aab.map(resolve)
        var apks = skipAPK ? [] : apk.map(resolve)
        if aab.isEmpty && apk.isEmpty {
            if let built = values[LaneAndroidBuild.self] {
                if !skipAAB, let newest = built.aabPath { aabs = [newest] } else if !skipAPK, let newest = built.apkPath { apks = [newest] }
            } else {
                // supply's defaults: the last *.aab (or *.apk) here, else Gradle's old default output names.
                let here = ((try? FileManager.default.contentsOfDirectory(atPath: projectDirectory)) ?? []).sorted()
                if !skipAAB, let found = here.last(where: { $0.hasSuffix(".aab") }).map(resolve)
                    ?? [resolve("app/build/outputs/bundle/release/bundle.aab")].first(where: FilePath.exists) {
                    aabs = [found]
                } else if !skipAPK, let found = here.last(where: { $0.hasSuffix(".apk") }).map(resolve)
                    ?? [resolve("app/build/outputs/apk/app-Release.apk")].first(where: FilePath.exists) {
                    apks = [found]
                }
            }
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
