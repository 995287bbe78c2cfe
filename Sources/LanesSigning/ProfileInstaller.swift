/// Copies a checked provisioning profile to where signing tools look for it, named by UUID as
/// Xcode names them.
public enum ProfileInstaller {
    /// Reads and checks the profile at `path` (see `ProvisioningProfileReader`), then writes the
    /// original bytes atomically to `<directory>/<UUID>.mobileprovision`.
    public static func install(path: String, trust: TrustStore?, into directory: String) throws(SigningError) -> (profile: ProvisioningProfile, installedPath: String) {
        try install(bytes: LocalFile.contents(of: path), source: path, trust: trust, into: directory)
    }

    /// Checks profile bytes held in memory and writes them to `<directory>/<UUID>.mobileprovision`;
    /// `source` names them in errors.
    public static func install(bytes: [UInt8], source: String, trust: TrustStore?, into directory: String) throws(SigningError) -> (profile: ProvisioningProfile, installedPath: String) {
        let profile = try ProvisioningProfileReader.read(bytes: bytes, source: source, trust: trust)
        guard profile.uuid.allSatisfy({ $0.isHexDigit || $0 == "-" }), !profile.uuid.isEmpty else {
            throw .profileField(path: source, field: "UUID", problem: "'\(profile.uuid)' is not a UUID")
        }
        try LocalFile.makeDirectory(directory, mode: 0o755, forceMode: false)
        let destination = "\(directory)/\(profile.uuid).mobileprovision"
        try LocalFile.writeAtomically(bytes, to: destination, mode: 0o644)
        return (profile, destination)
    }
}
