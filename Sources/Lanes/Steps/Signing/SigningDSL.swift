import LanesSigning

/// Imports a PKCS#12 signing certificate into a keychain made for this lane; see `ImportCertificate`.
/// Passwords come from `secret("...")`; without a keychain password a random one is used.
@discardableResult
public func importCertificate(keychainName: String, keychainPassword: Secret? = nil, certificatePath: String,
                              certificatePassword: Secret? = nil, keepKeychain: Bool = false) async throws -> ImportedCertificate {
    try await runStep(ImportCertificate(keychainName: keychainName, keychainPassword: keychainPassword,
                                        certificatePath: certificatePath, certificatePassword: certificatePassword,
                                        keepKeychain: keepKeychain))
}

/// Checks and installs a provisioning profile; see `InstallProvisioningProfile`. Pass the result
/// of `importCertificate` as `certificate` to check that profile and certificate belong together.
@discardableResult
public func installProvisioningProfile(path: String, trust: String? = nil, appIdentifier: String? = nil,
                                       certificate: ImportedCertificate? = nil) async throws -> InstalledProfile {
    try await runStep(InstallProvisioningProfile(profilePath: path, trust: trust, appIdentifier: appIdentifier,
                                                 certificate: certificate))
}
