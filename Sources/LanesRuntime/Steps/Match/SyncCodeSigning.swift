#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesSigning
import LanesMatch
internal import LanesPlatform

/// `sync_code_signing` (fastlane's `match`): reads the team's match storage as fastlane wrote it,
/// decrypts in memory, imports the newest valid certificate of the type into the lane's keychain
/// and installs each app identifier's profile after the checks of `install_provisioning_profile`.
public struct SyncCodeSigning: Step {
    public static let definition = StepDefinition(
        id: "sync_code_signing",
        summary: "Import the certificate and install the profiles of a fastlane match storage (git, S3 or a folder)",
        category: .signing,
        examples: [StepExample(
            swift: """
                try await syncCodeSigning(type: .appstore, appIdentifier: ["works.sth.brewer"],
                                          readonly: true, gitURL: "git@github.com:brewer/certificates.git")
                """,
            commandLine: ["type:appstore", "app_identifier:works.sth.brewer", "readonly:true",
                          "git_url:git@github.com:brewer/certificates.git"],
            environment: ["MATCH_PASSWORD"])],
        standaloneDefaults: ["keep_keychain": "true"],
        aliases: ["match"],
        ignoredOptions: [
            "verbose": "lanes prints what it imports and installs; the step's --json events carry the rest",
            "skip_docs": "lanes writes no README into the storage",
            "username": "lanes talks to App Store Connect with an API key only (app_store_connect_api_key; see docs/appstore.md)",
            "team_name": "an API key belongs to one team",
        ]
    )

    @StepOption("type", "Profile type: appstore, adhoc, development, enterprise, developer_id, mac_installer_distribution, developer_id_installer",
                env: "MATCH_TYPE", default: .development)
    var type: MatchType
    @StepOption("app_identifier", "Bundle identifiers whose profiles to install (comma-separated on the command line; default: the lane's Configuration's)",
                env: "MATCH_APP_IDENTIFIER", appfile: .appIdentifier)
    var appIdentifier: [String]
    @StepOption("readonly", "Only read the storage; never create or renew certificates and profiles", env: "MATCH_READONLY", default: false)
    var readonly: Bool
    var storage = MatchStorageSettings()
    @StepOption("platform", "ios, tvos, macos, catalyst or visionos", env: "MATCH_PLATFORM", default: .ios)
    var platform: MatchPlatform
    @StepOption("certificate_id", "Use this certificate (its file name without .cer) instead of the newest valid one", env: "MATCH_CERTIFICATE_ID")
    var certificateID: String?
    @StepOption("keychain_name", "Name of the keychain created for the lane", env: "MATCH_KEYCHAIN_NAME", default: "match")
    var keychainName: String
    @StepOption("keychain_password", "Password of that keychain; a random one when unset", env: "MATCH_KEYCHAIN_PASSWORD", secret: true)
    var keychainPassword: Secret?
    @StepOption("keep_keychain", "Keep the keychain after the lane instead of deleting it", env: "LANES_KEEP_KEYCHAIN", default: false)
    var keepKeychain: Bool
    @StepOption("force_for_new_devices", "With readonly:false, renew development and ad hoc profiles that miss a device enabled in App Store Connect",
                env: "MATCH_FORCE_FOR_NEW_DEVICES", default: false)
    var forceForNewDevices: Bool
    var author = MatchCommitAuthor()
    @StepOption("trust", "PEM file of CA certificates each profile's signer must chain to (Apple's root CA)", env: "LANES_PROFILE_TRUST")
    var trust: String?

    public init() {}

    public var banner: String { "Sync \(type.rawValue) signing for \(appIdentifier.joined(separator: ", ")) from match storage \(storage.storageMode)" }

    public func run(in context: StepContext) async throws -> MatchSigningResult {
        do {
            return try await sync(in: context)
        } catch let error as MatchError {
            throw LanesError(error.isEnvironmental ? .environment : .configuration, error.description, hint: error.hint)
        }
    }

    private func sync(in context: StepContext) async throws -> MatchSigningResult {
        let keychainPassword = try self.keychainPassword?.value ?? RandomSecret.hex(bytes: 32)
        context.environment.redactor.register(keychainPassword)
        let plan = try await prepare(in: context)
        let keychain = try SigningConfiguration.keychain(named: keychainName, password: keychainPassword, context: context)
        let imported = try await ImportCertificate.store(plan.identity, from: plan.certificate.path, expiryWarning: nil, in: keychain,
                                                         keep: keepKeychain, context: context)
        let installed = try install(plan.profiles, certificateName: imported.signingIdentity, context: context)
        return MatchSigningResult(type: type.rawValue, certificate: imported, certificateStoredPath: plan.certificate.path,
                                  skipped: plan.certificate.warnings, profiles: installed, created: plan.created)
    }

    /// What the storage gives, decrypted and checked before anything on the machine changes.
    private struct Plan {
        let certificate: MatchCertificate
        let identity: SigningIdentity
        let profiles: [StoredProfile]
        /// Stored paths of what `readonly: false` created and committed.
        let created: [String]
    }

    private struct StoredProfile: Sendable {
        let appIdentifier: String
        let path: String
        let bytes: [UInt8]
    }

    private func prepare(in context: StepContext) async throws -> Plan {
        let password = try MatchStorageSettings.password(context.environment)
        let opened = try storage.open(context: context)
        let reader = MatchReader(files: opened.files, password: password, passwordVariable: MatchStorageSettings.passwordVariable)
        // Clear files created through App Store Connect, encrypted and stored in one commit below.
        var created: [String: [UInt8]] = [:]
        let (chosen, identity) = try await certificate(reader, created: &created, context: context)
        for warning in chosen.warnings { context.log.line("warning: " + warning) }
        var profiles: [StoredProfile] = []
        do {
            profiles = try await storedOrCreatedProfiles(reader, chosen: chosen, created: &created, context: context)
        } catch {
            // A certificate Apple issued is stored even when a profile then fails: its key exists nowhere else.
            if !created.isEmpty {
                try save(created, to: opened, password: password, context: context)
            }
            throw error
        }
        if !created.isEmpty {
            try save(created, to: opened, password: password, context: context)
        }
        return Plan(certificate: chosen, identity: identity, profiles: profiles, created: created.keys.sorted())
    }

    /// Each app identifier's profile: the stored one when it fits, else (`readonly: false`) a new one.
    private func storedOrCreatedProfiles(_ reader: MatchReader, chosen: MatchCertificate, created: inout [String: [UInt8]],
                                         context: StepContext) async throws -> [StoredProfile] {
        guard type.profilePrefix != nil else { return [] }
        let certificateID = String(chosen.path.split(separator: "/").last?.dropLast(4) ?? "")
        var profiles: [StoredProfile] = []
        for appIdentifier in appIdentifier {
            if let stored = try await usableProfile(reader, appIdentifier: appIdentifier, chosen: chosen, context: context) {
                profiles.append(stored)
                continue
            }
            guard let path = MatchLayout.profilePath(type: type, appIdentifier: appIdentifier, platform: platform) else { continue }
            context.log.line("creating profile \(path) for certificate \(certificateID) through App Store Connect")
            let bytes = try await context.matchPortal().createProfile(type: type, appIdentifier: appIdentifier, platform: platform,
                                                                     certificateIDs: [certificateID])
            let profile = StoredProfile(appIdentifier: appIdentifier, path: path, bytes: bytes)
            try checkListsCertificate(profile, chosen)
            created[path] = bytes
            profiles.append(profile)
        }
        return profiles
    }

    /// Encrypts (v2) what was created and stores it in one commit with fastlane's message.
    private func save(_ created: [String: [UInt8]], to opened: OpenedMatchStorage, password: String, context: StepContext) throws {
        var changes: [String: [UInt8]] = [:]
        for (path, clear) in created { changes[path] = try MatchEncryption.encrypt(clear, password: password) }
        try opened.save(changes, message: MatchLayout.commitMessage(type: type, platform: platform), context: context,
                        author: author.value, keepUnpushedOf: type)
    }

    /// The newest valid stored certificate and its key; with `readonly: false` and none there, a new one.
    private func certificate(_ reader: MatchReader, created: inout [String: [UInt8]],
                             context: StepContext) async throws -> (MatchCertificate, SigningIdentity) {
        do {
            let chosen = try reader.chooseCertificate(type: type, teamID: storage.teamID, certificateID: certificateID, at: Date())
            return (chosen, try reader.identity(for: chosen))
        } catch {
            guard case .notFound = error, !readonly, certificateID == nil else { throw error }
            context.log.line("\(error.description); creating a \(type.certificateFolder) certificate through App Store Connect")
            return try await createCertificate(portal: context.matchPortal(), into: &created)
        }
    }

    /// A new key and CSR (OpenSSL), the certificate Apple issues for it, stored as fastlane's
    /// `cert` stores them: `<id>.cer` (DER) and `<id>.p12` holding the PEM key.
    private func createCertificate(portal: any MatchPortal, into created: inout [String: [UInt8]]) async throws -> (MatchCertificate, SigningIdentity) {
        let request = try CertificateRequest.generate(commonName: "lanes match \(type.rawValue)")
        let issued = try await portal.createCertificate(type: type, csrPEM: request.csrPEM)
        let folder = MatchLayout.certificateFolder(type)
        let path = "\(folder)/\(issued.id).cer"
        let certificate = try Certificate(der: issued.der, source: path)
        let identity = try SigningIdentity.pair(certificateDER: issued.der, privateKeyPEM: request.privateKeyPEM, source: path)
        created[path] = issued.der
        created["\(folder)/\(issued.id).p12"] = request.privateKeyPEM
        return (MatchCertificate(certificate: certificate, path: path, keyPath: "\(folder)/\(issued.id).p12", warnings: []), identity)
    }

    /// The stored profile for `appIdentifier` when it can be installed as it is: present, listing
    /// the chosen certificate, not expired and (`force_for_new_devices`) listing every enabled
    /// device. Otherwise nil with `readonly: false` (it is made
    /// again), an error naming the file with `readonly: true`.
    private func usableProfile(_ reader: MatchReader, appIdentifier: String, chosen: MatchCertificate,
                               context: StepContext) async throws -> StoredProfile? {
        let found: (path: String, bytes: [UInt8])
        do {
            found = try reader.profile(type: type, appIdentifier: appIdentifier, platform: platform)
        } catch {
            guard case .notFound = error, !readonly else { throw error }
            context.log.line(error.description)
            return nil
        }
        let profile = StoredProfile(appIdentifier: appIdentifier, path: found.path, bytes: found.bytes)
        let read = try ProvisioningProfileReader.read(bytes: found.bytes, source: found.path)
        let problem: String
        if !read.contains(chosen.certificate) {
            problem = "the profile does not list the chosen certificate " + chosen.path + " (SHA-1 " + chosen.certificate.sha1 + ")"
        } else if read.expirationDate <= Date() {
            problem = "the profile expired on \(read.expirationDate.formatted(.iso8601))"
        } else if let missing = try await missingDevices(read, context: context), !missing.isEmpty {
            problem = "the profile lacks \(missing.count) device(s) enabled in App Store Connect (\(missing.prefix(5).joined(separator: ", ")))"
        } else {
            return profile
        }
        if readonly { throw MatchError.unreadable(file: found.path, problem: problem) }
        context.log.line("\(found.path): \(problem); renewing it")
        return nil
    }

    /// With `force_for_new_devices` (development and ad hoc, `readonly: false`): the enabled
    /// devices the profile does not list; nil when the check does not apply.
    private func missingDevices(_ profile: ProvisioningProfile, context: StepContext) async throws -> [String]? {
        guard forceForNewDevices, !readonly, type == .development || type == .adhoc else { return nil }
        let listed = Set((profile.provisionedDevices ?? []).map { $0.lowercased() })
        return try await context.matchPortal().enabledDevices(platform: platform).filter { !listed.contains($0.lowercased()) }
    }

    /// A profile must list the chosen certificate before the keychain changes.
    private func checkListsCertificate(_ profile: StoredProfile, _ chosen: MatchCertificate) throws {
        let read = try ProvisioningProfileReader.read(bytes: profile.bytes, source: profile.path)
        guard read.contains(chosen.certificate) else {
            throw MatchError.unreadable(file: profile.path, problem: "App Store Connect made a profile that does not list certificate " + chosen.path)
        }
    }

    private func install(_ profiles: [StoredProfile], certificateName: String, context: StepContext) throws -> [MatchInstalledProfile] {
        var installed: [MatchInstalledProfile] = []
        var exported: [String: String] = context.values[LaneEnvironmentAdditions.self] ?? [:]
        let trustPath: String? = trust.map { context.resolve($0) }
        for profile in profiles {
            let result = try InstallProvisioningProfile.checkAndInstall(bytes: profile.bytes, source: profile.path,
                                                                        appIdentifier: profile.appIdentifier, trust: trustPath, context: context)
            installed.append(MatchInstalledProfile(appIdentifier: profile.appIdentifier, storedPath: profile.path, profile: result))
            let names = MatchEnvironmentNames.all(appIdentifier: profile.appIdentifier, type: type, platform: platform,
                                                  uuid: result.uuid, teamID: result.teamIdentifier, profileName: result.name,
                                                  profilePath: result.installedPath, certificateName: certificateName)
            exported.merge(names) { _, new in new }
        }
        context.values[LaneEnvironmentAdditions.self] = exported
        // fastlane's SIGH_PROFILE_TYPE and MATCH_PROVISIONING_PROFILE_MAPPING, which build_app reads.
        let method: ExportMethod = switch type {
        case .adhoc: .adHoc
        case .development: .development
        case .enterprise: .enterprise
        default: .appStore
        }
        var mapping = context.values[LaneSigningProfiles.self]?.profiles ?? [:]
        for profile in installed { mapping[profile.appIdentifier] = profile.profile.name }
        context.values[LaneSigningProfiles.self] = InstalledProfiles(exportMethod: method, profiles: mapping)
        return installed
    }
}

/// What `sync_code_signing` did: the certificate it imported and, per app identifier, the
/// profile it installed.
public struct MatchSigningResult: Sendable {
    /// The match type (`appstore`, ...).
    public let type: String
    public let certificate: ImportedCertificate
    /// The `.cer` it came from, relative to the storage root.
    public let certificateStoredPath: String
    /// Why other certificates were not used, one line each, naming the file.
    public let skipped: [String]
    public let profiles: [MatchInstalledProfile]
    /// Stored paths of the files `readonly: false` created through App Store Connect and committed.
    public let created: [String]

    public var certificateName: String { certificate.signingIdentity }
    public var certificateSHA1: String { certificate.sha1 }
}

/// One installed profile of `sync_code_signing`.
public struct MatchInstalledProfile: Sendable {
    public let appIdentifier: String
    /// The file it came from, relative to the storage root.
    public let storedPath: String
    public let profile: InstalledProfile

    public var name: String { profile.name }
    public var uuid: String { profile.uuid }
    public var path: String { profile.installedPath }
    public var teamIdentifier: String? { profile.teamIdentifier }
    public var type: ProfileType { profile.type }
}

/// The lane's one mechanism for variables a step sets for later steps and their children is
/// `LaneEnvironmentAdditions` (`sync_code_signing`'s `sigh_*` names, `xcodes`' DEVELOPER_DIR).
@available(*, deprecated, renamed: "LaneEnvironmentAdditions")
public typealias ChildProcessEnvironment = LaneEnvironmentAdditions

extension MatchSigningResult: ReportableResult {
    public var report: StepResultReport {
        var lines = ["certificate: \(certificateName) (SHA-1 \(certificateSHA1)) from \(certificateStoredPath)"]
        lines += skipped.map { "skipped: \($0)" }
        lines += created.map { "created: \($0)" }
        for profile in profiles {
            lines.append("\(profile.appIdentifier): '\(profile.name)' UUID \(profile.uuid) team \(profile.teamIdentifier ?? "none") (\(profile.type.rawValue)) at \(profile.path)")
        }
        let certificateJSON: JSONValue = .object([
            ("name", .string(certificateName)), ("sha1", .string(certificateSHA1)),
            ("team", certificate.teamIdentifier.map(JSONValue.string) ?? .null),
            ("stored_path", .string(certificateStoredPath)), ("keychain", .string(certificate.keychainName)),
            ("keychain_path", .string(certificate.keychainPath)),
        ])
        var profilesJSON: [JSONValue] = []
        for profile in profiles {
            let team: JSONValue = profile.teamIdentifier.map(JSONValue.string) ?? .null
            let fields: [(String, JSONValue)] = [
                ("app_identifier", .string(profile.appIdentifier)), ("name", .string(profile.name)), ("uuid", .string(profile.uuid)),
                ("path", .string(profile.path)), ("team", team), ("type", .string(profile.type.rawValue)),
                ("stored_path", .string(profile.storedPath)),
            ]
            profilesJSON.append(.object(fields))
        }
        let skippedJSON: [JSONValue] = skipped.map { JSONValue.string($0) }
        let json: JSONValue = .object([("type", .string(type)), ("certificate", certificateJSON),
                                       ("skipped", .array(skippedJSON)), ("profiles", .array(profilesJSON)),
                                       ("created", .array(created.map { JSONValue.string($0) }))])
        return StepResultReport(lines: lines, json: json)
    }
}
