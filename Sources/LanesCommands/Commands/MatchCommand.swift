import ArgumentParser
import Lanes

/// `lanes match import|change-password|decrypt`: shell spellings of the `match_import`,
/// `match_change_password` and `match_decrypt` steps, run like `lanes run` (same validation,
/// redaction and `--json`). Passwords come from MATCH_PASSWORD / MATCH_NEW_PASSWORD only.
struct MatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Write to a fastlane match storage: import, change its password, decrypt it for inspection.",
        discussion: "The password is read from MATCH_PASSWORD (and MATCH_NEW_PASSWORD), never from arguments. See docs/match.md.",
        subcommands: [Import.self, ChangePassword.self, Decrypt.self]
    )

    /// Where the storage is; fastlane's names (MATCH_GIT_URL, ...) apply when a flag is left out.
    struct Storage: ParsableArguments {
        @Option(help: ArgumentHelp("git, or a folder laid out like the storage (default: MATCH_STORAGE_MODE, else git).", valueName: "MODE"))
        var storageMode: String?
        @Option(help: ArgumentHelp("The match git repository (default: MATCH_GIT_URL).", valueName: "URL")) var gitURL: String?
        @Option(help: ArgumentHelp("Its branch (default: MATCH_GIT_BRANCH, else master).", valueName: "NAME")) var gitBranch: String?
        @Flag(help: "JSON events instead of text.") var json = false

        var options: [String] {
            [("storage_mode", storageMode), ("git_url", gitURL), ("git_branch", gitBranch)].compactMap { key, value in value.map { "\(key):\($0)" } }
        }
        var flags: [String] { json ? ["--json"] : [] }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "import",
            abstract: "Encrypt a certificate, its key and a profile into the storage and push, as `fastlane match import`.")
        @Option(help: ArgumentHelp("appstore, adhoc, development, enterprise, developer_id, ...", valueName: "TYPE")) var type: String
        @Option(help: ArgumentHelp("The certificate (.cer); its file name is its id in the storage.", valueName: "FILE")) var cert: String
        @Option(help: ArgumentHelp("Its key: PKCS#12 without password, or PEM.", valueName: "FILE")) var p12: String
        @Option(help: ArgumentHelp("A provisioning profile to store too.", valueName: "FILE")) var profile: String?
        @Option(help: ArgumentHelp("ios, tvos, macos, catalyst, visionos.", valueName: "PLATFORM")) var platform: String?
        @OptionGroup var storage: Storage

        func run() async throws {
            let options = [("type", type), ("cert_path", cert), ("p12_path", p12), ("profile_path", profile), ("platform", platform)]
                .compactMap { key, value in value.map { "\(key):\($0)" } }
            await SingleStepRun.main(MatchImport.self, arguments: options + storage.options + storage.flags)
        }
    }

    struct ChangePassword: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "change-password",
            abstract: "Re-encrypt every file with MATCH_NEW_PASSWORD in one commit.")
        @OptionGroup var storage: Storage

        func run() async throws {
            await SingleStepRun.main(MatchChangePassword.self, arguments: storage.options + storage.flags)
        }
    }

    struct Decrypt: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "decrypt",
            abstract: "Write the decrypted files into a folder for inspection (they include private keys).")
        @Option(help: ArgumentHelp("Folder for the clear files (created 0700).", valueName: "DIR")) var output: String
        @OptionGroup var storage: Storage

        func run() async throws {
            await SingleStepRun.main(MatchDecrypt.self, arguments: ["output:\(output)"] + storage.options + storage.flags)
        }
    }
}
