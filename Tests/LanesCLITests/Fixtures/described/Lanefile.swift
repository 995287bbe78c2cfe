import Lanes

let version = LaneOption<String>("version", "The version to ship")
let build = LaneOption<Int>("build", "The build number", default: 1)
let dryRun = LaneOption<Bool>("dry_run", "Only say what would ship", default: false)

let lanes = Lanefile {
    Lane("deploy", "Ships a version", options: [version, build, dryRun],
         environment: ["KEYCHAIN_NAME"], secrets: ["CANARY"]) { lane in
        try echo("version=\(try lane[version])")
    }
    Lane("nightly", "Runs at night", schedule: ["H 0 * * 0-4"]) {}
    Lane("greet", "Print a greeting") {
        try await sh("sh", "-c", "echo hello")
    }
}
