/// What lanes does for each fastlane action: the one table behind `lanes actions --fastlane`,
/// docs/migrating-from-fastlane.md and a Fastfile importer. It lives beside the step catalog so
/// that anything linking `Lanes` can read it without the command-line tool.
public struct FastlaneAction: Sendable {
    /// fastlane's action name, such as `build_app`.
    public let name: String
    /// Other names fastlane accepts for the same action (`gym`, `build_ios_app`).
    public let aliases: [String]
    public let mapping: Mapping

    public enum Mapping: Sendable {
        /// A lanes step does it. `options` maps fastlane's option names to the step's (identical
        /// names are listed too when fastlane users commonly pass them); `unsupportedOptions` names
        /// fastlane options the step has no counterpart for, with why.
        case step(id: String, options: [String: String], unsupportedOptions: [String: String], note: String?)
        /// Plain Lanefile code does it: a function of the Lanes module or Swift itself.
        case lanefile(function: String, note: String)
        /// Nothing to write: lanes does it by itself, for the reason given.
        case implicit(reason: String)
        /// Lanes has no counterpart, for the reason given.
        case notSupported(reason: String)
    }

    public init(_ name: String, aliases: [String] = [], _ mapping: Mapping) {
        self.name = name
        self.aliases = aliases
        self.mapping = mapping
    }

    /// Every name fastlane accepts for this action.
    public var names: [String] { [name] + aliases }

    /// What the step does with fastlane's option `name`: the step's option it maps to (through the
    /// table, else the option's own name or one of its declared aliases), or why it is ignored
    /// (an option of fastlane's interface only); nil when the step has no counterpart.
    public func stepOption(for name: String) -> FastlaneOptionMapping? {
        guard case .step(let id, let options, _, _) = mapping, let step = StepCatalog.step(id: id) else { return nil }
        let info = step.info
        if let mapped = options[name], let option = info.option(named: mapped) { return .option(option) }
        if let option = info.option(named: name) { return .option(option) }
        if let reason = step.definition.ignoredOptions[name] { return .ignored(reason: reason) }
        return nil
    }
}

/// Where one of fastlane's options lands in a lanes step.
public enum FastlaneOptionMapping: Sendable {
    /// The step's option (its canonical name is `info.name`).
    case option(OptionInfo)
    /// Accepted and ignored: it only steers fastlane's own interface.
    case ignored(reason: String)
}

extension FastlaneAction.Mapping {
    static func step(_ id: String, _ options: [String: String] = [:], unsupported: [String: String] = [:],
                     note: String? = nil) -> Self {
        .step(id: id, options: options, unsupportedOptions: unsupported, note: note)
    }

    /// The status word `lanes actions --fastlane --json` prints: `step`, `lanefile`, `implicit`,
    /// `not_supported` (`missing` would be a map naming a step that does not exist; a test prevents it).
    public var status: String {
        switch self {
        case .step(let id, _, _, _):
            StepCatalog.step(id: id) != nil ? "step" : "missing"
        case .lanefile: "lanefile"
        case .implicit: "implicit"
        case .notSupported: "not_supported"
        }
    }

    /// Whether a Fastfile using the action can be written with lanes today.
    public var isCovered: Bool {
        switch self {
        case .step(let id, _, _, _): StepCatalog.step(id: id) != nil
        case .lanefile, .implicit: true
        case .notSupported: false
        }
    }
}

public enum FastlaneActionMap {
    private static let keychain = "lanes runs every lane with its own temporary keychain, created before the first signing step and deleted when the lane ends (also on failure and Ctrl-C)"
    private static let playRootURL = "set LANES_GOOGLE_PLAY_API_URL to point lanes at another Google Play API server"
    private static let playKeyUnsupported = [
        "key": "p12 keys were retired by Google: use a service account's JSON key (json_key)",
        "issuer": "p12 keys were retired by Google: use a service account's JSON key (json_key)",
        "root_url": playRootURL,
    ]
    private static let playUnsupported = playKeyUnsupported.merging([
        "check_superseded_tracks": "deprecated in fastlane: Google Play retires superseded releases itself",
        "deactivate_on_promote": "deprecated in fastlane: Google Play does this itself",
        "obb_main_references_version": "APK expansion files are not supported", "obb_main_file_size": "APK expansion files are not supported",
        "obb_patch_references_version": "APK expansion files are not supported", "obb_patch_file_size": "APK expansion files are not supported",
        "ack_bundle_installation_warning": "deprecated by the API: the installation warning no longer exists",
        "sync_image_upload": "images are replaced on every run; compare checksums in the lane if uploads must be skipped",
        "rescue_changes_not_sent_for_review": "pass changes_not_sent_for_review as Google Play asks for this app",
    ]) { first, _ in first }
    private static let images = "image work (screenshots, frames, badges) is out of scope for lanes; keep fastlane or a dedicated tool for it"

    /// The action `name` (or alias) stands for.
    public static func action(named name: String) -> FastlaneAction? {
        all.first { $0.names.contains(name) }
    }

    public static let all: [FastlaneAction] = [
        // Building and testing
        FastlaneAction("build_app", aliases: ["gym", "build_ios_app", "build_mac_app"], .step("build_app", [
            "workspace": "workspace", "project": "project", "scheme": "scheme", "clean": "clean", "output_directory": "output_directory",
            "output_name": "output_name", "configuration": "configuration", "silent": "silent", "export_method": "export_method",
            "export_options": "export_options", "sdk": "sdk", "derived_data_path": "derived_data_path", "xcargs": "xcargs",
            "skip_codesigning": "skip_codesigning", "skip_archive": "skip_archive", "skip_package_ipa": "skip_package_ipa",
            "include_symbols": "include_symbols", "include_bitcode": "include_bitcode", "destination": "destination",
            "archive_path": "archive_path", "export_xcargs": "export_xcargs",
        ], unsupported: [
            "buildlog_path": "lanes always writes the redacted log under .lanes/logs and prints its path",
            "xcpretty_formatter": "lanes summarises xcodebuild's output itself (silent: false shows every line)",
            "toolchain": "set TOOLCHAINS in the lane's environment (withEnvironment)",
        ])),
        FastlaneAction("run_tests", aliases: ["scan"], .step("run_tests", [
            "workspace": "workspace", "project": "project", "scheme": "scheme", "devices": "devices", "device": "devices",
            "configuration": "configuration", "only_testing": "only_testing", "skip_testing": "skip_testing",
            "code_coverage": "code_coverage", "result_bundle": "result_bundle", "build_for_testing": "build_for_testing",
            "test_without_building": "test_without_building", "number_of_retries": "number_of_retries",
            "destination": "destination", "xcargs": "xcargs", "testplan": "testplan", "clean": "clean",
            "derived_data_path": "derived_data_path", "package_path": "package_path",
        ], unsupported: [
            "output_types": "lanes always writes a JUnit report (junit_path) and keeps the .xcresult",
            "slack_url": "call slack(...) in an onError/afterAll hook",
        ])),
        FastlaneAction("build_swift_package", aliases: ["spm"], .step("build_swift_package")),
        FastlaneAction("cocoapods", aliases: ["pod_install"], .step("cocoapods")),
        FastlaneAction("gradle", aliases: ["build_android_app"], .step("gradle", [
            "task": "task", "flavor": "flavor", "build_type": "build_type", "tasks": "tasks", "flags": "flags",
            "project_dir": "project_dir", "gradle_path": "gradle_path", "properties": "properties",
            "system_properties": "system_properties", "serial": "serial",
        ], unsupported: [
            "print_command": "lanes always prints the command (secret properties never are in it: they go through ORG_GRADLE_PROJECT_ variables)",
            "print_command_output": "lanes writes the output to the redacted log under .lanes/logs and shows every line",
        ])),
        // Google Play (supply)
        FastlaneAction("upload_to_play_store", aliases: ["supply"], .step("upload_to_play_store", [
            "package_name": "package_name", "version_name": "version_name", "version_code": "version_code", "release_status": "release_status",
            "track": "track", "rollout": "rollout", "metadata_path": "metadata_path", "json_key": "json_key", "json_key_data": "json_key_data",
            "apk": "apk", "apk_paths": "apk_paths", "aab": "aab", "aab_paths": "aab_paths", "skip_upload_apk": "skip_upload_apk",
            "skip_upload_aab": "skip_upload_aab", "skip_upload_metadata": "skip_upload_metadata", "skip_upload_changelogs": "skip_upload_changelogs",
            "skip_upload_images": "skip_upload_images", "skip_upload_screenshots": "skip_upload_screenshots", "track_promote_to": "track_promote_to",
            "track_promote_release_status": "track_promote_release_status", "validate_only": "validate_only", "mapping": "mapping",
            "mapping_paths": "mapping_paths", "version_codes_to_retain": "version_codes_to_retain",
            "changes_not_sent_for_review": "changes_not_sent_for_review", "in_app_update_priority": "in_app_update_priority",
        ], unsupported: Self.playUnsupported,
           note: "one edit per run, deleted when the lane fails or is cancelled; bundles and APKs go up with Google's resumable protocol")),
        FastlaneAction("google_play_track_version_codes", .step("google_play_track_version_codes", [
            "package_name": "package_name", "track": "track", "json_key": "json_key", "json_key_data": "json_key_data"
        ], unsupported: Self.playKeyUnsupported)),
        FastlaneAction("google_play_track_release_names", .step("google_play_track_release_names", [
            "package_name": "package_name", "track": "track", "json_key": "json_key", "json_key_data": "json_key_data"
        ], unsupported: Self.playKeyUnsupported)),
        FastlaneAction("validate_play_store_json_key", .step("validate_play_store_json_key", [
            "json_key": "json_key", "json_key_data": "json_key_data",
        ], unsupported: ["root_url": Self.playRootURL], note: "fails the lane when Google refuses the key (fastlane only prints an error)")),
        FastlaneAction("upload_to_play_store_internal_app_sharing", .step("upload_to_play_store_internal_app_sharing", [
            "package_name": "package_name", "apk": "apk", "apk_paths": "apk_paths", "aab": "aab", "aab_paths": "aab_paths",
            "json_key": "json_key", "json_key_data": "json_key_data",
        ], unsupported: ["root_url": Self.playRootURL], note: "returns the download URLs (a list, also for one file)")),
        FastlaneAction("download_from_play_store", .step("download_from_play_store", [
            "package_name": "package_name", "version_name": "version_name", "track": "track", "metadata_path": "metadata_path",
            "json_key": "json_key", "json_key_data": "json_key_data"
        ], unsupported: Self.playKeyUnsupported)),
        FastlaneAction("carthage", .step("carthage", ["command": "command", "platform": "platform", "use_xcframeworks": "use_xcframeworks",
                                                     "cache_builds": "cache_builds", "project_directory": "project_directory"])),
        FastlaneAction("swiftlint", .step("swiftlint", ["mode": "mode", "strict": "strict", "config_file": "config_file", "path": "path"])),
        FastlaneAction("xcodes", aliases: ["xcversion", "xcode_select", "ensure_xcode_version"],
                       .step("xcodes", ["version": "version"], note: "chooses the Xcode for the rest of the lane through DEVELOPER_DIR")),
        FastlaneAction("xcodebuild", aliases: ["xcarchive", "xcbuild", "xcclean", "xcexport", "xctest"],
                       .lanefile(function: "sh(\"xcodebuild\", ...)", note: "build_app and run_tests cover archive, export and test; other xcodebuild calls are a sh step")),
        FastlaneAction("clear_derived_data", .step("clear_derived_data", ["derived_data_path": "derived_data_path"])),
        FastlaneAction("clean_build_artifacts", .step("clean_build_artifacts")),
        FastlaneAction("notarize", .step("notarize", ["package": "package", "api_key_path": "api_key_path", "bundle_id": "bundle_id"],
                                         note: "notarytool submit --wait, then stapler staple")),
        FastlaneAction("zip", .step("zip", ["path": "path", "output_path": "output_path"])),
        FastlaneAction("check_ipa", .step("check_ipa")),

        // Versions and Info.plist
        FastlaneAction("increment_build_number", .step("increment_build_number", ["build_number": "build_number", "xcodeproj": "xcodeproj"])),
        FastlaneAction("increment_version_number", .step("increment_version_number",
                                                         ["bump_type": "bump_type", "version_number": "version_number", "xcodeproj": "xcodeproj"])),
        FastlaneAction("get_version_number", .step("get_version_number", ["xcodeproj": "xcodeproj", "target": "targets"])),
        FastlaneAction("get_build_number", .step("get_build_number", ["xcodeproj": "xcodeproj"])),
        FastlaneAction("commit_version_bump", .step("commit_version_bump", ["message": "message", "xcodeproj": "xcodeproj", "force": "force"])),
        FastlaneAction("get_info_plist_value", .step("get_info_plist_value", ["path": "path", "key": "key"])),
        FastlaneAction("set_info_plist_value", .step("set_info_plist_value", ["path": "path", "key": "key", "value": "value"])),
        FastlaneAction("update_info_plist", .step("set_info_plist_value", note: "one set_info_plist_value per key")),
        FastlaneAction("set_build_settings", .step("set_build_settings")),

        // Signing
        FastlaneAction("import_certificate", .step("import_certificate", [
            "certificate_path": "certificate_path", "certificate_password": "certificate_password", "keychain_name": "keychain_name",
        ])),
        FastlaneAction("install_provisioning_profile", .step("install_provisioning_profile")),
        FastlaneAction("update_code_signing_settings", aliases: ["automatic_code_signing"], .step("update_code_signing_settings", [
            "path": "xcodeproj", "targets": "targets", "build_configurations": "build_configurations", "team_id": "team_id",
            "use_automatic_signing": "use_automatic_signing", "code_sign_identity": "code_sign_identity", "profile_name": "profile_name",
            "profile_uuid": "profile_uuid", "bundle_identifier": "bundle_identifier",
        ])),
        FastlaneAction("update_project_provisioning", .step("update_project_provisioning")),
        FastlaneAction("create_keychain", .implicit(reason: keychain)),
        FastlaneAction("delete_keychain", .implicit(reason: keychain)),
        FastlaneAction("unlock_keychain", .implicit(reason: keychain)),
        FastlaneAction("setup_ci", aliases: ["setup_circle_ci", "setup_travis", "setup_jenkins"], .implicit(reason:
            "\(keychain); CI systems are detected from their variables (isCI in a Lanefile)")),
        FastlaneAction("match", aliases: ["sync_code_signing"], .step("sync_code_signing")),
        FastlaneAction("match_import", .step("match_import")),
        FastlaneAction("get_provisioning_profile", aliases: ["sigh"], .step("get_provisioning_profile")),
        FastlaneAction("register_devices", aliases: ["register_device"], .step("register_devices")),
        FastlaneAction("get_certificates", aliases: ["cert"], .notSupported(reason: "create certificates with match (sync_code_signing) or lanes cert")),

        // App Store Connect and distribution
        FastlaneAction("app_store_connect_api_key", .step("app_store_connect_api_key")),
        FastlaneAction("upload_to_testflight", aliases: ["pilot", "testflight"], .step("upload_to_testflight")),
        FastlaneAction("upload_to_app_store", aliases: ["deliver", "appstore"], .step("upload_to_app_store")),
        FastlaneAction("latest_testflight_build_number", .step("latest_testflight_build_number")),
        FastlaneAction("app_store_build_number", .step("app_store_build_number")),
        FastlaneAction("firebase_app_distribution", .step("firebase_app_distribution", [
            "app": "app_id", "ipa_path": "ipa_path", "release_notes": "release_notes", "testers": "testers", "groups": "groups",
            "service_credentials_file": "service_credentials_file", "service_credentials_json_data": "service_account",
        ])),
        FastlaneAction("s3", aliases: ["aws_s3"], .step("upload", note: "upload with an s3:// destination")),
        FastlaneAction("upload_symbols_to_crashlytics", .step("upload_symbols_to_crashlytics", ["dsym_path": "dsym_path", "gsp_path": "gsp_path"])),
        FastlaneAction("sentry", aliases: ["sentry_upload_dsym", "sentry_debug_files_upload", "sentry_upload_dif", "sentry_create_release",
                                           "sentry_finalize_release", "sentry_set_commits", "sentry_upload_file"],
                       .step("sentry_upload_dsym", ["dsym_path": "dsym_path", "org_slug": "org_slug", "project_slug": "project_slug",
                                                    "auth_token": "auth_token"],
                             note: "dSYM upload through sentry-cli; releases and commits are a sh step with sentry-cli")),
        FastlaneAction("download_dsyms", .notSupported(reason: "bitcode is gone: build_app keeps the dSYMs of each archive (dSYM zip next to the .ipa)")),
        FastlaneAction("capture_screenshots", aliases: ["snapshot", "capture_ios_screenshots"], .notSupported(reason: images)),
        FastlaneAction("frame_screenshots", aliases: ["frameit"], .notSupported(reason: images)),
        FastlaneAction("badge", aliases: ["add_badge"], .notSupported(reason: images)),
        FastlaneAction("appicon", .notSupported(reason: images)),

        // Git and GitHub
        FastlaneAction("ensure_git_status_clean", .step("ensure_git_status_clean")),
        FastlaneAction("reset_git_repo", .step("reset_git_repo")),
        FastlaneAction("add_git_tag", .step("add_git_tag", ["tag": "tag", "message": "message"])),
        FastlaneAction("last_git_tag", .step("last_git_tag")),
        FastlaneAction("git_branch", .step("git_branch")),
        FastlaneAction("push_git_tags", .step("push_git_tags", ["tag": "tag", "remote": "remote", "force": "force"])),
        FastlaneAction("number_of_commits", .step("number_of_commits")),
        FastlaneAction("changelog_from_git_commits", .step("changelog_from_git_commits")),
        FastlaneAction("git_commit", .step("git_commit", ["path": "path", "message": "message", "allow_nothing_to_commit": "allow_nothing_to_commit"])),
        FastlaneAction("push_to_git_remote", .step("push_to_git_remote", ["remote": "remote", "local_branch": "local_branch",
                                                                           "remote_branch": "remote_branch", "force": "force", "tags": "tags"])),
        FastlaneAction("ensure_git_branch", .step("ensure_git_branch", ["branch": "branch"])),
        FastlaneAction("last_git_commit", .step("last_git_commit")),
        FastlaneAction("git_pull", .step("git_pull", ["remote": "remote"], unsupported: ["rebase": "git_pull only fast-forwards; a diverged branch fails"])),
        FastlaneAction("git_add", .step("git_commit", note: "git_commit stages the paths it commits")),
        FastlaneAction("set_github_release", aliases: ["github_release"], .step("set_github_release", [
            "repository_name": "repository_name", "tag_name": "tag_name", "name": "name", "description": "description",
            "commitish": "commitish", "is_draft": "is_draft", "is_prerelease": "is_prerelease", "upload_assets": "upload_assets",
            "api_token": "api_token", "server_url": "server_url",
        ])),
        FastlaneAction("create_pull_request", .notSupported(reason: "not yet: call GitHub's API from a sh step")),

        // Notifications
        FastlaneAction("slack", .step("slack", ["message": "message", "slack_url": "slack_url", "channel": "channel",
                                                "success": "success", "fail_on_error": "fail_on_error"])),
        FastlaneAction("notify_webhook", aliases: ["webhook"], .step("notify_webhook")),

        // Lane authoring (Fastfile Ruby helpers)
        FastlaneAction("sh", .step("sh", note: "an argv list, no shell: sh(\"sh\", \"-c\", \"...\") when a shell is needed")),
        FastlaneAction("echo", aliases: ["puts", "say"], .lanefile(function: "echo(_:)", note: "prints with secrets redacted")),
        FastlaneAction("is_ci", .lanefile(function: "isCI", note: "true when CI=true or a known CI system's variables are set")),
        FastlaneAction("ensure_env_vars", .lanefile(function: "env(_:)", note: "env(\"NAME\") fails naming the variable; secret(\"NAME\") also masks it")),
        FastlaneAction("prompt", .notSupported(reason: "lanes runs unattended; pass values as environment variables or lane options")),
        FastlaneAction("opt_out_usage", aliases: ["skip_docs"], .implicit(reason: "lanes sends no usage data and writes no README")),
        FastlaneAction("default_platform", aliases: ["platform"], .implicit(reason: "lanes has no platform blocks: a lane is a Swift function")),
        FastlaneAction("clean_cocoapods_cache", .lanefile(function: "sh(\"pod\", \"cache\", \"clean\", \"--all\")", note: "a sh step")),
        FastlaneAction("update_fastlane", .implicit(reason: "lanes is installed as one binary (Homebrew or a release)")),
        FastlaneAction("import_from_git", aliases: ["import"], .notSupported(reason: "split a Lanefile into several files or share steps as a Swift package")),
    ]
}
