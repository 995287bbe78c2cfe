import LanesRuntime

/// What the importer knows about fastlane values beyond the action map: how an option's text becomes
/// a Swift enum case, which `lane_context` values come from which step's result, and how a step's
/// result reads as the string fastlane's action returned.
enum FastlaneValues {
    /// Raw option text to the Swift case, per enum type of a step option. `FastlaneValuesTests`
    /// checks each raw value against the type's own parser, so a renamed case fails a test.
    static let enumCases: [String: [String: String]] = [
        "ExportMethod": ["app-store": "appStore", "appstore": "appStore", "app-store-connect": "appStore", "ad-hoc": "adHoc",
                         "adhoc": "adHoc", "release-testing": "adHoc", "enterprise": "enterprise", "development": "development",
                         "debugging": "development", "developer-id": "developerID", "mac-application": "macApplication"],
        "MatchType": ["appstore": "appstore", "app-store": "appstore", "adhoc": "adhoc", "ad-hoc": "adhoc", "development": "development",
                      "enterprise": "enterprise", "developer_id": "developerID", "mac_installer_distribution": "macInstallerDistribution",
                      "developer_id_installer": "developerIDInstaller"],
        "MatchPlatform": ["ios": "ios", "tvos": "tvos", "macos": "macos", "catalyst": "catalyst", "visionos": "visionos"],
        "BumpType": ["patch": "patch", "minor": "minor", "major": "major"],
        "PodspecBumpType": ["patch": "patch", "minor": "minor", "major": "major"],
        "SwiftLintMode": ["lint": "lint", "fix": "fix", "autocorrect": "fix", "analyze": "analyze"],
        "CarthageCommand": ["bootstrap": "bootstrap", "update": "update", "build": "build", "checkout": "checkout"],
        "UploadChecksum": ["sha256": "sha256", "md5": "md5"],
        "MergeFilter": ["include_merges": "include", "exclude_merges": "exclude", "only_include_merges": "only"],
        "PlayReleaseStatusOption": ["completed": "completed", "inProgress": "inProgress", "halted": "halted", "draft": "draft"],
    ]

    /// `lane_context[SharedValues::KEY]`: the step that sets it and how its result gives the value.
    struct SharedValue {
        let stepID: String
        /// Appended to the result variable (`.path`), empty when the result is the value.
        let accessor: String
        let kind: SwiftValue.Kind
    }

    static let sharedValues: [String: SharedValue] = [
        "IPA_OUTPUT_PATH": SharedValue(stepID: "build_app", accessor: ".path", kind: .optionalString),
        "PKG_OUTPUT_PATH": SharedValue(stepID: "build_app", accessor: ".path", kind: .optionalString),
        "DSYM_OUTPUT_PATH": SharedValue(stepID: "build_app", accessor: ".dSYMZipPath", kind: .optionalString),
        "XCODEBUILD_ARCHIVE": SharedValue(stepID: "build_app", accessor: ".archivePath", kind: .optionalString),
        "VERSION_NUMBER": SharedValue(stepID: "increment_version_number", accessor: "", kind: .string),
        "PODSPEC_VERSION_NUMBER": SharedValue(stepID: "version_bump_podspec", accessor: "", kind: .string),
        "LATEST_TESTFLIGHT_BUILD_NUMBER": SharedValue(stepID: "latest_testflight_build_number", accessor: ".buildNumber", kind: .string),
        "LATEST_BUILD_NUMBER": SharedValue(stepID: "app_store_build_number", accessor: ".buildNumber", kind: .string),
        "SIGH_PROFILE_PATH": SharedValue(stepID: "get_provisioning_profile", accessor: ".path", kind: .string),
        "GIT_BRANCH_NAME": SharedValue(stepID: "git_branch", accessor: "", kind: .optionalString),
        "GRADLE_APK_OUTPUT_PATH": SharedValue(stepID: "gradle", accessor: ".apkPath", kind: .optionalString),
        "GRADLE_AAB_OUTPUT_PATH": SharedValue(stepID: "gradle", accessor: ".aabPath", kind: .optionalString),
        "GRADLE_ALL_APK_OUTPUT_PATHS": SharedValue(stepID: "gradle", accessor: ".apkPaths", kind: .strings),
        "GRADLE_ALL_AAB_OUTPUT_PATHS": SharedValue(stepID: "gradle", accessor: ".aabPaths", kind: .strings),
    ]

    /// A step result read where fastlane's action returned a string (`ipa = gym(...)`, then `ipa` in a path).
    static let resultText: [String: (accessor: String, kind: SwiftValue.Kind)] = [
        "BuiltApp": (".path", .optionalString),
        "GradleResult": (".apkPath", .optionalString),
        "AppStoreBuildNumberResult": (".buildNumber", .string),
        "DownloadedProvisioningProfile": (".path", .string),
        "ShellResult": (".text", .string),
        "GitHubRelease": (".htmlURL", .string),
        "String": ("", .string),
        "String?": ("", .optionalString),
        "Int": ("", .int),
    ]

    /// A step result fastlane's action returns as a number (`latest_testflight_build_number + 1`): the
    /// accessor of its text. fastlane turns a build number without a dot into an Integer; one with a
    /// dot stays text, and `+ 1` on it fails, as the Lanefile's `requireValue` does.
    static let resultNumber: [String: (accessor: String, action: String)] = [
        "AppStoreBuildNumberResult": (".buildNumber", "the build number"),
    ]

    /// fastlane's own default for an option a lanes step otherwise asks for (its variable or the call):
    /// written into the call when the Fastfile and its config files leave the option out, so the lane
    /// does what fastlane did. gym exports for the App Store unless told (DEFAULT_EXPORT_METHOD), also
    /// when `export_options` names no method; the export options' own method is left to the step then.
    static let fastlaneDefaults: [String: [(option: String, value: RubyNode, unless: String?)]] = [
        "build_app": [("export_method", .string([.text("app-store")], SourcePosition(line: 0, column: 0)), "export_options")],
    ]

    /// Steps whose options fastlane fills from the Appfile when a call leaves them out.
    static let appfileOptions: [String: Set<String>] = [
        "app_identifier": ["sync_code_signing", "upload_to_testflight", "upload_to_app_store", "get_provisioning_profile",
                           "latest_testflight_build_number", "app_store_build_number"],
        "team_id": ["sync_code_signing", "get_provisioning_profile"],
    ]

    /// The config file beside a Fastfile that gives an action's defaults (`Gymfile` for gym).
    static let configFiles: [String: String] = [
        "Gymfile": "build_app", "Scanfile": "run_tests", "Matchfile": "match", "Deliverfile": "upload_to_app_store",
        "Snapfile": "capture_screenshots", "Pilotfile": "upload_to_testflight",
    ]
}
