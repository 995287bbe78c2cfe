#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesSigning
import LanesMatch

/// `match_import` (fastlane's `match import`): encrypts a certificate, its key and optionally a
/// profile as fastlane does (v2, a fresh salt per file), places them in the match layout and
/// commits and pushes them in one commit.
public struct MatchImport: Step {
    public static let definition = StepDefinition(
        id: "match_import",
        summary: "Encrypt a certificate, its .p12 and a profile into a fastlane match storage and push",
        category: .signing,
        examples: [StepExample(
            swift: """
                try await matchImport(type: .appstore, certPath: "ABCDE12345.cer", p12Path: "ABCDE12345.p12",
                                      profilePath: "Brewer_AppStore.mobileprovision",
                                      gitURL: "git@github.com:brewer/certificates.git")
                """,
            commandLine: ["type:appstore", "cert_path:ABCDE12345.cer", "p12_path:ABCDE12345.p12",
                          "git_url:git@github.com:brewer/certificates.git"],
            environment: ["MATCH_PASSWORD"])]
    )

    @StepOption("type", "Profile type: appstore, adhoc, development, enterprise, developer_id, mac_installer_distribution, developer_id_installer",
                env: "MATCH_TYPE", default: .development)
    var type: MatchType
    @StepOption("cert_path", "The certificate (.cer, DER); its file name becomes its id in the storage", env: "MATCH_CERT_PATH")
    var certPath: String
    @StepOption("p12_path", "Its private key: a PKCS#12 file without password, or a PEM key", env: "MATCH_P12_PATH")
    var p12Path: String
    @StepOption("profile_path", "A provisioning profile to store beside them", env: "MATCH_PROFILE_PATH")
    var profilePath: String?
    @StepOption("platform", "ios, tvos, macos, catalyst or visionos", env: "MATCH_PLATFORM", default: .ios)
    var platform: MatchPlatform
    var storage = MatchStorageSettings()
    var author = MatchCommitAuthor()

    public init() {}

    public var banner: String { "Import \(certPath) into match storage \(storage.storageMode) (\(type.rawValue))" }

    public func run(in context: StepContext) async throws -> [String] {
        do {
            return try importFiles(in: context)
        } catch let error as MatchError {
            throw LanesError(error.isEnvironmental ? .environment : .configuration, error.description, hint: error.hint)
        }
    }

    private func importFiles(in context: StepContext) throws -> [String] {
        let password = try MatchStorageSettings.password(context.environment)
        let certPath = context.resolve(self.certPath)
        let p12Path = context.resolve(self.p12Path)
        let certificateBytes = try SigningFile.contents(of: certPath)
        let certificate = try Certificate(der: certificateBytes, source: certPath)
        let keyBytes = try SigningFile.contents(of: p12Path)
        // What sync_code_signing will read back: the key must open without a password and belong to the certificate.
        let identity: SigningIdentity
        if SigningIdentity.isPEMPrivateKey(keyBytes) {
            identity = try SigningIdentity.pair(certificateDER: certificateBytes, privateKeyPEM: keyBytes, source: p12Path)
        } else {
            identity = try PKCS12File.read(bytes: keyBytes, password: "", source: p12Path)
        }
        guard identity.certificate.sha1 == certificate.sha1 else {
            throw MatchError.unreadable(file: p12Path, problem: "it holds certificate '\(identity.certificate.displayName)', not '\(certificate.displayName)' of \(certPath)")
        }
        let fileName: Substring = certPath.split(separator: "/").last ?? Substring(certPath)
        let id = String(fileName.split(separator: ".").first ?? fileName)
        let folder = MatchLayout.certificateFolder(type)
        var clear: [String: [UInt8]] = ["\(folder)/\(id).cer": certificateBytes, "\(folder)/\(id).p12": keyBytes]
        if let profilePath {
            let path = context.resolve(profilePath)
            let bytes = try SigningFile.contents(of: path)
            let profile = try ProvisioningProfileReader.read(bytes: bytes, source: path)
            let bundleID = profile.bundleIdentifierPattern
            guard let stored = MatchLayout.profilePath(type: type, appIdentifier: bundleID, platform: platform) else {
                throw MatchError.badOption(name: "type", problem: "\(type.rawValue) has no provisioning profiles; leave out profile_path")
            }
            clear[stored] = bytes
        }

        let opened = try storage.open(context: context)
        // One password per storage: never add files another password cannot read back.
        if let existing = opened.files.encryptedPaths.first {
            _ = try MatchReader(files: opened.files, password: password).decrypt(existing)
        }
        var changes: [String: [UInt8]] = [:]
        for (path, bytes) in clear { changes[path] = try MatchEncryption.encrypt(bytes, password: password) }
        try opened.save(changes, message: MatchLayout.commitMessage(type: type, platform: platform), context: context,
                        author: author.value)
        return changes.keys.sorted()
    }
}

/// `match_change_password`: re-encrypts every file of a match storage with `MATCH_NEW_PASSWORD`
/// (v2, fresh salts) in one commit, as fastlane's `match change_password`.
public struct MatchChangePassword: Step {
    public static let definition = StepDefinition(
        id: "match_change_password",
        summary: "Re-encrypt every file of a fastlane match storage with a new password, in one commit",
        category: .signing,
        examples: [StepExample(
            swift: """
                try await matchChangePassword(gitURL: "git@github.com:brewer/certificates.git")
                """,
            commandLine: ["git_url:git@github.com:brewer/certificates.git"],
            environment: ["MATCH_PASSWORD", "MATCH_NEW_PASSWORD"])]
    )

    var storage = MatchStorageSettings()
    var author = MatchCommitAuthor()

    public init() {}

    static let newPasswordVariable = "MATCH_NEW_PASSWORD"

    public func run(in context: StepContext) async throws -> [String] {
        do {
            let password = try MatchStorageSettings.password(context.environment)
            guard let newPassword = context.environment[Self.newPasswordVariable], !newPassword.isEmpty else {
                throw MatchError.passwordMissing(variable: Self.newPasswordVariable)
            }
            context.environment.redactor.register(newPassword, name: Self.newPasswordVariable)
            let opened = try storage.open(context: context)
            let reader = MatchReader(files: opened.files, password: password)
            var changes: [String: [UInt8]] = [:]
            // Everything decrypts with the old password before anything is written.
            for path in opened.files.encryptedPaths { changes[path] = try reader.decrypt(path) }
            guard !changes.isEmpty else { throw MatchError.notFound("the match storage holds no encrypted file", hint: "check git_url and git_branch") }
            for (path, clear) in changes { changes[path] = try MatchEncryption.encrypt(clear, password: newPassword) }
            try opened.save(changes, message: "[fastlane] Changed passphrase", context: context, author: author.value)
            context.log.line("re-encrypted \(changes.count) files; set MATCH_PASSWORD to the new password everywhere it is used")
            return changes.keys.sorted()
        } catch let error as MatchError {
            throw LanesError(error.isEnvironmental ? .environment : .configuration, error.description, hint: error.hint)
        }
    }
}

/// `match_decrypt`: writes the clear files of a match storage into a folder, for inspection.
public struct MatchDecrypt: Step {
    public static let definition = StepDefinition(
        id: "match_decrypt",
        summary: "Write the decrypted files of a fastlane match storage into a folder (private keys: handle with care)",
        category: .signing,
        examples: [StepExample(
            swift: """
                try await matchDecrypt(output: "/tmp/match-clear", gitURL: "git@github.com:brewer/certificates.git")
                """,
            commandLine: ["output:/tmp/match-clear", "git_url:git@github.com:brewer/certificates.git"],
            environment: ["MATCH_PASSWORD"])]
    )

    @StepOption("output", "Folder to write the clear files into (created with mode 0700)", env: "MATCH_DECRYPT_OUTPUT")
    var output: String
    var storage = MatchStorageSettings()

    public init() {}

    public func run(in context: StepContext) async throws -> [String] {
        do {
            let password = try MatchStorageSettings.password(context.environment)
            let opened = try storage.open(context: context)
            let reader = MatchReader(files: opened.files, password: password)
            var clear: [String: [UInt8]] = [:]
            for path in opened.files.encryptedPaths { clear[path] = try reader.decrypt(path) }
            let root = context.resolve(output)
            try MatchFiles(clear).writePrivately(into: root)
            context.log.line("warning: \(root) now holds private keys in clear; delete it when done (rm -rf \(root))")
            return clear.keys.sorted()
        } catch let error as MatchError {
            throw LanesError(error.isEnvironmental ? .environment : .configuration, error.description, hint: error.hint)
        }
    }
}
