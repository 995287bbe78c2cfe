import ArgumentParser
import Foundation
import LanesSigning

/// `lanes profile`: inspect provisioning profiles.
struct ProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Inspect provisioning profiles.",
        subcommands: [Info.self]
    )

    struct Info: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "info",
            abstract: "Decode a .mobileprovision and show its name, UUID, team, app id, type and signature.",
            discussion: "A tampered, truncated or unsigned file exits 78. With --trust, a signer that does not chain to the given CA exits 1 (after printing the profile).")

        @Argument(help: "The .mobileprovision file.") var file: String
        @Option(help: "PEM file of CA certificates the profile signature must chain to.") var trust: String?
        @Flag(help: "Print JSON (sorted keys; dates in ISO-8601).") var json = false

        func run() async throws {
            try SigningCLIFailure.reporting {
                let profile: ProvisioningProfile
                do {
                    profile = try ProvisioningProfileReader.read(path: file, trust: trust.map { TrustStore(pemFiles: [$0]) })
                } catch {
                    throw SigningCLIFailure.badInput(String(describing: error))
                }
                let report = ProfileReport(profile, now: Date())
                if json {
                    try SigningOutput.printJSON(report)
                } else {
                    SigningOutput.printFields(report.fields)
                }
                if trust != nil, case .notVerified(let reason) = profile.signature {
                    throw SigningCLIFailure.checkFailed("\(file): signature not verified: \(reason)")
                }
            }
        }
    }
}

/// The JSON and text shape of `lanes profile info`.
struct ProfileReport: Encodable {
    let name: String
    let uuid: String
    let teamIdentifier: String?
    let teamName: String?
    let appIDName: String?
    let applicationIdentifier: String
    let creationDate: Date?
    let expirationDate: Date
    let expired: Bool
    let certificatesSHA1: [String]
    let provisionedDevices: [String]?
    let provisionsAllDevices: Bool
    let type: String
    let platforms: [String]
    let signatureVerified: Bool
    /// The signer when verified, or why it was not.
    let signature: String

    init(_ profile: ProvisioningProfile, now: Date) {
        name = profile.name
        uuid = profile.uuid
        teamIdentifier = profile.teamIdentifier
        teamName = profile.teamName
        appIDName = profile.appIDName
        applicationIdentifier = profile.applicationIdentifier
        creationDate = profile.creationDate
        expirationDate = profile.expirationDate
        expired = profile.isExpired(at: now)
        certificatesSHA1 = profile.developerCertificates.map(\.sha1)
        provisionedDevices = profile.provisionedDevices
        provisionsAllDevices = profile.provisionsAllDevices
        type = profile.type.rawValue
        platforms = profile.platforms
        switch profile.signature {
        case let .verified(signer):
            signatureVerified = true
            signature = "verified, signed by '\(signer)'"
        case let .notVerified(reason):
            signatureVerified = false
            signature = "intact but not verified: \(reason)"
        }
    }

    var fields: [(String, String)] {
        [("Name", name), ("UUID", uuid), ("Type", type), ("Team identifier", teamIdentifier ?? "-"), ("Team name", teamName ?? "-"),
         ("App ID name", appIDName ?? "-"), ("Application identifier", applicationIdentifier),
         ("Expires", expirationDate.formatted(.iso8601) + (expired ? " (EXPIRED)" : "")),
         ("Certificates (SHA-1)", certificatesSHA1.joined(separator: ", ")),
         ("Devices", provisionsAllDevices ? "all" : "\(provisionedDevices?.count ?? 0)"),
         ("Signature", signature)]
    }
}
