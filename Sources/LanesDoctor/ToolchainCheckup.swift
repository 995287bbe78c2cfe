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
        var findings: [DoctorFinding] = [compiler()]
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

    private func compiler() -> DoctorFinding {
        let installation: Installation
        do { installation = try Installation.locate(environment: environment) } catch {
            return DoctorFinding(.toolchain, "swiftc", .error, "\(error)", fix: "reinstall lanes with `make install`")
        }
        // A build folder records the name `swiftc`, an installation its absolute path.
        let recorded = installation.swiftc.hasPrefix("/")
            ? installation.swiftc : FilePath.which(installation.swiftc, path: environment["PATH"]) ?? installation.swiftc
        guard FilePath.exists(recorded) else {
            return DoctorFinding(.toolchain, "swiftc", .error, "the compiler lanes was built with, \(recorded), is gone",
                                 fix: "reinstall that Swift toolchain, or rebuild and reinstall lanes with the current one")
        }
        if let onPath = FilePath.which("swiftc", path: environment["PATH"]),
           FilePath.realPath(onPath) != FilePath.realPath(recorded) {
            return DoctorFinding(.toolchain, "swiftc", .warning,
                                 "Lanefiles compile with \(recorded) (recorded at install), but PATH's swiftc is \(onPath)",
                                 fix: "rebuild and reinstall lanes with the toolchain you mean to use, or put \(FilePath.directory(of: recorded)) first on PATH")
        }
        return DoctorFinding(.toolchain, "swiftc", .ok, recorded)
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
