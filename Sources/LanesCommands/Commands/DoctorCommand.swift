import ArgumentParser
import Foundation
import Lanes
import LanesCron
import LanesDoctor
import LanesPlatform
import LanesSchedule
import LanesWeb

/// `lanes doctor`: checks what breaks releases (toolchain, signing material, schedules, secrets),
/// says how to fix each problem, and exits 1 when one is an error (warnings alone exit 0).
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the toolchain, signing material, schedules and secrets before a release breaks.",
        discussion: """
            Exit status: 0 when nothing is an error (warnings allowed), 1 when a check found an error, \
            78 when the Lanefile cannot be listed. Secret values are never shown, only their names.
            """)

    @OptionGroup var project: ProjectScheduleOptions

    @Option(help: "Also read .env.NAME (after .env.default and .env), as `lanes LANE --env NAME` does.")
    var env: String?

    @Option(name: .customLong("warning-days"), help: "Certificates and profiles expiring within this many days are warnings.")
    var warningDays = 30

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let environment = ProcessEnvironment.current()
        let lanefile = try project.locateLanefile()
        let inspection = ProjectInspection(lanefile: lanefile, environment: environment)
        let variables = try DotEnvFiles.load(directory: inspection.projectDirectory, environmentName: env, over: environment)

        var findings = ToolchainCheckup(environment: environment, projectDirectory: inspection.projectDirectory).findings()
        let signing = try inspection.signingMaterial().map { SigningCheckup(warningDays: warningDays).check($0, variables: variables, at: Date()) }
        if signing.isEmpty {
            findings.append(DoctorFinding(.signing, "CodeSigning", .ok, "the Lanefile declares no signing configurations"))
        }
        findings += signing.flatMap(\.findings)
        findings += scheduleFindings(inspection, lanefile: lanefile)
        let lanes = try inspection.declaredLanes()
        let declared = lanes.map { (lane: $0.name, variables: $0.environment, secrets: $0.secrets) }
        findings += SecretsCheckup.findings(declared: declared, variables: variables)
        findings += LaneToolsCheckup.findings(declared: lanes.map { (lane: $0.name, tools: $0.tools) }, environment: environment)
        findings += stepOptionFindings(lanefile: lanefile, lanes: lanes.map(\.name), variables: variables)
        findings += appStoreConnectKeyFindings(lanefile: lanefile, lanes: lanes.map(\.name), variables: variables)

        // Messages name files and variables; the redactor is a second guard for any secret value.
        let redactor = Redactor(secrets: declared.flatMap(\.secrets).compactMap { variables[$0] }.filter { !$0.isEmpty })
        let output = TextOutput.standardOutput(redactor)
        if json {
            output.write(JSONValue.object([
                ("status", .string(findings.worst.rawValue)),
                ("findings", .array(findings.map(WebJSON.finding))),
            ]).serialized + "\n")
        } else {
            output.write(DoctorText.render(findings))
        }
        if findings.worst == .error { throw ExitCode(ExitStatus.laneFailed.rawValue) }
    }

    /// The lane start's preflight for every lane: step calls whose required options nothing gives
    /// (no argument, none of their variables set here). A lane's Configuration is not known
    /// here, so Appfile-backed options are left to the lane's start.
    private func stepOptionFindings(lanefile: String, lanes: [String], variables: [String: String]) -> [DoctorFinding] {
        guard let source = try? FilePath.readBytes(lanefile) else { return [] }
        let preflight = StepCallPreflight(source: source, fileName: FilePath.name(of: lanefile), steps: StepCatalog.builtIn.map { $0.info })
        return lanes.filter(preflight.finds(lane:)).map { lane in
            let gaps = preflight.gaps(lane: lane, isSet: { !(variables[$0] ?? "").isEmpty }, configurationGives: { _ in nil })
            guard !gaps.isEmpty else { return DoctorFinding(.secrets, "lane \(lane) options", .ok, "every required step option has a value") }
            return DoctorFinding(.secrets, "lane \(lane) options", .error, gaps.map(\.description).joined(separator: "; "),
                                 fix: "pass each option in the Lanefile call, or set one of its variables (in CI or .env)")
        }
    }

    /// The lanes that call a step talking to App Store Connect while no API key is configured
    /// (variables here, `app_store_connect_api_key` in the lane): each would fail at that step.
    private func appStoreConnectKeyFindings(lanefile: String, lanes: [String], variables: [String: String]) -> [DoctorFinding] {
        guard let source = try? FilePath.readBytes(lanefile) else { return [] }
        let preflight = StepCallPreflight(source: source, fileName: FilePath.name(of: lanefile), steps: StepCatalog.builtIn.map { $0.info })
        let isSet = { (name: String) in !(variables[name] ?? "").isEmpty }
        let appleID = AppleIDSignIn.variables.filter(isSet)
        return lanes.filter(preflight.finds(lane:)).compactMap { lane in
            let needs = preflight.appStoreConnectKeyNeeds(lane: lane, isSet: isSet)
            guard !needs.isEmpty else { return nil }
            let steps = needs.map(\.description).joined(separator: ", ")
            let key = "set APP_STORE_CONNECT_API_KEY_KEY_ID, APP_STORE_CONNECT_API_KEY_ISSUER_ID and APP_STORE_CONNECT_API_KEY_KEY "
                + "(or _KEY_FILEPATH) in CI or .env, or call app_store_connect_api_key in the lane; see docs/appstore.md"
            let fix = appleID.isEmpty
                ? "make an API key in App Store Connect (Users and Access > Integrations > App Store Connect API), then " + key
                : AppleIDSignIn.answer(set: appleID) + "; " + key
            return DoctorFinding(.secrets, "lane \(lane) App Store Connect key", .error,
                                 "calls \(steps), which need an App Store Connect API key, and none is configured", fix: fix)
        }
    }

    /// Every spec parses; two triggers of one lane never fire at the same instant (the daemon would
    /// run the lane once and record the other skipped); the state folder is writable.
    private func scheduleFindings(_ inspection: ProjectInspection, lanefile: String) -> [DoctorFinding] {
        var findings: [DoctorFinding] = []
        do {
            let lanes = try inspection.schedules(count: 200)
            for lane in lanes {
                var seen: [String: String] = [:]
                var clashes: [String] = []
                for trigger in lane.triggers {
                    for instant in trigger.next {
                        if let other = seen[instant], other != trigger.spec, clashes.count < 3 {
                            clashes.append("\(instant) (\"\(other)\" and \"\(trigger.spec)\")")
                        }
                        seen[instant] = trigger.spec
                    }
                }
                if clashes.isEmpty {
                    findings.append(DoctorFinding(.schedules, lane.lane, .ok, "\(lane.triggers.count) trigger(s), next \(lane.triggers.first?.next.first ?? "never")"))
                } else {
                    findings.append(DoctorFinding(.schedules, lane.lane, .warning,
                        "triggers fire at the same instant: \(clashes.joined(separator: ", ")); the daemon runs the lane once and records the other skipped",
                        fix: "move one spec (e.g. another minute or H) so the lane's triggers never coincide"))
                }
            }
        } catch {
            findings.append(DoctorFinding(.schedules, "schedules", .error, "\(error)", fix: "fix the spec; `lanes cron explain SPEC` shows what it means"))
        }
        let state: String
        do { state = try project.stateDirectory(lanefile: lanefile) } catch {
            findings.append(DoctorFinding(.schedules, "state folder", .error, "\(error)",
                                          fix: "set LANES_STATE_DIR (or --state-dir) to a folder of yours"))
            return findings
        }
        var existing = state
        while !FilePath.exists(existing), existing != "/" { existing = FilePath.directory(of: existing) }
        if FilePath.isDirectory(existing), access(existing, W_OK) == 0 {
            findings.append(DoctorFinding(.schedules, "state folder", .ok, "\(state) is writable"))
        } else {
            findings.append(DoctorFinding(.schedules, "state folder", .error, "\(existing) is not writable, so the daemon cannot keep its history in \(state)",
                                          fix: "give this user write access, or set LANES_STATE_DIR (or --state-dir) to a writable folder"))
        }
        return findings
    }
}

/// The doctor's human output: one line per check, grouped by area, with the fix under each problem.
enum DoctorText {
    static func render(_ findings: [DoctorFinding]) -> String {
        var lines: [String] = []
        for area in DoctorArea.allCases {
            let inArea = findings.filter { $0.area == area }
            guard !inArea.isEmpty else { continue }
            lines.append(area.rawValue.capitalized)
            for finding in inArea {
                let mark = switch finding.severity {
                case .ok: "ok     "
                case .warning: "WARNING"
                case .error: "ERROR  "
                }
                lines.append("  \(mark) \(finding.subject): \(finding.message)")
                if let fix = finding.fix, finding.severity != .ok { lines.append("          fix: \(fix)") }
            }
        }
        let errors = findings.filter { $0.severity == .error }.count
        let warnings = findings.filter { $0.severity == .warning }.count
        lines.append(errors == 0 && warnings == 0 ? "Everything is ready." : "\(errors) error(s), \(warnings) warning(s).")
        return lines.joined(separator: "\n") + "\n"
    }
}
