/// What lanes does for each fastlane action: the one table behind `lanes actions --fastlane`,
/// docs/migrating-from-fastlane.md and a Fastfile importer. It lives beside the step catalog so
/// that anything linking `Lanes` can read it without the command-line tool.
public struct FastlaneAction: Sendable {
    /// fastlane's action name, such as `build_app`.
    public let name: String
    /// Other names fastlane accepts for the same action (`gym`, `build_ios_app`).
    public let aliases: [String]
    public let mapping: Mapping
    /// Every option fastlane's action declares (its `available_options` keys, read from fastlane's
    /// source), where the map lists them: each is a step option (by name, alias or `options`), an
    /// ignored option of fastlane's interface, or an unsupported one with the reason. The migration
    /// guide prints this table; a test keeps it complete.
    public let fastlaneOptions: [String]

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

    public init(_ name: String, aliases: [String] = [], _ mapping: Mapping, fastlaneOptions: [String] = []) {
        self.name = name
        self.aliases = aliases
        self.mapping = mapping
        self.fastlaneOptions = fastlaneOptions
    }

    /// What lanes does with each of `fastlaneOptions`, in fastlane's order.
    public var optionTable: [(fastlane: String, lanes: FastlaneOptionMapping?, unsupported: String?)] {
        guard case .step(_, _, let unsupported, _) = mapping else { return [] }
        return fastlaneOptions.map { name in (name, stepOption(for: name), unsupported[name]) }
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
        FastlaneAction("build_app", aliases: ["gym", "build_ios_app", "build_mac_app"], .step("build_app", unsupported: [
            "app_name": "it only names gym's log file; lanes names its logs after the step",
            "buildlog_path": "lanes always writes the redacted log under .lanes/logs and prints its path",
            "xcpretty_report_junit": "lanes writes no xcpretty reports (run_tests writes JUnit)",
            "xcpretty_report_html": "lanes writes no xcpretty reports",
            "xcpretty_report_json": "lanes writes no xcpretty reports",
            "analyze_build_time": "pass OTHER_SWIFT_FLAGS through xcargs",
            "xcodebuild_command": "lanes runs the xcodebuild on PATH; choose the Xcode with xcodes (DEVELOPER_DIR)",
            "skip_package_dependencies_resolution": "lanes runs no separate -resolvePackageDependencies before the archive (disable_package_automatic_updates keeps Package.resolved)",
            "generate_appstore_info": "not yet: pass export_options [\"generateAppStoreInformation\": true]",
        ]), fastlaneOptions: [
            "workspace", "project", "scheme", "clean", "output_directory", "output_name", "app_name", "configuration", "silent",
            "codesigning_identity", "skip_package_ipa", "skip_package_pkg", "include_symbols", "include_bitcode", "export_method", "export_options",
            "export_xcargs", "skip_build_archive", "skip_archive", "skip_codesigning", "catalyst_platform", "installer_cert_name", "build_path",
            "archive_path", "derived_data_path", "result_bundle", "result_bundle_path", "buildlog_path", "sdk", "toolchain", "destination",
            "export_team_id", "xcargs", "xcconfig", "suppress_xcode_output", "xcodebuild_formatter", "build_timing_summary", "disable_xcpretty",
            "xcpretty_test_format", "xcpretty_formatter", "xcpretty_report_junit", "xcpretty_report_html", "xcpretty_report_json", "xcpretty_utf",
            "analyze_build_time", "skip_profile_detection", "xcodebuild_command", "cloned_source_packages_path", "package_cache_path",
            "skip_package_dependencies_resolution", "disable_package_automatic_updates", "skip_package_repository_fetches", "use_system_scm",
            "package_authorization_provider", "generate_appstore_info",
        ]),
        FastlaneAction("run_tests", aliases: ["scan"], .step("run_tests", unsupported: [
            "skip_detect_devices": "lanes always chooses a simulator when none is given (or pass destination:)",
            "ensure_devices_found": "lanes passes the device names to xcodebuild, which fails on a name it does not know",
            "force_quit_simulator": "lanes does not manage simulators; run xcrun simctl in a sh step",
            "reset_simulator": "lanes does not manage simulators; run xcrun simctl erase in a sh step",
            "disable_slide_to_type": "lanes does not change simulator settings",
            "prelaunch_simulator": "xcodebuild boots the simulator itself",
            "reinstall_app": "lanes does not manage simulators; run xcrun simctl uninstall in a sh step",
            "app_identifier": "only reinstall_app uses it",
            "xctestrun": "not yet: run xcodebuild test-without-building -xctestrun in a sh step",
            "output_files": "lanes writes one JUnit report, at junit_path",
            "buildlog_path": "lanes always writes the redacted log under .lanes/logs and prints its path",
            "include_simulator_logs": "not yet",
            "output_remove_retry_attempts": "lanes' JUnit report holds each test once, with its last result",
            "force_legacy_xcresulttool": "lanes reads the test results from xcodebuild's output, not xcresulttool",
            "should_zip_build_products": "zip the DerivedData products with the zip step",
            "output_xctestrun": "not yet",
            "use_clang_report_name": "lanes writes no compilation database",
            "slack_url": "call slack(...) in an onError/afterAll hook",
            "slack_channel": "call slack(...) in a hook",
            "slack_message": "call slack(...) in a hook",
            "slack_use_webhook_configured_username_and_icon": "call slack(...) in a hook",
            "slack_username": "call slack(...) in a hook",
            "slack_icon_url": "call slack(...) in a hook",
            "slack_only_on_failure": "call slack(...) in an onError hook",
            "slack_default_payloads": "call slack(...) in a hook",
            "custom_report_file_name": "use junit_path",
            "xcodebuild_command": "lanes runs the xcodebuild on PATH; choose the Xcode with xcodes (DEVELOPER_DIR)",
            "skip_package_dependencies_resolution": "lanes runs no separate -resolvePackageDependencies before testing",
        ]), fastlaneOptions: [
            "workspace", "project", "package_path", "scheme", "device", "devices", "skip_detect_devices", "ensure_devices_found",
            "force_quit_simulator", "reset_simulator", "disable_slide_to_type", "prelaunch_simulator", "reinstall_app", "app_identifier",
            "only_testing", "skip_testing", "testplan", "only_test_configurations", "skip_test_configurations", "xctestrun", "toolchain", "clean",
            "code_coverage", "address_sanitizer", "thread_sanitizer", "open_report", "output_directory", "output_style", "output_types",
            "output_files", "buildlog_path", "include_simulator_logs", "suppress_xcode_output", "xcodebuild_formatter",
            "output_remove_retry_attempts", "force_legacy_xcresulttool", "disable_xcpretty", "formatter", "xcpretty_formatter", "xcpretty_args",
            "derived_data_path", "should_zip_build_products", "output_xctestrun", "result_bundle_path", "result_bundle", "use_clang_report_name",
            "parallel_testing", "concurrent_workers", "max_concurrent_simulators", "disable_concurrent_testing", "skip_build",
            "test_without_building", "build_for_testing", "sdk", "configuration", "xcargs", "xcconfig", "app_name", "deployment_target_version",
            "slack_url", "slack_channel", "slack_message", "slack_use_webhook_configured_username_and_icon", "slack_username", "slack_icon_url",
            "skip_slack", "slack_only_on_failure", "slack_default_payloads", "destination", "run_rosetta_simulator", "catalyst_platform",
            "custom_report_file_name", "xcodebuild_command", "cloned_source_packages_path", "package_cache_path",
            "skip_package_dependencies_resolution", "disable_package_automatic_updates", "skip_package_repository_fetches", "use_system_scm",
            "number_of_retries", "fail_build", "package_authorization_provider",
        ]),
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
        FastlaneAction("xcodebuild", aliases: ["xcarchive", "xcbuild", "xcclean", "xctest"], .step("xcodebuild", [
            "derivedDataPath": "derived_data_path",
        ], note: "build_app and run_tests archive, export and test as gym and scan do; xcodebuild runs one xcodebuild with the actions asked for")),
        FastlaneAction("xcexport", .lanefile(function: "sh(\"xcodebuild\", \"-exportArchive\", ...)",
                                             note: "build_app exports what it archives (skip_build_archive exports an archive made earlier)")),
        FastlaneAction("get_ipa_info_plist_value", .step("get_ipa_info_plist_value", ["key": "key", "ipa": "ipa"])),
        FastlaneAction("copy_artifacts", .step("copy_artifacts", ["keep_original": "keep_original", "target_path": "target_path",
                                                                 "artifacts": "artifacts", "fail_on_missing": "fail_on_missing"])),
        FastlaneAction("clear_derived_data", .step("clear_derived_data", ["derived_data_path": "derived_data_path"])),
        FastlaneAction("clean_build_artifacts", .step("clean_build_artifacts")),
        FastlaneAction("notarize", .step("notarize", ["package": "package", "api_key_path": "api_key_path", "bundle_id": "bundle_id"],
                                         note: "notarytool submit --wait, then stapler staple")),
        FastlaneAction("zip", .step("zip", ["path": "path", "output_path": "output_path"])),
        FastlaneAction("check_ipa", .step("check_ipa")),

        // Versions and Info.plist
        FastlaneAction("increment_build_number", .step("increment_build_number", ["build_number": "build_number", "xcodeproj": "xcodeproj"]),
                       fastlaneOptions: ["build_number", "skip_info_plist", "xcodeproj"]),
        FastlaneAction("increment_version_number", .step("increment_version_number",
                                                         ["bump_type": "bump_type", "version_number": "version_number", "xcodeproj": "xcodeproj"])),
        FastlaneAction("version_bump_podspec", .step("version_bump_podspec", [
            "path": "path", "bump_type": "bump_type", "version_number": "version_number", "version_appendix": "version_appendix",
            "require_variable_prefix": "require_variable_prefix"])),
        FastlaneAction("pod_push", .step("pod_push", [
            "use_bundle_exec": "use_bundle_exec", "path": "path", "repo": "repo", "allow_warnings": "allow_warnings", "use_libraries": "use_libraries", "sources": "sources", "swift_version": "swift_version",
            "skip_import_validation": "skip_import_validation", "skip_tests": "skip_tests", "use_json": "use_json", "verbose": "verbose", "use_modular_headers": "use_modular_headers", "synchronous": "synchronous", "no_overwrite": "no_overwrite", "local_only": "local_only"])),
        FastlaneAction("get_version_number", .step("get_version_number", ["xcodeproj": "xcodeproj", "target": "targets"])),
        FastlaneAction("get_build_number", .step("get_build_number", ["xcodeproj": "xcodeproj"])),
        FastlaneAction("commit_version_bump", .step("commit_version_bump", ["message": "message", "xcodeproj": "xcodeproj", "force": "force"])),
        FastlaneAction("get_info_plist_value", .step("get_info_plist_value", ["path": "path", "key": "key"])),
        FastlaneAction("set_info_plist_value", .step("set_info_plist_value", ["path": "path", "key": "key", "value": "value"])),
        FastlaneAction("update_info_plist", .step("update_info_plist", ["xcodeproj": "xcodeproj", "plist_path": "plist_path", "scheme": "scheme",
                                                                       "app_identifier": "app_identifier", "display_name": "display_name"],
                                                 unsupported: ["block": "a Ruby block cannot be given; call set_info_plist_value per key"])),
        FastlaneAction("update_app_identifier", .step("update_app_identifier", ["xcodeproj": "xcodeproj", "plist_path": "plist_path",
                                                                               "app_identifier": "app_identifier"])),
        FastlaneAction("update_project_team", .step("update_project_team", ["path": "xcodeproj", "targets": "targets", "teamid": "teamid"])),
        FastlaneAction("update_app_group_identifiers", .step("update_app_group_identifiers", [
            "entitlements_file": "entitlements_file", "app_group_identifiers": "app_group_identifiers"])),
        FastlaneAction("update_keychain_access_groups", .step("update_keychain_access_groups", [
            "entitlements_file": "entitlements_file", "identifiers": "identifiers"])),
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
        ]), fastlaneOptions: ["path", "use_automatic_signing", "sdk", "team_id", "targets", "build_configurations", "code_sign_identity",
                              "entitlements_file_path", "profile_name", "profile_uuid", "bundle_identifier"]),
        FastlaneAction("update_project_provisioning", .step("update_project_provisioning")),
        FastlaneAction("create_keychain", .implicit(reason: keychain)),
        FastlaneAction("delete_keychain", .implicit(reason: keychain)),
        FastlaneAction("unlock_keychain", .implicit(reason: keychain)),
        FastlaneAction("setup_ci", aliases: ["setup_circle_ci", "setup_travis", "setup_jenkins"], .implicit(reason:
            "\(keychain); CI systems are detected from their variables (isCI in a Lanefile)")),
        FastlaneAction("match", aliases: ["sync_code_signing"], .step("sync_code_signing", unsupported: [
            "additional_cert_types": "not yet: lanes imports the one certificate type of `type`",
            "generate_apple_certs": "lanes creates Apple Distribution/Development certificates when it creates any (readonly: false)",
            "skip_provisioning_profiles": "not yet",
            "api_key_path": "give the key with app_store_connect_api_key or its variables (APP_STORE_CONNECT_API_KEY_*); see docs/appstore.md",
            "api_key": "give the key with app_store_connect_api_key or its variables; see docs/appstore.md",
            "google_cloud_bucket_name": "not yet: Google Cloud Storage is not a lanes storage (git, s3 or a folder)",
            "google_cloud_keys_file": "not yet: Google Cloud Storage is not a lanes storage",
            "google_cloud_project_id": "not yet: Google Cloud Storage is not a lanes storage",
            "skip_google_cloud_account_confirmation": "not yet: Google Cloud Storage is not a lanes storage",
            "s3_access_key": "lanes reads AWS credentials as the AWS CLI does (AWS_ACCESS_KEY_ID, profiles, ...)",
            "s3_secret_access_key": "lanes reads AWS credentials as the AWS CLI does (AWS_SECRET_ACCESS_KEY, profiles, ...)",
            "s3_session_token": "lanes reads AWS credentials as the AWS CLI does (AWS_SESSION_TOKEN)",
            "s3_skip_encryption": "not yet: lanes reads and writes the S3 storage encrypted",
            "gitlab_project": "not yet: GitLab secure files are not a lanes storage",
            "gitlab_host": "not yet: GitLab secure files are not a lanes storage",
            "job_token": "not yet: GitLab secure files are not a lanes storage",
            "private_token": "not yet: GitLab secure files are not a lanes storage",
            "force": "not yet: lanes renews a profile when it is invalid, expired or misses a device (force_for_new_devices)",
            "include_mac_in_profiles": "not yet",
            "include_all_certificates": "not yet: a profile lanes creates lists the certificate it imports",
            "force_for_new_certificates": "not yet",
            "renew_expired_certs": "not yet: an expired certificate fails the step",
            "skip_confirmation": "an option of match_nuke, which confirms a nuke twice (skip_confirmation and LANES_MATCH_NUKE_TEAM)",
            "safe_remove_certs": "an option of match_nuke",
            "derive_catalyst_app_identifier": "not yet",
            "template_name": "not yet",
            "profile_name": "not yet: profiles lanes creates are named as match names them",
            "fail_on_name_taken": "not yet",
            "skip_certificate_matching": "lanes always checks that the profile lists the certificate",
            "output_path": "not yet: lanes keeps what it imports in the lane's keychain and profiles folder",
            "skip_set_partition_list": "lanes sets the keychain's partition list as part of importing",
            "force_legacy_encryption": "lanes writes match's v2 format (and reads v1)",
        ]), fastlaneOptions: [
            "type", "additional_cert_types", "readonly", "generate_apple_certs", "skip_provisioning_profiles", "app_identifier", "api_key_path",
            "api_key", "username", "team_id", "team_name", "storage_mode", "git_url", "git_branch", "git_full_name", "git_user_email",
            "shallow_clone", "clone_branch_directly", "git_basic_authorization", "git_bearer_authorization", "git_private_key",
            "google_cloud_bucket_name", "google_cloud_keys_file", "google_cloud_project_id", "skip_google_cloud_account_confirmation",
            "s3_region", "s3_access_key", "s3_secret_access_key", "s3_session_token", "s3_bucket", "s3_object_prefix", "s3_skip_encryption",
            "gitlab_project", "gitlab_host", "job_token", "private_token", "keychain_name", "keychain_password", "force",
            "force_for_new_devices", "include_mac_in_profiles", "include_all_certificates", "certificate_id", "force_for_new_certificates",
            "renew_expired_certs", "skip_confirmation", "safe_remove_certs", "skip_docs", "platform", "derive_catalyst_app_identifier",
            "template_name", "profile_name", "fail_on_name_taken", "skip_certificate_matching", "output_path", "skip_set_partition_list",
            "force_legacy_encryption", "verbose",
        ]),
        FastlaneAction("match_nuke", .step("match_nuke", unsupported: [
            "additional_cert_types": "not yet: lanes nukes the one certificate kind of `type`",
            "api_key_path": "give the key with app_store_connect_api_key or its variables (APP_STORE_CONNECT_API_KEY_*); see docs/appstore.md",
            "api_key": "give the key with app_store_connect_api_key or its variables; see docs/appstore.md",
            "s3_access_key": "lanes reads AWS credentials as the AWS CLI does (AWS_ACCESS_KEY_ID, profiles, ...)",
            "s3_secret_access_key": "lanes reads AWS credentials as the AWS CLI does (AWS_SECRET_ACCESS_KEY, profiles, ...)",
            "google_cloud_bucket_name": "not yet: Google Cloud Storage is not a lanes storage (git, s3 or a folder)",
        ]), fastlaneOptions: [
            "type", "additional_cert_types", "readonly", "app_identifier", "api_key_path", "api_key", "username", "team_id", "team_name",
            "storage_mode", "git_url", "git_branch", "git_full_name", "git_user_email", "shallow_clone", "clone_branch_directly",
            "git_basic_authorization", "git_bearer_authorization", "git_private_key", "google_cloud_bucket_name", "s3_region",
            "s3_access_key", "s3_secret_access_key", "s3_bucket", "s3_object_prefix", "force", "skip_confirmation", "safe_remove_certs",
            "skip_docs", "platform", "verbose",
        ]),
        FastlaneAction("match_import", .step("match_import")),
        FastlaneAction("get_provisioning_profile", aliases: ["sigh"], .step("get_provisioning_profile")),
        FastlaneAction("register_devices", aliases: ["register_device"], .step("register_devices")),
        FastlaneAction("get_certificates", aliases: ["cert"], .notSupported(reason: "create certificates with match (sync_code_signing) or lanes cert")),

        // App Store Connect and distribution
        FastlaneAction("app_store_connect_api_key", .step("app_store_connect_api_key")),
        FastlaneAction("upload_to_testflight", aliases: ["pilot", "testflight"], .step("upload_to_testflight", unsupported: [
            "api_key_path": "give the key with app_store_connect_api_key or its variables (APP_STORE_CONNECT_API_KEY_*); see docs/appstore.md",
            "api_key": "give the key with app_store_connect_api_key or its variables; see docs/appstore.md",
            "localized_app_info": "not yet: set TestFlight's test information in App Store Connect",
            "beta_app_description": "not yet: set TestFlight's test information in App Store Connect",
            "beta_app_feedback_email": "not yet: set TestFlight's test information in App Store Connect",
            "update_build_info_on_upload": "deprecated by fastlane; What to Test is set once the build appears",
            "app_clip_invocations": "not yet",
            "overwrite_app_clip_invocations": "not yet",
            "distribute_only": "not yet: lanes distributes the build it uploads",
            "first_name": "tester management is not a lanes step",
            "last_name": "tester management is not a lanes step",
            "email": "tester management is not a lanes step",
            "testers_file_path": "tester management is not a lanes step",
            "team_id": "an API key belongs to one team",
            "dev_portal_team_id": "an API key belongs to one team",
            "wait_for_uploaded_build": "lanes always distributes the build it uploaded, found by its version and build number",
            "reject_build_waiting_for_review": "not yet",
            "submit_beta_review": "lanes submits for beta app review whenever distribute_external is true",
        ]), fastlaneOptions: [
            "api_key_path", "api_key", "username", "app_identifier", "app_platform", "apple_id", "ipa", "pkg", "demo_account_required",
            "beta_app_review_info", "localized_app_info", "beta_app_description", "beta_app_feedback_email", "localized_build_info",
            "changelog", "skip_submission", "skip_waiting_for_build_processing", "update_build_info_on_upload", "app_clip_invocations",
            "overwrite_app_clip_invocations", "distribute_only", "uses_non_exempt_encryption", "distribute_external",
            "notify_external_testers", "app_version", "build_number", "expire_previous_builds", "first_name", "last_name", "email",
            "testers_file_path", "groups", "team_id", "team_name", "dev_portal_team_id", "itc_provider", "provider_public_id",
            "wait_processing_interval", "wait_processing_timeout_duration", "wait_for_uploaded_build", "reject_build_waiting_for_review",
            "submit_beta_review",
        ]),
        FastlaneAction("upload_to_app_store", aliases: ["deliver", "appstore"], .step("upload_to_app_store", unsupported: [
            "api_key_path": "give the key with app_store_connect_api_key or its variables (APP_STORE_CONNECT_API_KEY_*); see docs/appstore.md",
            "api_key": "give the key with app_store_connect_api_key or its variables; see docs/appstore.md",
            "edit_live": "not yet: lanes edits the version in preparation",
            "use_live_version": "not yet",
            "app_clip_header_images_path": "not yet",
            "app_clip_default_experience_metadata_path": "not yet",
            "app_previews_path": "not yet: lanes uploads screenshots, not App Previews",
            "preview_frame_time_code": "not yet",
            "overwrite_preview_videos": "not yet",
            "skip_app_version_update": "not yet",
            "sync_screenshots": "not yet: overwrite_screenshots replaces each locale's sets",
            "verify_only": "dry_run:true reads App Store Connect and prints every change",
            "reject_if_possible": "not yet",
            "version_check_wait_retry_limit": "lanes waits for the version with its own bounded polling",
            "auto_release_date": "not yet",
            "reset_ratings": "not yet",
            "price_tier": "not yet",
            "app_rating_config_path": "not yet",
            "submission_information": "Apple's API no longer takes it with a review submission; answer export compliance with uses_non_exempt_encryption in upload_to_testflight",
            "team_id": "an API key belongs to one team",
            "dev_portal_team_id": "an API key belongs to one team",
            "dev_portal_team_name": "an API key belongs to one team",
            "precheck_default_rule_level": "lanes has no precheck",
            "individual_metadata_items": "not yet: lanes reads metadata from metadata_path",
            "app_icon": "not yet",
            "apple_watch_app_icon": "not yet",
            "copyright": "write it in metadata_path (copyright.txt)",
            "primary_category": "not yet: lanes sends the localized texts and copyright.txt of metadata_path",
            "secondary_category": "not yet: lanes sends the localized texts and copyright.txt of metadata_path",
            "primary_first_sub_category": "not yet: lanes sends the localized texts and copyright.txt of metadata_path",
            "primary_second_sub_category": "not yet: lanes sends the localized texts and copyright.txt of metadata_path",
            "secondary_first_sub_category": "not yet: lanes sends the localized texts and copyright.txt of metadata_path",
            "secondary_second_sub_category": "not yet: lanes sends the localized texts and copyright.txt of metadata_path",
            "trade_representative_contact_information": "not yet: lanes sends the localized texts and copyright.txt of metadata_path",
            "app_review_information": "not yet: lanes sends the localized texts and copyright.txt of metadata_path",
            "app_clip_review_information": "not yet",
            "app_review_attachment_file": "not yet",
            "description": "write it in metadata_path (LOCALE/description.txt)",
            "name": "write it in metadata_path (LOCALE/name.txt)",
            "subtitle": "write it in metadata_path (LOCALE/subtitle.txt)",
            "keywords": "write it in metadata_path (LOCALE/keywords.txt)",
            "promotional_text": "write it in metadata_path (LOCALE/promotional_text.txt)",
            "release_notes": "write it in metadata_path (LOCALE/release_notes.txt)",
            "privacy_url": "write it in metadata_path (LOCALE/privacy_url.txt)",
            "apple_tv_privacy_policy": "not yet: lanes sends the localized texts and copyright.txt of metadata_path",
            "support_url": "write it in metadata_path (LOCALE/support_url.txt)",
            "marketing_url": "write it in metadata_path (LOCALE/marketing_url.txt)",
            "languages": "lanes updates the locales metadata_path holds",
            "ignore_language_directory_validation": "lanes takes every folder of metadata_path as a locale",
            "app_clip_default_experience_subtitle": "not yet",
            "app_clip_default_experience_action": "not yet",
        ]), fastlaneOptions: [
            "api_key_path", "api_key", "username", "app_identifier", "app_version", "ipa", "pkg", "build_number", "platform", "edit_live",
            "use_live_version", "metadata_path", "screenshots_path", "app_clip_header_images_path", "app_clip_default_experience_metadata_path",
            "app_previews_path", "preview_frame_time_code", "overwrite_preview_videos", "skip_binary_upload", "skip_screenshots",
            "skip_metadata", "skip_app_version_update", "force", "overwrite_screenshots", "screenshot_processing_timeout", "sync_screenshots",
            "submit_for_review", "verify_only", "reject_if_possible", "version_check_wait_retry_limit", "automatic_release",
            "auto_release_date", "phased_release", "reset_ratings", "price_tier", "app_rating_config_path", "submission_information",
            "team_id", "team_name", "dev_portal_team_id", "dev_portal_team_name", "itc_provider", "provider_public_id",
            "run_precheck_before_submit", "precheck_default_rule_level", "individual_metadata_items", "app_icon", "apple_watch_app_icon",
            "copyright", "primary_category", "secondary_category", "primary_first_sub_category", "primary_second_sub_category",
            "secondary_first_sub_category", "secondary_second_sub_category", "trade_representative_contact_information",
            "app_review_information", "app_clip_review_information", "app_review_attachment_file", "description", "name", "subtitle",
            "keywords", "promotional_text", "release_notes", "privacy_url", "apple_tv_privacy_policy", "support_url", "marketing_url",
            "languages", "ignore_language_directory_validation", "precheck_include_in_app_purchases", "app_clip_default_experience_subtitle",
            "app_clip_default_experience_action", "app",
        ]),
        FastlaneAction("latest_testflight_build_number", .step("latest_testflight_build_number")),
        FastlaneAction("app_store_build_number", .step("app_store_build_number")),
        FastlaneAction("firebase_app_distribution", .step("firebase_app_distribution", [
            "app": "app_id", "ipa_path": "ipa_path", "release_notes": "release_notes", "testers": "testers", "groups": "groups",
            "service_credentials_file": "service_credentials_file", "service_credentials_json_data": "service_account",
        ])),
        FastlaneAction("s3", aliases: ["aws_s3"], .step("upload", note: "upload with an s3:// destination")),
        FastlaneAction("upload_symbols_to_crashlytics", .step("upload_symbols_to_crashlytics", ["dsym_path": "dsym_path", "gsp_path": "gsp_path"])),
        FastlaneAction("sentry", aliases: ["sentry_upload_dsym", "sentry_debug_files_upload", "sentry_upload_dif", "sentry_upload_file"],
                       .step("sentry_upload_dsym", ["dsym_path": "dsym_path", "org_slug": "org_slug", "project_slug": "project_slug",
                                                    "auth_token": "auth_token"],
                             note: "dSYM upload through sentry-cli debug-files upload")),
        FastlaneAction("sentry_create_release", .step("sentry_create_release", ["version": "version", "app_identifier": "app_identifier",
                                                                               "finalize": "finalize", "org_slug": "org_slug", "project_slug": "project_slug",
                                                                               "auth_token": "auth_token", "url": "url"],
                                                      unsupported: ["api_key": "Sentry's API keys are deprecated: give auth_token (SENTRY_AUTH_TOKEN)"],
                                                      note: "sentry-cli releases new")),
        FastlaneAction("sentry_set_commits", .step("sentry_set_commits", ["version": "version", "app_identifier": "app_identifier", "auto": "auto",
                                                                         "clear": "clear", "commit": "commit", "ignore_missing": "ignore_missing"],
                                                   note: "sentry-cli releases set-commits")),
        FastlaneAction("sentry_finalize_release", .step("sentry_finalize_release", ["version": "version", "app_identifier": "app_identifier"],
                                                        note: "sentry-cli releases finalize")),
        FastlaneAction("download_dsyms", .step("download_dsyms", unsupported: [
            "api_key_path": "give the key with app_store_connect_api_key or its variables (APP_STORE_CONNECT_API_KEY_*); see docs/appstore.md",
            "api_key": "give the key with app_store_connect_api_key or its variables; see docs/appstore.md",
            "api_token": "lanes makes the token from the lane's API key (app_store_connect_api_key)",
        ]), fastlaneOptions: [
            "api_key_path", "api_key", "api_token", "username", "app_identifier", "team_id", "team_name", "platform", "version", "build_number",
            "min_version", "after_uploaded_date", "output_directory", "wait_for_dsym_processing", "wait_timeout",
        ]),
        FastlaneAction("capture_screenshots", aliases: ["snapshot", "capture_ios_screenshots"], .notSupported(reason: images)),
        FastlaneAction("frame_screenshots", aliases: ["frameit"], .notSupported(reason: images)),
        FastlaneAction("badge", aliases: ["add_badge"], .notSupported(reason: images)),
        FastlaneAction("appicon", .notSupported(reason: images)),

        // Git and GitHub
        FastlaneAction("ensure_git_status_clean", .step("ensure_git_status_clean")),
        FastlaneAction("reset_git_repo", .step("reset_git_repo"),
                       fastlaneOptions: ["files", "force", "skip_clean", "disregard_gitignore", "exclude"]),
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
        FastlaneAction("ensure_env_vars", .step("ensure_env_vars", ["env_vars": "env_vars"],
                                                note: "or declare the variables on the Lane (environment:, secrets:), checked before its first step")),
        FastlaneAction("prompt", .step("prompt", ["text": "text", "ci_input": "ci_input", "boolean": "boolean", "secure_text": "secure_text",
                                                  "multi_line_end_keyword": "multi_line_end_keyword"],
                                       note: "on CI or without a terminal it answers ci_input, and fails when there is none")),
        FastlaneAction("opt_out_usage", aliases: ["skip_docs"], .implicit(reason: "lanes sends no usage data and writes no README")),
        FastlaneAction("default_platform", aliases: ["platform"], .implicit(reason: "lanes has no platform blocks: a lane is a Swift function")),
        FastlaneAction("clean_cocoapods_cache", .lanefile(function: "sh(\"pod\", \"cache\", \"clean\", \"--all\")", note: "a sh step")),
        FastlaneAction("update_fastlane", .implicit(reason: "lanes is installed as one binary (Homebrew or a release)")),
        FastlaneAction("import_from_git", aliases: ["import"], .notSupported(reason: "split a Lanefile into several files or share steps as a Swift package")),
    ]
}
