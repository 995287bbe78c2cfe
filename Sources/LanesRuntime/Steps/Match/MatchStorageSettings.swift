#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesGit
import LanesUpload
internal import LanesPlatform
import LanesMatch
import LanesHTTP

extension MatchType: OptionValue {}
extension MatchPlatform: OptionValue {}

/// Where a match storage lives and how to sign in to it, as fastlane's options name it: declared
/// once, held by `sync_code_signing`, `match_import`, `match_change_password` and `match_decrypt`.
struct MatchStorageSettings: StepOptionGroup {
    @StepOption("storage_mode", "git, s3, or the path of a folder laid out like the storage", env: "MATCH_STORAGE_MODE", default: "git")
    var storageMode: String
    @StepOption("git_url", "URL (or path) of the match git repository", env: "MATCH_GIT_URL")
    var gitURL: String?
    @StepOption("git_branch", "Branch of the repository to use", env: "MATCH_GIT_BRANCH", default: "master")
    var gitBranch: String
    @StepOption("shallow_clone", "Ignored: libgit2 1.5 cannot fetch shallow, so lanes fetches git_branch with its history (a notice says so once a lane)",
                env: "MATCH_SHALLOW_CLONE", default: false)
    var shallowClone: Bool
    @StepOption("clone_branch_directly", "Always in effect: lanes fetches git_branch and no other branch", env: "MATCH_CLONE_BRANCH_DIRECTLY", default: false)
    var cloneBranchDirectly: Bool
    @StepOption("git_basic_authorization", "Base64 of user:token sent as an https Basic Authorization header", env: "MATCH_GIT_BASIC_AUTHORIZATION", secret: true)
    var gitBasicAuthorization: Secret?
    @StepOption("git_bearer_authorization", "Token sent as an https Bearer Authorization header", env: "MATCH_GIT_BEARER_AUTHORIZATION", secret: true)
    var gitBearerAuthorization: Secret?
    @StepOption("git_private_key", "ssh private key for the repository: a file path, or the key itself", env: "MATCH_GIT_PRIVATE_KEY", secret: true)
    var gitPrivateKey: Secret?
    @StepOption("s3_bucket", "S3 bucket of the storage (storage_mode s3)", env: "MATCH_S3_BUCKET")
    var s3Bucket: String?
    @StepOption("s3_region", "Region of the S3 bucket", env: "MATCH_S3_REGION")
    var s3Region: String?
    @StepOption("s3_object_prefix", "Prefix of the storage's keys in the bucket", env: "MATCH_S3_OBJECT_PREFIX")
    var s3ObjectPrefix: String?
    @StepOption("team_id", "Developer team: the bucket's folder <s3_object_prefix>/<team_id>/; sync_code_signing skips other teams' certificates (default: the lane's Configuration's)",
                env: "FASTLANE_TEAM_ID", appfile: .teamID)
    var teamID: String?

    init() {}

    /// The password variable fastlane reads.
    static let passwordVariable = "MATCH_PASSWORD"

    static func password(_ environment: Environment) throws -> String {
        guard let value = environment[passwordVariable], !value.isEmpty else {
            throw MatchError.passwordMissing(variable: passwordVariable)
        }
        environment.redactor.register(value, name: passwordVariable)
        return value
    }

    /// The storage read (and, for writers, written back) with a private scratch folder under the
    /// lanes state directory that a cleanup removes; what a killed run left is swept first.
    func open(context: StepContext) throws -> OpenedMatchStorage {
        let scratchParent = "\(context.stateDirectory)/match"
        for name in MatchScratch.sweep(in: scratchParent) {
            context.log.line("removed \(scratchParent)/\(name), left behind by a match run that crashed or was killed")
        }
        switch storageMode {
        case "git":
            if shallowClone, context.values[MatchShallowNotice.self] == nil {
                context.values[MatchShallowNotice.self] = true
                context.log.line("notice: shallow_clone is ignored: libgit2 1.5 cannot fetch shallow, so lanes fetches branch \(gitBranch) with its history (and no other branch)")
            }
            guard let gitURL, !gitURL.isEmpty else {
                throw MatchError.badOption(name: "git_url", problem: "storage_mode git needs the repository's URL (MATCH_GIT_URL)")
            }
            let scratch = try MatchScratch.create(in: scratchParent)
            context.cleanups.push("remove \(scratch.path)") { scratch.remove() }
            let storage = MatchGitStorage(url: context.resolveGitURL(gitURL), branch: gitBranch,
                                          credentials: try credentials(context: context, scratch: scratch),
                                          repositoryPath: scratch.path + "/repository.git")
            let (files, tip) = try storage.read()
            let state: String = tip.map { " at " + $0.short } ?? " (the branch does not exist yet)"
            let shownURL: String = URLRedaction.redact(gitURL)
            context.log.line("fetched \(files.files.count) files from branch \(gitBranch) of \(shownURL)\(state)")
            return OpenedMatchStorage(files: files, backend: .git(storage, tip: tip))
        case "s3":
            let storage = try s3Storage(context: context)
            let files = try storage.read()
            context.log.line("read \(files.files.count) files from s3://\(storage.bucket)/\(storage.prefix)")
            return OpenedMatchStorage(files: files, backend: .s3(storage))
        case "google_cloud", "gitlab_secure_files":
            throw MatchError.badOption(name: "storage_mode", problem: "\(storageMode) is not supported by lanes; use git, s3 or a folder")
        default:
            let folder = context.resolve(storageMode)
            let files = try MatchFiles.read(folder: folder)
            context.log.line("read \(files.files.count) files from \(folder)")
            return OpenedMatchStorage(files: files, backend: .folder(folder))
        }
    }

    /// The bucket's client: AWS_* credentials (or fastlane's MATCH_S3_ACCESS_KEY and
    /// MATCH_S3_SECRET_ACCESS_KEY), AWS_ENDPOINT_URL for S3-compatible servers.
    private func s3Storage(context: StepContext) throws -> MatchS3Storage {
        guard let bucket = s3Bucket, !bucket.isEmpty else {
            throw MatchError.badOption(name: "s3_bucket", problem: "storage_mode s3 needs the bucket (MATCH_S3_BUCKET)")
        }
        var variables = context.environment.variables
        if let key = variables["MATCH_S3_ACCESS_KEY"], !key.isEmpty, let secret = variables["MATCH_S3_SECRET_ACCESS_KEY"], !secret.isEmpty {
            variables["AWS_ACCESS_KEY_ID"] = key
            variables["AWS_SECRET_ACCESS_KEY"] = secret
            variables["AWS_SESSION_TOKEN"] = variables["MATCH_S3_SESSION_TOKEN"]
        }
        let credentials = try S3Credentials.resolve(environment: variables)
        for secret in credentials.secrets { context.environment.redactor.register(secret) }
        let endpoint = try S3Endpoint.resolve(endpoint: nil, region: s3Region, environment: variables)
        let log = context.log
        let client = S3Client(endpoint: endpoint, credentials: credentials, http: HTTPClient(onRetry: { log.line("retrying: \($0)") }))
        return try MatchS3Storage(client: client, bucket: bucket, objectPrefix: s3ObjectPrefix ?? "", teamID: teamID)
    }

    /// libgit2 credentials: fastlane's header options travel as http headers, a key as a file.
    private func credentials(context: StepContext, scratch: MatchScratch) throws -> RemoteCredentials {
        var credentials = RemoteCredentials.fromEnvironment(context.environment.variables)
        if let basic = gitBasicAuthorization?.value { credentials.httpHeaders.append("Authorization: Basic \(basic)") }
        if let bearer = gitBearerAuthorization?.value { credentials.httpHeaders.append("Authorization: Bearer \(bearer)") }
        for header in credentials.httpHeaders { context.environment.redactor.register(header) }
        if let key = gitPrivateKey?.value {
            if key.contains("PRIVATE KEY-----") {
                // A key given as text: libgit2 reads keys from files, so it goes to the private folder (0600).
                let path = scratch.path + "/ssh-key"
                // 0600 from its first byte: Foundation's createFile chmods only after writing the file.
                do { try AtomicFile.writePrivate(Array(key.utf8), to: path) } catch {
                    throw MatchError.storage("cannot write the ssh key to \(scratch.path): \(error)")
                }
                credentials.sshPrivateKeyPath = path
            } else {
                credentials.sshPrivateKeyPath = context.resolve(key)
            }
        }
        return credentials
    }
}

/// Set once the lane has said that `shallow_clone` is ignored.
enum MatchShallowNotice: LaneValueKey {
    typealias Value = Bool
}

/// Who commits what lanes stores in a match repository (fastlane's `git_full_name`, `git_user_email`).
struct MatchCommitAuthor: StepOptionGroup {
    @StepOption("git_full_name", "Commit author name of what lanes stores", env: "MATCH_GIT_FULL_NAME", default: "lanes")
    var gitFullName: String
    @StepOption("git_user_email", "Commit author email of what lanes stores", env: "MATCH_GIT_USER_EMAIL", default: "lanes@localhost")
    var gitUserEmail: String

    init() {}

    var value: (name: String, email: String) { (gitFullName, gitUserEmail) }
}

/// A storage's files and where to write changes.
struct OpenedMatchStorage: Sendable {
    enum Backend: Sendable {
        case git(MatchGitStorage, tip: ObjectID?)
        case s3(MatchS3Storage)
        case folder(String)
    }

    var files: MatchFiles
    let backend: Backend

    /// Stores `changes` (and `match_version.txt`) in one commit, or writes them into the folder.
    /// With `type` (files Apple issued, whose key exists nowhere else), a git write that finally
    /// fails leaves them encrypted in a folder under the state directory, named in the error.
    func save(_ changes: [String: [UInt8]], message: String, context: StepContext,
              author: (name: String, email: String), keepUnpushedOf type: MatchType? = nil) throws {
        var changes = changes
        let addsVersion = files[MatchLayout.versionFile] == nil
        if addsVersion { changes[MatchLayout.versionFile] = Array("lanes \(LanesVersion.current)".utf8) }
        switch backend {
        case let .git(storage, tip):
            let commit: ObjectID
            do {
                commit = try storage.write(changes, parent: tip, message: message, authorName: author.name, authorEmail: author.email,
                                           ifAbsent: addsVersion ? [MatchLayout.versionFile] : [])
            } catch {
                guard let type else { throw error }
                // The files (a new certificate's key among them) exist nowhere else: keep them, still encrypted.
                var kept = changes
                if addsVersion { kept[MatchLayout.versionFile] = nil }
                let folder = try MatchUnpushed.keep(kept, stateDirectory: context.stateDirectory)
                throw MatchUnpushed.error(folder: folder, type: type.rawValue, cause: "\(error)")
            }
            context.log.line("committed \(changes.count) files as \(commit.short) and pushed branch \(storage.branch)")
        case let .s3(storage):
            try storage.write(changes)
            context.log.line("uploaded \(changes.count) files to s3://\(storage.bucket)/\(storage.prefix)")
        case let .folder(folder):
            try MatchFiles(changes).write(into: folder)
            context.log.line("wrote \(changes.count) files into \(folder)")
        }
    }
}

extension StepContext {
    /// A relative path (`../certificates`) is relative to the Lanefile; URLs pass unchanged.
    func resolveGitURL(_ url: String) -> String {
        url.contains(":") || url.hasPrefix("/") ? url : resolve(url)
    }
}

extension StepContext {
    /// Apple, for `readonly: false`: the App Store Connect API with the lane's key. Asked for only
    /// when something must be created, so a complete storage needs no key.
    func matchPortal() throws -> any MatchPortal {
        do {
            return AppStoreConnectMatchPortal(client: try appStoreConnect())
        } catch let error as any ClassifiedError {
            throw LanesError(error.lanesKind, "readonly:false must create a certificate or profile through App Store Connect: \(error.message)",
                             hint: error.hint ?? "set APP_STORE_CONNECT_API_KEY_KEY_ID, _ISSUER_ID and _KEY (or call app_store_connect_api_key), or pass readonly:true")
        }
    }
}

/// A match storage in an S3 bucket: `<s3_object_prefix>/<team_id>/` followed by the layout.
struct MatchS3Storage: Sendable {
    let client: S3Client
    let bucket: String
    /// Ends in `/`, or is empty.
    let prefix: String

    init(client: S3Client, bucket: String, objectPrefix: String, teamID: String?) throws {
        self.client = client
        self.bucket = bucket
        let base: String = objectPrefix.split(separator: "/").joined(separator: "/")
        let basePrefix: String = base.isEmpty ? "" : base + "/"
        if let teamID, !teamID.isEmpty {
            prefix = basePrefix + teamID + "/"
        } else {
            // Without team_id fastlane reads whichever team folder is there; lanes needs it to be one.
            let listed = try client.listObjects(bucket: bucket, prefix: basePrefix)
            var teams = Set<String>()
            for key in listed {
                if let team = key.dropFirst(basePrefix.count).split(separator: "/").first { teams.insert(String(team)) }
            }
            guard teams.count <= 1 else {
                throw MatchError.badOption(name: "team_id", problem: "the bucket holds several teams (\(teams.sorted().joined(separator: ", "))); pass team_id (FASTLANE_TEAM_ID)")
            }
            if let team = teams.first {
                prefix = basePrefix + team + "/"
            } else {
                prefix = basePrefix
            }
        }
    }

    /// The objects the match layout names (`MatchLayout.isStoredFile`), within the storage limits.
    func read(limits: MatchStorageLimits = .standard) throws -> MatchFiles {
        let paths = try client.listObjects(bucket: bucket, prefix: prefix).map { String($0.dropFirst(prefix.count)) }
            .filter(MatchLayout.isStoredFile)
        guard paths.count <= limits.files else { throw limits.tooManyFiles("s3://\(bucket)/\(prefix)") }
        var files = MatchFiles()
        var total = 0
        for path in paths {
            let bytes = try client.getObject(bucket: bucket, key: prefix + path, maximumBytes: limits.fileBytes)
            total += bytes.count
            guard total <= limits.totalBytes else { throw limits.tooMuch("s3://\(bucket)/\(prefix)") }
            files[path] = bytes
        }
        return files
    }

    func write(_ changes: [String: [UInt8]]) throws {
        for (path, bytes) in changes.sorted(by: { $0.key < $1.key }) {
            try client.putObject(bucket: bucket, key: prefix + path, bytes: bytes)
        }
    }
}
