/// A command to start: argv (program first) and the folder to start it in. Steps hand it to
/// `ProcessRunning`; nothing here starts a process.
public struct ToolInvocation: Sendable, Equatable {
    public var arguments: [String]
    public var workingDirectory: String?

    public init(_ arguments: [String], workingDirectory: String? = nil) {
        self.arguments = arguments
        self.workingDirectory = workingDirectory
    }
}

/// SwiftPM command lines, run in the package's folder.
public enum SwiftPackageCommand {
    /// `swift build -c CONFIGURATION --product PRODUCT` (with `--scratch-path` when the build folder
    /// must live elsewhere than the package's `.build`).
    public static func build(product: String, configuration: String = "release", packagePath: String,
                             scratchPath: String? = nil) -> ToolInvocation {
        ToolInvocation(["swift", "build", "-c", configuration, "--product", product] + scratch(scratchPath),
                       workingDirectory: packagePath)
    }

    /// `swift build -c CONFIGURATION --show-bin-path`: prints the folder the products land in.
    public static func showBinPath(configuration: String = "release", packagePath: String,
                                   scratchPath: String? = nil) -> ToolInvocation {
        ToolInvocation(["swift", "build", "-c", configuration, "--show-bin-path"] + scratch(scratchPath),
                       workingDirectory: packagePath)
    }

    private static func scratch(_ path: String?) -> [String] { path.map { ["--scratch-path", $0] } ?? [] }

    /// `swift package resolve`.
    public static func resolve(packagePath: String) -> ToolInvocation {
        ToolInvocation(["swift", "package", "resolve"], workingDirectory: packagePath)
    }

    /// `swift test` (optionally `--filter FILTER`), whose output `TestOutputParser` reads.
    public static func test(packagePath: String, filter: String? = nil) -> ToolInvocation {
        ToolInvocation(["swift", "test"] + (filter.map { ["--filter", $0] } ?? []), workingDirectory: packagePath)
    }
}

/// CocoaPods' `pod install`, or why it is skipped.
public enum CocoaPodsPlan: Sendable, Equatable {
    case install(ToolInvocation)
    case skip(reason: String)

    /// `pod install`, with `--deployment` when a Podfile.lock exists (so the lock is obeyed, never
    /// rewritten); skipped when the folder has no Podfile.
    public static func decide(projectDirectory: String, podfileExists: Bool, lockfileExists: Bool,
                              repoUpdate: Bool = false) -> CocoaPodsPlan {
        guard podfileExists else {
            return .skip(reason: "no Podfile in \(projectDirectory); nothing for CocoaPods to install")
        }
        var arguments = ["pod", "install"]
        if lockfileExists { arguments.append("--deployment") }
        if repoUpdate { arguments.append("--repo-update") }
        return .install(ToolInvocation(arguments, workingDirectory: projectDirectory))
    }
}
