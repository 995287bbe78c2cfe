import Testing
@testable import LanesRuntime

/// Issue 33: the required options a lane's step calls leave without a value are found from the
/// Lanefile's text before the lane starts, through the functions it calls, with their variables.
@Suite struct StepCallPreflightTests {
    static let source = """
        import Lanes

        /// Announces with slack(message:) — a comment's call is not a call.
        func announce(_ text: String) async throws {
            try await slack(message: "Shipped \\(text)")
        }

        let lanes = Lanefile {
            Lane("release", "Signs, builds, releases") {
                try await syncCodeSigning(type: "appstore", readonly: true)
                try await buildApp(scheme: "Brewer")
                let notes = "tagName: not a label"
                try await setGithubRelease(tagName: "v1.0", description: notes)
                try await announce("v1.0")
            }
            Lane("scoped", "Gives its own variable and Appfile") {
                try await withEnvironment(["SLACK_URL": "https://hooks.example"]) {
                    try await slack(message: "hi")
                }
                try await withConfiguration(Staging()) { try await syncCodeSigning(type: "adhoc") }
            }
            Lane("given", "Passes everything") {
                try await setGithubRelease(repositoryName: "acme/brewer", tagName: "v1", apiToken: secret("TOKEN"))
            }
        }
        """

    let preflight = StepCallPreflight(source: Array(source.utf8), fileName: "Lanefile.swift", steps: StepCatalog.builtIn.map { $0.info })

    @Test func everyRequiredOptionNothingGivesIsReportedWithItsLineAndVariables() {
        let gaps = preflight.gaps(lane: "release", isSet: { _ in false }, configurationGives: { _ in false })
        #expect(gaps.map { "\($0.line) \($0.step) \($0.option)" } == [
            "5 slack slack_url",
            "10 sync_code_signing app_identifier",
            "13 set_github_release api_token",
            "13 set_github_release repository_name",
        ])
        let slack = gaps[0].description
        #expect(slack == "Lanefile.swift:5: lane release: slack needs option 'slack_url', which nothing gives: pass it or set SLACK_URL")
        #expect(gaps[2].description.hasSuffix("pass it or set one of GITHUB_TOKEN, GITHUB_API_TOKEN"))
    }

    @Test func aVariableSetAConfigurationOrAScopeThatGivesThemIsEnough() {
        let set: Set<String> = ["GITHUB_API_TOKEN", "GITHUB_REPOSITORY", "SLACK_URL"]
        let gaps = preflight.gaps(lane: "release", isSet: set.contains, configurationGives: { $0 == .appIdentifier })
        #expect(gaps.isEmpty, "\(gaps)")
        #expect(preflight.gaps(lane: "scoped", isSet: { _ in false }, configurationGives: { _ in false }).isEmpty)
        #expect(preflight.gaps(lane: "given", isSet: { _ in false }, configurationGives: { _ in false }).isEmpty)
        // An unknown configuration (lanes doctor) is not a gap; the lane's start knows it.
        #expect(preflight.gaps(lane: "release", isSet: set.contains, configurationGives: { _ in nil }).isEmpty)
    }

    static let keySource = """
        import Lanes

        func ship() async throws {
            try await pilot(changelog: "Fixes")
        }

        let lanes = Lanefile {
            Lane("beta", "Ships through a function and an alias") {
                try await buildApp(scheme: "Brewer")
                try await ship()
                try await downloadDsyms(version: "latest")
            }
            Lane("keyed", "Sets its own key") {
                try await appStoreConnectApiKey(keyID: "D383SF739", issuerID: "6053b7fe", keyFilepath: "AuthKey.p8")
                try await uploadToTestflight(changelog: "Fixes")
            }
            Lane("scoped", "Names the key's variables in a scope") {
                try await withEnvironment(["APP_STORE_CONNECT_API_KEY_KEY_ID": "D383SF739", "APP_STORE_CONNECT_API_KEY_ISSUER_ID": "6053b7fe",
                                           "APP_STORE_CONNECT_API_KEY_KEY_FILEPATH": "AuthKey.p8"]) {
                    try await matchNuke(type: "development")
                }
            }
            Lane("local", "Talks to nobody") {
                try await buildApp(scheme: "Brewer")
            }
        }
        """

    /// Issue 33: `lanes doctor` names the lanes that call a step needing an App Store Connect key when none is configured.
    @Test func theCallsThatNeedAnAppStoreConnectKeyAreNamedWhenTheLaneHasNone() {
        let preflight = StepCallPreflight(source: Array(Self.keySource.utf8), fileName: "Lanefile.swift", steps: StepCatalog.builtIn.map { $0.info })
        let none = { (_: String) in false }
        #expect(preflight.appStoreConnectKeyNeeds(lane: "beta", isSet: none).map(\.description)
                == ["upload_to_testflight (Lanefile.swift:4)", "download_dsyms (Lanefile.swift:11)"])
        #expect(preflight.appStoreConnectKeyNeeds(lane: "keyed", isSet: none).isEmpty)
        #expect(preflight.appStoreConnectKeyNeeds(lane: "scoped", isSet: none).isEmpty)
        #expect(preflight.appStoreConnectKeyNeeds(lane: "local", isSet: none).isEmpty)
        // The key's three parts in the environment (lanes' older ASC_* names count); two of three are not a key.
        let key: Set<String> = ["ASC_KEY_ID", "APP_STORE_CONNECT_API_KEY_ISSUER_ID", "APP_STORE_CONNECT_API_KEY_KEY"]
        #expect(preflight.appStoreConnectKeyNeeds(lane: "beta", isSet: key.contains).isEmpty)
        #expect(preflight.appStoreConnectKeyNeeds(lane: "beta", isSet: key.subtracting(["APP_STORE_CONNECT_API_KEY_KEY"]).contains).count == 2)
    }

    @Test func aLaneItCannotFindIsNotChecked() {
        #expect(!preflight.finds(lane: "elsewhere"))
        #expect(preflight.gaps(lane: "elsewhere", isSet: { _ in false }, configurationGives: { _ in false }).isEmpty)
        #expect(StepCallPreflight(source: Array("let s = \"never ends".utf8), fileName: "Lanefile.swift", steps: []).finds(lane: "x") == false)
    }
}
