#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesAppStoreConnect
import LanesMatch
import LanesSigning
import LanesUpload
internal import LanesPlatform

/// `match_nuke` (fastlane's action and `fastlane match nuke`, match/lib/match/nuke.rb): revokes the
/// team's certificates of a type and deletes its provisioning profiles through the App Store Connect
/// API, then removes their files from the match storage (one commit, fastlane's message).
///
/// What it removes, by fastlane's certificate kind of `type`: `appstore` and `adhoc` nuke
/// distribution (App Store, Ad Hoc and Developer ID profiles of every app and platform),
/// `development`, `enterprise`, `developer_id`, `mac_installer_distribution` their own.
///
/// Confirmation. fastlane asks y/n on a terminal and `skip_confirmation` skips the question. Nothing
/// lanes does is harder to undo, and a lane usually runs unattended, so lanes asks twice: on a
/// terminal it lists everything and asks for the team id to be typed; without a terminal or on CI it
/// goes ahead only when `skip_confirmation: true` AND `LANES_MATCH_NUKE_TEAM` names the team whose
/// certificates and profiles are listed. Anything else stops before the first deletion.
public struct MatchNuke: Step {
    public typealias Output = MatchNukeResult

    public static let definition = StepDefinition(
        id: "match_nuke",
        summary: "Revoke a type's certificates, delete its profiles and remove them from the match storage (confirmed twice)",
        category: .signing,
        examples: [StepExample(
            swift: #"try await matchNuke(type: .development, skipConfirmation: true, gitURL: "git@github.com:brewer/certificates.git")"#,
            commandLine: ["type:development", "skip_confirmation:true", "git_url:git@github.com:brewer/certificates.git"],
            environment: ["MATCH_PASSWORD", MatchNuke.confirmationVariable, AppStoreConnectKey.Variable.keyID,
                          AppStoreConnectKey.Variable.issuerID, AppStoreConnectKey.Variable.key])],
        ignoredOptions: [
            "app_identifier": "match_nuke removes the type's profiles of every app, as fastlane's does",
            "platform": "match_nuke removes the type's profiles of every platform, as fastlane's does",
            "force": "lanes never offers to pick certificates: everything listed is nuked, as with force",
            "username": "lanes talks to App Store Connect with an API key only (app_store_connect_api_key; see docs/appstore.md)",
            "team_name": "an API key belongs to one team",
            "skip_docs": "lanes writes no README into the storage",
            "verbose": "lanes prints every certificate, profile and file it removes",
        ],
        needsAppStoreConnectKey: true
    )

    /// The second confirmation of an unattended nuke: the team id, typed into the environment.
    public static let confirmationVariable = "LANES_MATCH_NUKE_TEAM"

    @StepOption("type", "The type to nuke: appstore or adhoc (both nuke distribution), development, enterprise, developer_id, mac_installer_distribution",
                env: "MATCH_TYPE", default: .development)
    var type: MatchType
    @StepOption("readonly", "fastlane's: match_nuke refuses to run with readonly", env: "MATCH_READONLY", default: false)
    var readonly: Bool
    @StepOption("skip_confirmation", "Do not ask on the terminal; unattended, the second confirmation is LANES_MATCH_NUKE_TEAM=<team id>",
                env: "MATCH_SKIP_CONFIRMATION", default: false)
    var skipConfirmation: Bool
    @StepOption("safe_remove_certs", "Remove the certificates from the storage without revoking them", env: "MATCH_SAFE_REMOVE_CERTS", default: false)
    var safeRemoveCerts: Bool
    var storage = MatchStorageSettings()
    var author = MatchCommitAuthor()

    public init() {}

    public var banner: String { "Nuke \(Self.kind(of: type).name) certificates and profiles of match storage \(storage.storageMode)" }

    public func run(in context: StepContext) async throws -> MatchNukeResult {
        do {
            return try await nuke(in: context)
        } catch let error as MatchError {
            throw LanesError(error.isEnvironmental ? .environment : .configuration, error.description, hint: error.hint)
        }
    }

    private func nuke(in context: StepContext) async throws -> MatchNukeResult {
        guard !readonly else {
            throw LanesError(.usage, "match_nuke deletes and revokes, so it does not run with readonly:true (MATCH_READONLY)",
                             hint: "drop readonly, as fastlane's `match nuke` asks")
        }
        let kind = Self.kind(of: type)
        let password = try MatchStorageSettings.password(context.environment)
        let client = try context.appStoreConnect()
        let opened = try storage.open(context: context)
        let certificates = try await client.certificates(types: kind.certificateTypes)
        let profiles = try await client.profiles(types: kind.profileTypes)
        let files = opened.files.files.keys.filter { path in
            let parts = path.split(separator: "/").map(String.init)
            guard parts.count == 3 else { return false }
            return (parts[0] == "certs" && parts[1] == kind.certificateFolder) || (parts[0] == "profiles" && kind.profileFolders.contains(parts[1]))
        }.sorted()

        for certificate in certificates {
            let attributes = certificate.attributes
            context.log.line("certificate to \(safeRemoveCerts ? "keep (safe_remove_certs)" : "revoke"): '\(attributes?.name ?? "?")' \(certificate.id) "
                             + "\(attributes?.certificateType ?? "?") expires \(attributes?.expirationDate ?? "unknown")")
        }
        for profile in profiles {
            let attributes = profile.attributes
            context.log.line("profile to delete: '\(attributes?.name ?? "?")' \(profile.id) \(attributes?.profileState ?? "?") \(attributes?.profileType ?? "?")")
        }
        for path in files { context.log.line("file to delete: \(path)") }
        guard !(certificates.isEmpty && profiles.isEmpty && files.isEmpty) else {
            context.log.line("no \(kind.name) certificates, profiles or stored files: nothing to nuke")
            return MatchNukeResult(type: kind.name, team: nil, revokedCertificates: [], keptCertificates: [], deletedProfiles: [], removedFiles: [])
        }

        let team = try self.team(certificates: certificates, profiles: profiles, files: opened.files, password: password)
        try await confirm(team: team, kind: kind, context: context)

        var deleted: [String] = [], revoked: [String] = [], kept: [String] = []
        // fastlane goes on when one deletion fails (it prints Apple's answer); lanes says so too and fails at the end.
        var failures: [String] = []
        /// One removal: said and kept in `done` when Apple takes it, said and counted a failure when it refuses.
        func remove(_ kind: String, id: String, name: String?, _ verb: (past: String, present: String), into done: inout [String],
                    _ request: () async throws -> Void) async throws {
            do {
                try await request()
                context.log.line("\(verb.past) \(kind) '\(name ?? id)' (\(id))")
                done.append(id)
            } catch let error as CancellationError { throw error } catch {
                context.log.line("could not \(verb.present) \(kind) \(id): \(error)")
                failures.append("\(kind) \(id)")
            }
        }
        for profile in profiles {
            try await remove("profile", id: profile.id, name: profile.attributes?.name, ("deleted", "delete"), into: &deleted) {
                try await client.deleteProfile(id: profile.id)
            }
        }
        for certificate in certificates {
            guard !safeRemoveCerts else {
                kept.append(certificate.id)
                continue
            }
            try await remove("certificate", id: certificate.id, name: certificate.attributes?.name, ("revoked", "revoke"), into: &revoked) {
                try await client.revokeCertificate(id: certificate.id)
            }
        }
        if files.isEmpty {
            context.log.line("the storage held no \(kind.name) files")
        } else {
            try opened.remove(Set(files), message: "[fastlane] Nuked files for \(kind.name)", context: context, author: author.value)
        }
        guard failures.isEmpty else {
            throw LanesError(.laneFailure, "match_nuke: App Store Connect refused to remove \(failures.joined(separator: ", ")); the rest is removed, and the storage's files are deleted",
                             hint: "look at Certificates, Identifiers & Profiles, and at the key's role (Admin or Developer)")
        }
        return MatchNukeResult(type: kind.name, team: team, revokedCertificates: revoked, keptCertificates: kept,
                               deletedProfiles: deleted, removedFiles: files)
    }

    /// The one team everything listed belongs to (certificates' and profiles' team ids), checked
    /// against `team_id` when given.
    private func team(certificates: [Resource<CertificateAttributes>], profiles: [Resource<ProfileAttributes>],
                      files: MatchFiles, password: String) throws -> String? {
        var teams = Set<String>()
        for certificate in certificates {
            guard let text = certificate.attributes?.certificateContent, let der = Data(base64Encoded: text),
                  let team = try? Certificate(der: Array(der), source: certificate.id).teamIdentifier else { continue }
            teams.insert(team)
        }
        for profile in profiles {
            guard let text = profile.attributes?.profileContent, let bytes = Data(base64Encoded: text),
                  let team = try? ProvisioningProfileReader.read(bytes: Array(bytes), source: profile.id).teamIdentifier else { continue }
            teams.insert(team)
        }
        let reader = MatchReader(files: files, password: password, passwordVariable: MatchStorageSettings.passwordVariable)
        for path in files.files.keys.sorted() where path.hasSuffix(".cer") {
            guard let der = try? reader.decrypt(path), let team = try? Certificate(der: der, source: path).teamIdentifier else { continue }
            teams.insert(team)
        }
        if let expected = storage.teamID, !expected.isEmpty {
            guard teams.isEmpty || teams == [expected] else {
                throw LanesError(.configuration, "match_nuke: team_id is \(expected), but what the key and storage list belongs to \(teams.sorted().joined(separator: ", "))",
                                 hint: "check team_id (FASTLANE_TEAM_ID), the API key and the storage")
            }
            return expected
        }
        guard teams.count <= 1 else {
            throw LanesError(.configuration, "match_nuke: what is listed belongs to several teams (\(teams.sorted().joined(separator: ", ")))",
                             hint: "pass team_id (FASTLANE_TEAM_ID)")
        }
        return teams.first
    }

    /// Goes on only when asked twice (see the type's comment); throws before any deletion otherwise.
    private func confirm(team: String?, kind: NukeKind, context: StepContext) async throws {
        // What must be typed: the team id, or the kind when no team could be read.
        let word = team ?? kind.name
        let variables = context.environment.variables
        if skipConfirmation, let given = variables[Self.confirmationVariable], !given.isEmpty {
            guard given == word else {
                throw LanesError(.usage, "match_nuke: \(Self.confirmationVariable) is \(given), but what would be nuked belongs to \(word); nothing was deleted",
                                 hint: "set \(Self.confirmationVariable)=\(word) to nuke it")
            }
            context.log.line("confirmed by skip_confirmation and \(Self.confirmationVariable)=\(word)")
            return
        }
        if let unattended = Prompt.unattendedReason(variables) {
            throw LanesError(.usage, "match_nuke would revoke and delete everything listed above, and this run \(unattended): nothing was deleted",
                             hint: "confirm twice: skip_confirmation:true (MATCH_SKIP_CONFIRMATION) and \(Self.confirmationVariable)=\(word)")
        }
        context.log.line("Type \(word) to revoke and delete everything listed above\(kind.name == "distribution" ? " (App Store, Ad Hoc and Developer ID profiles of every app)" : ""):")
        let answer = try await BlockingWork.run(onCancel: {}) { readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces) ?? "" }
        guard answer == word else {
            throw LanesError(.usage, "match_nuke: the answer was not \(word): nothing was deleted")
        }
    }

    /// What fastlane's nuke removes for each match type (Match.cert_type_sym, Nuke#certificate_type, #profile_types).
    struct NukeKind {
        let name: String
        let certificateTypes: [String]
        let certificateFolder: String
        let profileFolders: [String]
        let profileTypes: [String]
    }

    static func kind(of type: MatchType) -> NukeKind {
        let appStore = ["IOS_APP_STORE", "MAC_APP_STORE", "TVOS_APP_STORE", "MAC_CATALYST_APP_STORE"]
        let adHoc = ["IOS_APP_ADHOC", "TVOS_APP_ADHOC"]
        let direct = ["MAC_APP_DIRECT", "MAC_CATALYST_APP_DIRECT"]
        return switch type {
        case .appstore, .adhoc:
            NukeKind(name: "distribution", certificateTypes: ["MAC_APP_DISTRIBUTION", "IOS_DISTRIBUTION", "DISTRIBUTION"],
                     certificateFolder: "distribution", profileFolders: ["appstore", "adhoc", "developer_id"], profileTypes: appStore + adHoc + direct)
        case .development:
            NukeKind(name: "development", certificateTypes: ["MAC_APP_DEVELOPMENT", "IOS_DEVELOPMENT", "DEVELOPMENT"], certificateFolder: "development",
                     profileFolders: ["development"],
                     profileTypes: ["IOS_APP_DEVELOPMENT", "MAC_APP_DEVELOPMENT", "TVOS_APP_DEVELOPMENT", "MAC_CATALYST_APP_DEVELOPMENT"])
        case .enterprise:
            NukeKind(name: "enterprise", certificateTypes: ["IOS_DISTRIBUTION"], certificateFolder: "enterprise", profileFolders: ["enterprise"],
                     profileTypes: ["IOS_APP_INHOUSE", "TVOS_APP_INHOUSE"])
        case .developerID:
            NukeKind(name: "developer_id_application", certificateTypes: ["DEVELOPER_ID_APPLICATION", "DEVELOPER_ID_APPLICATION_G2"],
                     certificateFolder: "developer_id_application", profileFolders: ["developer_id"], profileTypes: direct)
        case .macInstallerDistribution:
            NukeKind(name: "mac_installer_distribution", certificateTypes: ["MAC_INSTALLER_DISTRIBUTION"], certificateFolder: "mac_installer_distribution",
                     profileFolders: [], profileTypes: [])
        case .developerIDInstaller:
            // Apple's API lists no Developer ID Installer certificates: only the storage's files go.
            NukeKind(name: "developer_id_installer", certificateTypes: [], certificateFolder: "developer_id_installer", profileFolders: [], profileTypes: [])
        }
    }
}

/// What `match_nuke` removed.
public struct MatchNukeResult: Sendable, ReportableResult {
    /// fastlane's certificate kind: distribution, development, ...
    public let type: String
    public let team: String?
    public let revokedCertificates: [String]
    /// Removed from the storage, not revoked (`safe_remove_certs`).
    public let keptCertificates: [String]
    public let deletedProfiles: [String]
    /// Stored paths removed from the match storage.
    public let removedFiles: [String]

    public var report: StepResultReport {
        let strings = { (values: [String]) in JSONValue.array(values.map(JSONValue.string)) }
        return StepResultReport(
            lines: ["\(type): \(revokedCertificates.count) certificate(s) revoked, \(deletedProfiles.count) profile(s) deleted, \(removedFiles.count) file(s) removed"
                    + (keptCertificates.isEmpty ? "" : ", \(keptCertificates.count) certificate(s) left valid")],
            json: .object([("type", .string(type)), ("team", team.map(JSONValue.string) ?? .null),
                           ("revoked_certificates", strings(revokedCertificates)), ("kept_certificates", strings(keptCertificates)),
                           ("deleted_profiles", strings(deletedProfiles)), ("removed_files", strings(removedFiles))]))
    }
}
