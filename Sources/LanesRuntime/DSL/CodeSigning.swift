internal import LanesPlatform
/// Where a Lanefile's signing material lives and which configurations use it, as values the
/// compiled runner lists (`lanes list signing --json`), so `lanes doctor` and the daemon's expiry
/// watch can check every configuration's certificate and profile without running a lane.
///
/// ```swift
/// let lanes = Lanefile {
///     CodeSigning(folder: "Example/codesigning", trust: "Example/codesigning/test-root.crt",
///                 configurations: [Staging(), Production()])
///     Lane("developerRelease", ...) { ... }
/// }
/// ```
public struct CodeSigningDeclaration: Sendable {
    /// One configuration's files, named as the protocol names them.
    public struct Entry: Sendable {
        /// The configuration's type name (`Staging`).
        public let name: String
        public let certificate: String
        public let provisioningProfile: String
        public let appIdentifier: String
        public let buildConfiguration: String
        public let exportMethod: ExportMethod
    }

    /// The folder holding `CERTIFICATE.p12` and `PROFILE.mobileprovision`, relative to the project.
    public let folder: String
    /// A PEM file the profiles' signer must chain to; nil: Apple's chain is not checked on Linux.
    public let trust: String?
    /// The variable (a secret) holding the certificates' password: its name, never its value.
    public let certificatePasswordVariable: String
    public let configurations: [Entry]

    public init(folder: String, trust: String?, certificatePasswordVariable: String, configurations: [any Configuration]) {
        self.folder = folder
        self.trust = trust
        self.certificatePasswordVariable = certificatePasswordVariable
        self.configurations = configurations.map { configuration in
            Entry(name: String(describing: type(of: configuration)), certificate: configuration.certificate,
                  provisioningProfile: configuration.provisioningProfile, appIdentifier: configuration.appIdentifier,
                  buildConfiguration: configuration.buildConfiguration, exportMethod: configuration.exportMethod)
        }
    }

    /// `lanes list signing --json`.
    var json: JSONValue {
        .object([
            ("folder", .string(folder)),
            ("trust", trust.map { .string($0) } ?? .null),
            ("certificatePassword", .string(certificatePasswordVariable)),
            ("configurations", .array(configurations.map { entry in
                .object([
                    ("name", .string(entry.name)),
                    ("certificate", .string(entry.certificate)),
                    ("provisioningProfile", .string(entry.provisioningProfile)),
                    ("appIdentifier", .string(entry.appIdentifier)),
                    ("buildConfiguration", .string(entry.buildConfiguration)),
                    ("exportMethod", .string(entry.exportMethod.rawValue)),
                ])
            })),
        ])
    }

    /// `lanes list signing`.
    var table: String {
        let rows = configurations.map { entry in
            [entry.name, "\(folder)/\(entry.certificate).p12", "\(folder)/\(entry.provisioningProfile).mobileprovision", entry.appIdentifier]
        }
        return TextTable(header: ["Configuration", "Certificate", "Profile", "App identifier"], rows: rows).rendered + "\n"
    }
}

/// Declares the Lanefile's signing material: the folder, the trust anchor, the variable holding
/// the certificates' password, and every configuration that signs. Declare it once.
public func CodeSigning(folder: String, trust: String? = nil, certificatePassword: String = "CERTIFICATE_PASSWORD",
                        configurations: [any Configuration]) -> LanefileItem {
    LanefileItem(kind: .codeSigning(CodeSigningDeclaration(folder: folder, trust: trust,
                                                           certificatePasswordVariable: certificatePassword,
                                                           configurations: configurations)))
}
