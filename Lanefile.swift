// Brewer's founding workflow ("Build it, Test it, Deliver it!") in lanes, run on the bundled example
// (Example/): `make demo` runs `lanes developerRelease --env demo`. Example/codesigning holds TEST-ONLY
// signing material made by make-signing-material.sh (team ABCDE12345, trust anchor test-root.crt);
// nothing here chains to Apple. Where xcodebuild exists the lanes archive and test the app; on Linux
// the same lanes build and test the Brewer Swift package for real.
import Lanes

/// What differs between the environments Brewer ships to.
struct Staging: Configuration {
    let certificate = "ios_distribution"          // .p12 file name in the code-signing folder
    let provisioningProfile = "Brewer_Staging"    // .mobileprovision file name
    let buildConfiguration = "Staging"            // Xcode build configuration
    let appIdentifier = "works.sth.brewer.staging"
    let exportMethod = ExportMethod.adHoc
}

/// The QA build.
struct Production: Configuration {
    let certificate = "ios_distribution"
    let provisioningProfile = "Brewer_Production"
    let buildConfiguration = "Production"
    let appIdentifier = "works.sth.brewer"
    let exportMethod = ExportMethod.adHoc
}

/// The App Store build.
struct Release: Configuration {
    let certificate = "ios_distribution"
    let provisioningProfile = "Brewer_Release"
    let buildConfiguration = "Release"
    let appIdentifier = "works.sth.brewer"
    let exportMethod = ExportMethod.appStore
}

let codeSigningPath = "Example/codesigning"
/// The project is edited in a copy, so a lane leaves the repository as it found it.
let workspace = ".lanes/work"

/// The shared release steps: sign, point the project at the profile, number the build, test, build.
func package(_ config: any Configuration) async throws {
    try await cocoapods(podfileDirectory: "Example")
    try await sh("rm", "-rf", workspace)
    try await sh("mkdir", "-p", workspace)
    try await sh("cp", "-R", "Example/Brewer.xcodeproj", "Example/Configs", workspace)

    let profile = "\(codeSigningPath)/\(config.provisioningProfile).mobileprovision"
    try await importCertificate(
        keychainName: env("KEYCHAIN_NAME"), keychainPassword: secret("KEYCHAIN_PASSWORD"),
        certificatePath: "\(codeSigningPath)/\(config.certificate).p12",
        certificatePassword: secret("CERTIFICATE_PASSWORD"))
    try await installProvisioningProfile(path: profile, trust: "\(codeSigningPath)/test-root.crt", appIdentifier: config.appIdentifier)
    try await updateProjectProvisioning(xcodeproj: "\(workspace)/Brewer.xcodeproj", profile: profile,
                                        targetFilter: "^Brewer$", buildConfiguration: config.buildConfiguration)

    // Build numbers count commits; a shallow CI clone cannot, so it falls back to the CI's number.
    let buildNumber: Int
    do {
        buildNumber = try await numberOfCommits()
    } catch {
        buildNumber = Int(try env("BUILD_NUMBER", default: "1")) ?? 1
    }
    try await incrementBuildNumber(xcodeproj: "\(workspace)/Brewer.xcodeproj", buildNumber: String(buildNumber))

    if try commandExists("xcodebuild") {
        try await runTests(workspace: "Example/Brewer.xcworkspace", devices: ["iPhone 15", "iPad Air"], scheme: "Brewer")
        try await buildApp(workspace: "Example/Brewer.xcworkspace", scheme: "Brewer", clean: true, outputDirectory: "build",
                           outputName: "Brewer.ipa", configuration: config.buildConfiguration, exportMethod: config.exportMethod,
                           exportOptions: ["signingStyle": "manual", "provisioningProfiles": [config.appIdentifier: config.provisioningProfile]],
                           appIdentifier: config.appIdentifier)
    } else {
        try await runTests(packagePath: "Example/Brewer", junitPath: ".lanes/test-results/brewer.xml")
        try await buildSwiftPackage(product: "brewer", packagePath: "Example/Brewer", version: "1.0.\(buildNumber)",
                                    outputDirectory: ".lanes/artifacts")
        try await checkArtifact(name: "brewer")
    }
    // The local content-addressed store by default; LANES_UPLOAD_DESTINATION=s3://bucket/brewer/ (or an
    // https:// URL) ships to a real store with the credentials in the environment.
    try await upload(configuration: config.buildConfiguration)
    let changelog = try await changelogFromGitCommits(commitsCount: 5)
    try echo("Build \(buildNumber) of \(config.appIdentifier) (\(config.exportMethod)), \(changelog.commits.count) recent changes")
}

let lanes = Lanefile {
    // What `lanes doctor` and the daemon's expiry watch check: each configuration's certificate and profile.
    CodeSigning(folder: codeSigningPath, trust: "\(codeSigningPath)/test-root.crt", certificatePassword: "CERTIFICATE_PASSWORD",
                configurations: [Staging(), Production(), Release()])
    Lane("developerRelease", "Nightly Staging build for developers",
         environment: ["KEYCHAIN_NAME"], secrets: ["KEYCHAIN_PASSWORD", "CERTIFICATE_PASSWORD"]) {
        try await package(Staging())
    }
    // Jenkins' Poll SCM trigger of the founding job: between 00:00 and 00:59, Sunday to Thursday, when
    // the branch moved; H is hashed from the Jenkins job's full name, so the minute matches Jenkins'.
    .pollSCM("H 0 * * 0-4")
    .hashSeed("Brewer/developerRelease")

    Lane("qaRelease", "Weekly Production build for QA",
         environment: ["KEYCHAIN_NAME"], secrets: ["KEYCHAIN_PASSWORD", "CERTIFICATE_PASSWORD"]) {
        try await package(Production())
    }
    .schedule("H 2 * * 6")

    Lane("appStoreRelease", "The App Store build",
         environment: ["KEYCHAIN_NAME"], secrets: ["KEYCHAIN_PASSWORD", "CERTIFICATE_PASSWORD"]) {
        try await package(Release())
    }

    Finally { lane in
        try echo("\(lane) finished; the temporary keychain is gone")
    }
}
