import Foundation
import LanesBuild
import LanesTestSupport
import Testing
@testable import LanesRuntime

/// Issue 33: what gym, pilot and build_mac_app infer, checked where lanes infers it: the export
/// method from the profiles match installed (fastlane's lane_context SIGH_PROFILE_TYPE and
/// MATCH_PROVISIONING_PROFILE_MAPPING), and the platform pilot uploads as, read from the package.
@Suite struct FastlaneInferenceTests {
    func context(_ directory: String, _ variables: [String: String] = [:]) -> StepContext {
        let redactor = Redactor()
        return StepContext(environment: Environment(variables: variables, redactor: redactor), projectDirectory: directory,
                           stateDirectory: directory + "/.lanes", log: StepLog(redactor: redactor) { _ in }, cleanups: CleanupStack(),
                           processes: SubprocessRunner(baseEnvironment: ["PATH": "/usr/bin:/bin"]))
    }

    func buildApp(_ options: [String: String], in context: StepContext) throws -> BuildApp {
        try BuildApp.resolve(StepArguments(text: options), environment: context.environment)
    }

    /// sync_code_signing(type: "adhoc") then gym(scheme:): build_app.rb sets `export_method ||=
    /// SIGH_PROFILE_TYPE` (unless development) and merges match's profile mapping into the
    /// export options, whose provisioningProfiles xcodebuild reads only with manual signing.
    @Test func gymExportsWithTheMethodAndProfilesOfWhatMatchInstalled() throws {
        let context = context("/tmp")
        context.values[LaneSigningProfiles.self] = InstalledProfiles(exportMethod: .adHoc,
                                                                     profiles: ["works.sth.brewer": "match AdHoc works.sth.brewer"])
        let (method, options) = try buildApp(["scheme": "Brewer"], in: context).exportSettings(buildsForMac: false, context: context)
        #expect(method == .adHoc)
        guard case .dictionary(let profiles)? = options.value(of: "provisioningProfiles") else {
            Issue.record("no provisioningProfiles in \(options)")
            return
        }
        #expect(profiles == ["works.sth.brewer": "match AdHoc works.sth.brewer"])
        #expect(options.value(of: "signingStyle") == .string("manual"))

        // An export method the lane gives wins; a development profile is no export method (build_app.rb skips it).
        #expect(try buildApp(["scheme": "Brewer", "export_method": "enterprise"], in: context)
            .exportSettings(buildsForMac: false, context: context).0 == .enterprise)
        context.values[LaneSigningProfiles.self] = InstalledProfiles(exportMethod: .development, profiles: [:])
        #expect(try buildApp(["scheme": "Brewer"], in: context).exportSettings(buildsForMac: false, context: context).0 == .appStore)
        #expect(try buildApp(["scheme": "Brewer"], in: self.context("/tmp", ["GYM_EXPORT_METHOD": "ad-hoc"]))
            .exportSettings(buildsForMac: false, context: context).0 == .adHoc)
    }

    /// pilot's `fetch_app_platform`: the .ipa's DTPlatformName (`appletvos` stays appletvos,
    /// `iphoneos` is ios), and osx for a .pkg; version, build and bundle identifier from the .ipa.
    @Test func pilotUploadsAsThePlatformThePackageSays() throws {
        let folder = LanesCommandLine.temporaryDirectory("pilot-platform").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let app = folder + "/Payload/Brewer TV.app"
        try FileManager.default.createDirectory(atPath: app, withIntermediateDirectories: true)
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>CFBundleIdentifier</key>
            \t<string>works.sth.brewer.tv</string>
            \t<key>CFBundleShortVersionString</key>
            \t<string>3.1</string>
            \t<key>CFBundleVersion</key>
            \t<string>42</string>
            \t<key>DTPlatformName</key>
            \t<string>appletvos</string>
            </dict>
            </plist>
            """.write(toFile: app + "/Info.plist", atomically: true, encoding: .utf8)
        try ZipWriter.zip(folder: folder + "/Payload", rootName: "Payload", to: folder + "/BrewerTV.ipa")
        try "xar!".write(toFile: folder + "/Brewer.pkg", atomically: true, encoding: .utf8)
        let context = context(folder)

        let tv = try #require(try ShippedPackage.find(ipa: "BrewerTV.ipa", pkg: nil, platform: nil, step: "upload_to_testflight", context: context))
        #expect(tv.platform == "appletvos")
        #expect(tv.version == "3.1" && tv.build == "42" && tv.bundleIdentifier == "works.sth.brewer.tv")
        let given = try #require(try ShippedPackage.find(ipa: "BrewerTV.ipa", pkg: nil, platform: "ios", step: "upload_to_testflight", context: context))
        #expect(given.platform == "ios")

        let mac = try #require(try ShippedPackage.find(ipa: nil, pkg: "Brewer.pkg", platform: nil, step: "upload_to_testflight", context: context))
        #expect(mac.platform == "osx" && mac.path == folder + "/Brewer.pkg")
        #expect(throws: LanesError.self) {
            try ShippedPackage.find(ipa: "BrewerTV.ipa", pkg: "Brewer.pkg", platform: nil, step: "upload_to_testflight", context: context)
        }
    }

    /// Apple-ID sign-in (21 of 61 App Store Connect Fastfiles): no key and FASTLANE_USER or
    /// FASTLANE_SESSION set gets an answer naming them and what to set instead, never their values.
    @Test func appleIDSignInVariablesGetAnAnswerNamingTheKeyToMakeInstead() {
        let environment = Environment(variables: ["FASTLANE_USER": "dev@example.com", "FASTLANE_SESSION": "---\n- !ruby/object:HTTP::Cookie"])
        let error = #expect(throws: LanesError.self) { try AppStoreConnectAPIKeyStep.key(from: environment) }
        let hint = error?.hint ?? ""
        #expect(hint.contains("FASTLANE_USER, FASTLANE_SESSION are fastlane's Apple-ID sign-in, which lanes does not do"), "\(hint)")
        #expect(hint.contains("App Store Connect API") && hint.contains("APP_STORE_CONNECT_API_KEY_KEY_ID"), "\(hint)")
        #expect(!hint.contains("dev@example.com") && !(error?.message ?? "").contains("dev@example.com"))
        let plain = #expect(throws: LanesError.self) { try AppStoreConnectAPIKeyStep.key(from: Environment(variables: [:])) }
        #expect(plain?.hint?.contains("Apple-ID") == false)
    }
}
