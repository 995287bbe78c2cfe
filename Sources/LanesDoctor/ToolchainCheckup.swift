import LanesGit
import LanesPlatform
import LanesSigning

/// The doctor's toolchain checks: the compiler lanes recorded at install (Lanefiles must be built
/// with it: Linux has no stable Swift ABI) still exists and is the `swiftc` on PATH; OpenSSL's
/// legacy provider loads; libgit2 opens the project; on macOS, xcodebuild and security exist.
public struct ToolchainCheckup: Sendable {
    public let environment: [String: String]
    public let projectDirectory: String

    public init(environment: [String: String], projectDirectory: String) {
        self.environment = environment
        self.projectDirectory = projectDirectory
    }

    public func findings() -> [DoctorFinding] {
        var findings: [DoctorFinding] = compiler()
        do {
            try OpenSSLProviders.verify()
            findings.append(DoctorFinding(.toolchain, "OpenSSL", .ok, "the default and legacy providers load"))
        } catch {
            findings.append(DoctorFinding(.toolchain, "OpenSSL", .error, "\(error)",
                fix: "install OpenSSL 3 with its legacy provider (Debian: libssl3; set OPENSSL_MODULES if it lives elsewhere)"))
        }
        findings.append(git())
        for tool in ["xcodebuild", "security"] where HostPlatform.isMacOS {
            if let path = FilePath.which(tool, path: environment["PATH"]) {
                findings.append(DoctorFinding(.toolchain, tool, .ok, path))
            } else {
                findings.append(DoctorFinding(.toolchain, tool, .error, "\(tool) is not on PATH", fix: "install Xcode and run `xcode-select --install`"))
            }
        }
        return findings
    }

    /// The compiler Lanefiles compile with and, on macOS, the SDK: recorded at install, still there, still
    /// the same version. A new Xcode replaces the compiler at the same path: on macOS Lanefiles then compile
    /// against the installed `.swiftinterface` files (a warning); on Linux, which has no stable Swift ABI,
    /// libLanes was built by another compiler (an error).
    private func compiler() -> [DoctorFinding] {
        let installation: Installation
        do { installation = try Installation.locate(environment: environment) } catch {
            return [DoctorFinding(.toolchain, "swiftc", .error, "\(error)", fix: "reinstall lanes with `make install`")]
        }
        let reinstall = HostPlatform.isMacOS ? "reinstall lanes (`make install`, or `brew reinstall lanes`)" : "rebuild and reinstall lanes (`make install`)"
        var findings: [DoctorFinding] = []
        if let sdk = installation.sdk {
            findings.append(FilePath.isDirectory(sdk)
                ? DoctorFinding(.toolchain, "macOS SDK", .ok, sdk)
                : DoctorFinding(.toolchain, "macOS SDK", .error, "the SDK lanes was installed with, \(sdk), is gone (Xcode moved or was updated)",
                                fix: "\(reinstall) with the Xcode that `xcode-select -p` names"))
        }
        // A build folder records the name `swiftc`, an installation its absolute path.
        let recorded = installation.swiftc.hasPrefix("/")
            ? installation.swiftc : FilePath.which(installation.swiftc, path: environment["PATH"]) ?? installation.swiftc
        guard FilePath.exists(recorded) else {
            findings.insert(DoctorFinding(.toolchain, "swiftc", .error, "the compiler lanes was built with, \(recorded), is gone",
                                          fix: "reinstall that Swift toolchain, or \(reinstall) with the current one"), at: 0)
            return findings
        }
        if let installed = installation.compilerVersion {
            let now = ToolOutput.compilerVersion(of: recorded)
            if now != installed {
                let what = "\(recorded) says \(now.map { "'\($0)'" } ?? "nothing about its version"), but lanes was installed with '\(installed)'"
                findings.insert(HostPlatform.isMacOS
                    ? DoctorFinding(.toolchain, "swiftc", .warning,
                                    "\(what): Lanefiles compile against lanes' .swiftinterface files, so the first compile after the change is slower",
                                    fix: reinstall)
                    : DoctorFinding(.toolchain, "swiftc", .error,
                                    "\(what): Linux has no stable Swift ABI, so Lanefiles cannot link the libLanes that compiler built",
                                    fix: "\(reinstall) with this toolchain, or install the one it was built with again"), at: 0)
                return findings
            }
        }
        if let onPath = FilePath.which("swiftc", path: environment["PATH"]),
           FilePath.realPath(onPath) != FilePath.realPath(recorded), !HostPlatform.isMacOS || !onPath.hasPrefix("/usr/bin/") {
            // (On macOS /usr/bin/swiftc is xcrun's shim, which runs the recorded compiler when Xcode is the selected one.)
            findings.insert(DoctorFinding(.toolchain, "swiftc", .warning,
                                          "Lanefiles compile with \(recorded) (recorded at install), but PATH's swiftc is \(onPath)",
                                          fix: "\(reinstall) with the toolchain you mean to use, or put \(FilePath.directory(of: recorded)) first on PATH"), at: 0)
            return findings
        }
        findings.insert(DoctorFinding(.toolchain, "swiftc", .ok, recorded + (installation.compilerVersion.map { " (\($0))" } ?? "")), at: 0)
        return findings
    }

    private func git() -> DoctorFinding {
        do {
            let repository = try Repository(discoveringFrom: projectDirectory)
            return DoctorFinding(.toolchain, "libgit2", .ok, "opens \(repository.gitDirectory)")
        } catch {
            return DoctorFinding(.toolchain, "libgit2", .warning, "cannot open a repository at \(projectDirectory): \(error)",
                                 fix: "run lanes inside a git checkout; version numbers and poll-SCM triggers need one")
        }
    }
}

/// The doctor's secrets check: every variable and secret a lane declares is set. Names only.
public enum SecretsCheckup {
    /// `declared` maps each lane to its variables and secrets.
    public static func findings(declared: [(lane: String, variables: [String], secrets: [String])],
                                variables: [String: String]) -> [DoctorFinding] {
        var missing: [String: [String]] = [:]
        var all: [String: Bool] = [:]
        for entry in declared {
            for name in entry.variables + entry.secrets {
                all[name, default: false] = all[name, default: false] || entry.secrets.contains(name)
                if (variables[name] ?? "").isEmpty { missing[name, default: []].append(entry.lane) }
            }
        }
        return all.keys.sorted().map { name in
            let kind = all[name] == true ? "secret" : "variable"
            if let lanes = missing[name] {
                return DoctorFinding(.secrets, name, .error, "\(kind) \(name) is not set (needed by \(lanes.joined(separator: ", ")))",
                                     fix: "export \(name), or add it to a .env file and pass --env NAME")
            }
            return DoctorFinding(.secrets, name, .ok, "\(kind) is set")
        }
    }
}

/// The programs lanes declare with `tools:`: each must be on PATH, as the lane checks before its first step.
public enum LaneToolsCheckup {
    /// `declared` maps each lane to its tools.
    public static func findings(declared: [(lane: String, tools: [String])], environment: [String: String]) -> [DoctorFinding] {
        var users: [String: [String]] = [:]
        for entry in declared {
            for tool in entry.tools { users[tool, default: []].append(entry.lane) }
        }
        return users.keys.sorted().map { tool in
            if let path = FilePath.which(tool, path: environment["PATH"]) {
                return DoctorFinding(.toolchain, tool, .ok, "found at \(path)")
            }
            return DoctorFinding(.toolchain, tool, .error, "\(tool) is not on PATH (needed by \(users[tool]!.joined(separator: ", ")))",
                                 fix: "install \(tool), or add its folder to PATH")
        }
    }
}
