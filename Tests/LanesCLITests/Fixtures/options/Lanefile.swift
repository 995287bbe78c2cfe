import Lanes

let version = LaneOption<String>("version", "The version to ship")
let build = LaneOption<Int>("build", "The build number", default: 1)
let dryRun = LaneOption<Bool>("dry_run", "Only say what would ship", default: false)

let lanes = Lanefile {
    Lane("deploy", "Ships a version", options: [version, build, dryRun]) { lane in
        try echo("version=\(try lane[version]) build=\(try lane[build]) dry_run=\(try lane[dryRun])")
    }
}
