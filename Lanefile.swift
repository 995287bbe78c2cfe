// lanes' own example lanes, run on the bundled Brewer example (Example/): `make demo` runs
// `lanes developerRelease --env demo`. Example/codesigning holds synthetic test certificates and
// profiles (team ABCDE12345, trust anchor test-root.crt); nothing here chains to Apple.
import Lanes

/// What differs between the environments Brewer ships to.
struct Staging: Configuration {
    let certificate = "ios_distribution"          // .p12 file name in the code-signing folder
    let provisioningProfile = "Brewer_Staging"    // .mobileprovision file name
    let buildConfiguration = "Staging"            // Xcode build configuration
    let appIdentifier = "works.sth.brewer.staging"
    let exportMethod = ExportMethod.adHoc
}

struct Production: Configuration {
    let certificate = "ios_distribution"
    let provisioningProfile = "Brewer_Enterprise"
    let buildConfiguration = "Release"
    let appIdentifier = "works.sth.brewer.enterprise"
    let exportMethod = ExportMethod.enterprise
}

let codeSigningPath = "Example/codesigning"
/// The project is edited in a copy, so the demo leaves the repository as it found it.
let workspace = ".lanes/work"

/// The shared release steps: sign, point the project at the profile, number the build.
func package(_ config: any Configuration) async throws {
    try await sh("rm", "-rf", workspace)
    try await sh("mkdir", "-p", workspace)
    try await sh("cp", "-R", "Example/Brewer.xcodeproj", "Example/Configs", workspace)

    try await importCertificate(
        keychainName: env("KEYCHAIN_NAME"), keychainPassword: secret("KEYCHAIN_PASSWORD"),
        certificatePath: "\(codeSigningPath)/\(config.certificate).p12",
        certificatePassword: secret("CERTIFICATE_PASSWORD"))
    try await installProvisioningProfile(
        path: "\(codeSigningPath)/\(config.provisioningProfile).mobileprovision",
        trust: "\(codeSigningPath)/test-root.crt", appIdentifier: config.appIdentifier)
    try await updateProjectProvisioning(
        xcodeproj: "\(workspace)/Brewer.xcodeproj",
        profile: "\(codeSigningPath)/\(config.provisioningProfile).mobileprovision",
        targetFilter: "^Brewer$", buildConfiguration: config.buildConfiguration)

    // Build numbers count commits; a shallow CI clone cannot, so it falls back to the CI's number.
    let buildNumber: Int
    do {
        buildNumber = try await numberOfCommits()
    } catch {
        buildNumber = Int(try env("BUILD_NUMBER", default: "1")) ?? 1
    }
    try await incrementBuildNumber(xcodeproj: "\(workspace)/Brewer.xcodeproj", buildNumber: String(buildNumber))
    let changelog = try await changelogFromGitCommits(commitsCount: 5)
    try echo("Build \(buildNumber) of \(config.appIdentifier) (\(config.exportMethod.rawValue)), \(changelog.commits.count) recent changes")
}

let lanes = Lanefile {
    // What `lanes doctor` and the daemon's expiry watch check: each configuration's certificate and profile.
    CodeSigning(folder: codeSigningPath, trust: "\(codeSigningPath)/test-root.crt", certificatePassword: "CERTIFICATE_PASSWORD",
                configurations: [Staging(), Production()])
    Lane("developerRelease", "Sign and provision a Staging build of the example for testers",
         environment: ["KEYCHAIN_NAME"], secrets: ["KEYCHAIN_PASSWORD", "CERTIFICATE_PASSWORD"]) {
        try await package(Staging())
    }
    Lane("enterpriseRelease", "Sign and provision an in-house Release build of the example",
         environment: ["KEYCHAIN_NAME"], secrets: ["KEYCHAIN_PASSWORD", "CERTIFICATE_PASSWORD"]) {
        try await package(Production())
    }
    Lane("nightly", "What the daemon runs at night", schedule: ["H 0 * * 0-4"]) {
        try await callLane("developerRelease")
    }
    Finally { lane in
        try echo("\(lane) finished; the temporary keychain is gone")
    }
}
