import ArgumentParser
import Foundation
import Lanes
import LanesGit
import LanesPlatform
import LanesSigning

/// `lanes env`: what a bug report needs, like `fastlane env`. Versions, the Lanefile and its cache key,
/// the CI system, and which of the variables the lanes need are set: names only, never a value.
struct EnvCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "env",
        abstract: "Print versions, the Lanefile, its cache key and the CI system, for a bug report (no secret values).")

    /// Settings of lanes itself; their values are paths and levels, never secrets.
    static let settingVariables = ["LANES_HOME", "LANES_CACHE_DIR", "LANES_SWIFTC", "LANES_LOG_LEVEL", "XDG_CACHE_HOME"]

    func run() throws {
        let environment = ProcessEnvironment.current()
        let installation = try Installation.locate(environment: environment)
        let report = EnvReport(
            installation: installation,
            toolchain: Toolchain(installation: installation, environment: environment,
                                 versionCache: ProjectHandoff.versionCache(in: environment)),
            operatingSystem: EnvReport.operatingSystem(), handoff: ProjectHandoff(environment: environment),
            environment: environment)
        TextOutput.standardOutput(Redactor()).write(try report.rendered())
    }
}

/// The text of `lanes env`.
struct EnvReport {
    /// How many lane names the one-line summary shows.
    static let laneNameLimit = 10

    let installation: Installation
    let toolchain: Toolchain
    let operatingSystem: String
    let handoff: ProjectHandoff?
    let environment: [String: String]

    func rendered() throws -> String {
        var lines = [
            "lanes:     \(LanesVersion.current) (\(FilePath.directory(of: installation.toolExecutable)))",
            "Swift:     \(toolchain.summary)",
            "OS:        \(operatingSystem)",
            "OpenSSL:   \(OpenSSLVersion.runtime)",
            "libgit2:   \(GitLibrary.version)",
            "CI:        \(CISystem.detect(in: environment)?.rawValue ?? "none detected")",
        ]
        for name in EnvCommand.settingVariables {
            if let value = environment[name], !value.isEmpty { lines.append("\(name)=\(value)") }
        }
        lines.append("")
        guard let handoff else {
            lines.append("Lanefile:  none in \(FilePath.currentDirectory()) or above")
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append("Lanefile:  \(handoff.lanefile)")
        lines.append("cache key: \(handoff.cacheKey) (\(handoff.runner == nil ? "not compiled yet: lanes list compiles it" : "compiled"))")
        guard let lanes = try ProjectLanes.load(handoff) else { return lines.joined(separator: "\n") + "\n" }
        lines.append("lanes:     \(lanes.lanes.count) (\(lanes.lanes.prefix(Self.laneNameLimit).map(\.name).joined(separator: ", "))\(lanes.lanes.count > Self.laneNameLimit ? ", ..." : ""))")
        let needed = Set(lanes.lanes.flatMap(\.environment)).sorted()
        let secrets = Set(lanes.lanes.flatMap(\.secrets)).sorted()
        if !needed.isEmpty || !secrets.isEmpty {
            lines.append("")
            lines.append("Variables the lanes need (from the environment; .env files are read when a lane runs):")
            for name in needed { lines.append("  \(name): \(state(of: name))") }
            for name in secrets { lines.append("  \(name) (secret): \(state(of: name))") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func state(of name: String) -> String {
        (environment[name] ?? "").isEmpty ? "not set" : "set"
    }

    /// `Debian GNU/Linux 12 (bookworm), Linux 6.1.0 x86_64` or `macOS 15.6 (24G84), Darwin 24.6.0 arm64`:
    /// the release from `sw_vers` on macOS (which has no /etc/os-release), from /etc/os-release elsewhere.
    static func operatingSystem() -> String {
        var system = utsname()
        uname(&system)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let kernel = "\(field(system.sysname)) \(field(system.release)) \(field(system.machine))"
        let release = HostPlatform.isMacOS
            ? ToolOutput.standardOutput(of: ["/usr/bin/sw_vers"]).flatMap(macOSRelease(swVers:))
            : (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)).flatMap(linuxRelease(osRelease:))
        return release.map { "\($0), \(kernel)" } ?? kernel
    }

    /// `macOS 15.6 (24G84)` from `sw_vers`' lines (`ProductName:<tabs>macOS`, `ProductVersion:`, `BuildVersion:`).
    static func macOSRelease(swVers output: String) -> String? {
        var fields: [String: String] = [:]
        for line in output.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        guard let name = fields["ProductName"], let version = fields["ProductVersion"] else { return nil }
        return "\(name) \(version)" + (fields["BuildVersion"].map { " (\($0))" } ?? "")
    }

    /// `PRETTY_NAME` of /etc/os-release, unquoted.
    static func linuxRelease(osRelease text: String) -> String? {
        text.split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
            .map { $0.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
    }
}
