#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LanesImport

// `lanes import fastlane`'s time against the Fastfile's size (issue 31: a 1.5 MB Fastfile took 35 s
// and 7.8 MB over 300 s, quadratic). Generated Fastfiles of 0.3, 1.5 and 7.8 MB (one realistic lane
// repeated under new names) are imported and reported; the anchor, run side by side, is the
// smallest file's time scaled by size: what a linear importer takes. Usage: ImportBenchmark [--sizes 0.3,1.5,7.8]

func fastfile(megabytes: Double) -> String {
    let limit = Int(megabytes * 1024 * 1024)
    var text = "default_platform(:ios)\nplatform :ios do\n"
    var lane = 0
    while text.utf8.count < limit {
        text += """
            desc "Beta build \(lane)"
            lane :beta_\(lane) do |options|
              match(type: "appstore", readonly: is_ci, app_identifier: ["com.example.app\(lane)"])
              version = get_version_number(xcodeproj: "App.xcodeproj")
              increment_build_number(build_number: latest_testflight_build_number + 1)
              gym(scheme: "App", export_method: "app-store", clean: options[:clean])
              pilot(changelog: "Version #{version}", skip_waiting_for_build_processing: true)
              sh "git tag v#{version}-\(lane)" unless options.fetch(:dry_run, false)
              slack(message: "Uploaded #{lane_context[SharedValues::IPA_OUTPUT_PATH]}") if ENV["SLACK_URL"]
            end


            """
        lane += 1
    }
    return text + "end\n"
}

var sizes = [0.3, 1.5, 7.8]
if let index = CommandLine.arguments.firstIndex(of: "--sizes"), index + 1 < CommandLine.arguments.count {
    sizes = CommandLine.arguments[index + 1].split(separator: ",").compactMap { Double($0) }
}
let clock = ContinuousClock()
var anchorSecondsPerMB: Double?
print("size      import+report   linear anchor   ratio   lanes   Lanefile")
for size in sizes {
    let text = fastfile(megabytes: size)
    let megabytes = Double(text.utf8.count) / 1_048_576
    var lanefileBytes = 0, laneCount = 0
    let elapsed = clock.measure {
        let result = FastlaneImporter.importRuby(text)
        lanefileBytes = result.lanefile.utf8.count + result.report.markdown.utf8.count
        laneCount = result.report.lanes.count
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let perMB = anchorSecondsPerMB ?? seconds / megabytes
    if anchorSecondsPerMB == nil { anchorSecondsPerMB = perMB }
    let anchor = perMB * megabytes
    print(String(format: "%5.2f MB  %10.2f s   %10.2f s   %5.2f   %5d   %.1f MB",
                 megabytes, seconds, anchor, seconds / anchor, laneCount, Double(lanefileBytes) / 1_048_576))
}
