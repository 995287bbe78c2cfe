#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesSigning

/// `import_certificate`: reads a PKCS#12 identity through OpenSSL, refuses an expired one, and
/// imports it into a keychain created for the lane (deleted when the lane ends unless kept).
public struct ImportCertificate: Step {
    public static let definition = StepDefinition(
        id: "import_certificate",
        summary: "Import a PKCS#12 signing certificate into a keychain created for the lane",
        category: .signing,
        examples: [StepExample(
            swift: """
                try await importCertificate(keychainName: "ci", keychainPassword: secret("KEYCHAIN_PASSWORD"),
                                            certificatePath: "signing/ios_distribution.p12",
                                            certificatePassword: secret("CERTIFICATE_PASSWORD"))
                """,
            commandLine: ["keychain_name:ci", "certificate_path:signing/ios_distribution.p12"],
            environment: ["KEYCHAIN_PASSWORD", "CERTIFICATE_PASSWORD"])],
        // A one-off import from the shell is useless if the keychain goes away at once.
        standaloneDefaults: ["keep_keychain": "true"]
    )

    @StepOption("keychain_name", "Name of the keychain created for the lane", env: "KEYCHAIN_NAME")
    var keychainName: String
    @StepOption("keychain_password", "Password of that keychain; a random one when unset", env: "KEYCHAIN_PASSWORD", secret: true)
    var keychainPassword: Secret?
    @StepOption("certificate_path", "The .p12 file (certificate with private key)", env: "CERTIFICATE_PATH")
    var certificatePath: String
    @StepOption("certificate_password", "Password of the .p12 file; empty when unset", env: "CERTIFICATE_PASSWORD", secret: true)
    var certificatePassword: Secret?
    @StepOption("keep_keychain", "Keep the keychain after the lane instead of deleting it", env: "LANES_KEEP_KEYCHAIN", default: false)
    var keepKeychain: Bool
    @StepOption("expiry_warning_days", "Warn when the certificate expires within this many days",
            env: "LANES_CERTIFICATE_WARNING_DAYS", default: 30)
    var expiryWarningDays: Int

    public init() {}

    public var banner: String { "Import \(certificatePath) into keychain \(keychainName)" }

    public func run(in context: StepContext) async throws -> ImportedCertificate {
        let password = try keychainPassword?.value ?? RandomSecret.hex(bytes: 32)
        context.environment.redactor.register(password)
        let keychain = try SigningConfiguration.keychain(named: keychainName, password: password, context: context)
        return try await run(in: context, keychain: keychain)
    }

    /// The work, with the keychain chosen by the caller (the platform's, or a recorded stand-in).
    func run(in context: StepContext, keychain: any Keychain) async throws -> ImportedCertificate {
        let path = context.resolve(certificatePath)
        let identity: SigningIdentity
        let warning: String?
        do {
            identity = try PKCS12File.read(path: path, password: certificatePassword?.value ?? "")
            warning = try ValidityPolicy(warningDays: expiryWarningDays).check(identity.certificate, from: path, at: Date())
        } catch {
            // The error keeps its type for OnError hooks; where the password came from goes to the log.
            if let hint = hint(for: error) { context.log.line("hint: \(hint)") }
            throw error
        }
        if let warning { context.log.line("warning: \(warning)") }
        return try await Self.store(identity, from: path, expiryWarning: warning, in: keychain, keep: keepKeychain, context: context)
    }

    /// Creates the lane's keychain (deleted when the lane ends unless kept), imports `identity`
    /// into it and records it for later steps; shared with `sync_code_signing`.
    static func store(_ identity: SigningIdentity, from path: String, expiryWarning warning: String?, in keychain: any Keychain,
                      keep keepKeychain: Bool, context: StepContext) async throws -> ImportedCertificate {
        if context.values[LaneKeychains.self]?[keychain.name] != nil {
            // Made by an earlier step of this lane: its cleanup is registered already.
            if keepKeychain { keychain.keepAfterLane() }
        } else {
            if keepKeychain {
                context.log.line("keeping keychain \(keychain.location) after the lane (keep_keychain)")
            } else {
                // Registered before creating, so a half-made keychain is removed too.
                context.cleanups.push("delete keychain \(keychain.name)") { try await keychain.delete() }
            }
            try await keychain.create()
            context.values[LaneKeychains.self] = (context.values[LaneKeychains.self] ?? [:]).merging([keychain.name: keychain]) { $1 }
            // A kept keychain is not a leftover for the next run to remove.
            if keepKeychain { keychain.keepAfterLane() }
        }
        let stored = try await keychain.importIdentity(identity)
        let certificate = identity.certificate
        context.log.line("imported '\(stored.commonName)' (SHA-1 \(stored.sha1), team \(certificate.teamIdentifier ?? "none"), valid until \(certificate.notAfter.formatted(.iso8601))) into keychain \(keychain.location)")
        let imported = ImportedCertificate(certificate: certificate, certificatePath: path, keychainName: keychain.name,
                                           keychainPath: keychain.location, deletedAtLaneEnd: !keepKeychain, expiryWarning: warning)
        context.values[ImportedSigningIdentity.self] = imported.signingIdentity
        context.values[ImportedSigningCertificate.self] = imported
        return imported
    }

    private func hint(for error: any Error) -> String? {
        guard case .wrongPasswordOrDamaged? = error as? SigningError else { return nil }
        guard let certificatePassword else {
            return "no password was given; set CERTIFICATE_PASSWORD or pass certificatePassword"
        }
        return "the password came from \(certificatePassword.name.isEmpty ? "the caller" : "$" + certificatePassword.name)"
    }
}

/// The common name of the certificate the lane imported last; `update_project_provisioning` writes
/// it as `CODE_SIGN_IDENTITY` when no identity is given.
public enum ImportedSigningIdentity: LaneValueKey {
    public typealias Value = String
}

/// The certificate the lane imported last; `install_provisioning_profile` checks that the profile
/// lists it and belongs to its team.
public enum ImportedSigningCertificate: LaneValueKey {
    public typealias Value = ImportedCertificate
}
