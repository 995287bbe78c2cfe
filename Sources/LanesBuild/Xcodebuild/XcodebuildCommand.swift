internal import LanesPlatform

/// The workspace or project that holds a scheme (`-workspace` or `-project`).
public enum XcodeContainer: Sendable, Equatable {
    case workspace(String)
    case project(String)

    var arguments: [String] {
        switch self {
        case .workspace(let path): ["-workspace", path]
        case .project(let path): ["-project", path]
        }
    }
}

/// An App Store Connect API key that lets `-allowProvisioningUpdates` talk to Apple without an
/// Xcode account. Only the key file's path travels in argv, never its contents.
public struct AppStoreConnectKey: Sendable, Equatable {
    public var keyPath: String
    public var keyID: String
    public var issuerID: String

    public init(keyPath: String, keyID: String, issuerID: String) {
        self.keyPath = keyPath
        self.keyID = keyID
        self.issuerID = issuerID
    }
}

/// Whether xcodebuild may create or update profiles and certificates through Apple's servers.
public enum ProvisioningUpdates: Sendable, Equatable {
    case disallowed
    /// `-allowProvisioningUpdates` with the Xcode account signed in on the machine.
    case allowed
    /// `-allowProvisioningUpdates` with `-authenticationKeyPath/-authenticationKeyID/-authenticationKeyIssuerID`.
    case allowedWithKey(AppStoreConnectKey)

    var arguments: [String] {
        switch self {
        case .disallowed: []
        case .allowed: ["-allowProvisioningUpdates"]
        case .allowedWithKey(let key):
            ["-allowProvisioningUpdates",
             "-authenticationKeyPath", key.keyPath,
             "-authenticationKeyID", key.keyID,
             "-authenticationKeyIssuerID", key.issuerID]
        }
    }
}

/// One xcodebuild command line in the order Apple's man page gives (options, then build settings, then
/// actions): `xcodebuild [-workspace W | -project P] -scheme S [-destination D]... [-configuration C]
/// [-sdk SDK] [action ...]`, and `xcodebuild -exportArchive -archivePath A -exportPath E -exportOptionsPlist P`.
public struct XcodebuildCommand: Sendable, Equatable {
    /// The full argv, `xcodebuild` first.
    public let arguments: [String]

    /// `xcodebuild ... archive`: the app built for a generic device of `platform` into `archivePath`.
    public static func archive(_ request: ArchiveRequest) -> XcodebuildCommand {
        building(request, action: "archive")
    }

    /// `xcodebuild ... build`: `archive`'s settings, without an archive (fastlane's `skip_archive`).
    public static func build(_ request: ArchiveRequest) -> XcodebuildCommand {
        building(request, action: "build")
    }

    private static func building(_ request: ArchiveRequest, action: String) -> XcodebuildCommand {
        var arguments = ["xcodebuild"] + request.container.arguments + ["-scheme", request.scheme]
        if let configuration = request.configuration { arguments += ["-configuration", configuration] }
        if let sdk = request.sdk { arguments += ["-sdk", sdk] }
        arguments += ["-destination", request.destination ?? "generic/platform=\(request.platform)"]
        if action == "archive" { arguments += ["-archivePath", request.archivePath] }
        arguments += ["-derivedDataPath", request.derivedDataPath]
        if let resultBundlePath = request.resultBundlePath, action == "archive" { arguments += ["-resultBundlePath", resultBundlePath] }
        arguments += request.provisioningUpdates.arguments
        arguments += request.extraArguments
        arguments += request.buildSettings.map { "\($0.name)=\($0.value)" }
        if request.clean { arguments.append("clean") }
        arguments.append(action)
        return XcodebuildCommand(arguments: arguments)
    }

    /// `xcodebuild -exportArchive -archivePath A -exportPath E -exportOptionsPlist P`.
    public static func exportArchive(archivePath: String, exportPath: String, exportOptionsPlist: String,
                                     provisioningUpdates: ProvisioningUpdates = .disallowed) -> XcodebuildCommand {
        XcodebuildCommand(arguments: ["xcodebuild", "-exportArchive",
                                      "-archivePath", archivePath,
                                      "-exportPath", exportPath,
                                      "-exportOptionsPlist", exportOptionsPlist] + provisioningUpdates.arguments)
    }

    /// `xcodebuild ... -destination 'platform=iOS Simulator,name=D' ... test`, one destination per device.
    public static func test(_ request: TestRequest) -> XcodebuildCommand {
        var arguments = ["xcodebuild"] + request.container.arguments + ["-scheme", request.scheme]
        for destination in request.destinations { arguments += ["-destination", destination.specifier] }
        if let configuration = request.configuration { arguments += ["-configuration", configuration] }
        if let sdk = request.sdk { arguments += ["-sdk", sdk] }
        arguments += ["-derivedDataPath", request.derivedDataPath]
        if let resultBundlePath = request.resultBundlePath { arguments += ["-resultBundlePath", resultBundlePath] }
        if let testPlan = request.testPlan { arguments += ["-testPlan", testPlan] }
        arguments += request.onlyTesting.map { "-only-testing:\($0)" }
        arguments += request.skipTesting.map { "-skip-testing:\($0)" }
        if let codeCoverage = request.codeCoverage { arguments += ["-enableCodeCoverage", codeCoverage ? "YES" : "NO"] }
        if request.retries > 0 { arguments += ["-retry-tests-on-failure", "-test-iterations", String(request.retries + 1)] }
        arguments += request.extraArguments
        arguments += request.buildSettings.map { "\($0.name)=\($0.value)" }
        if request.clean { arguments.append("clean") }
        // scan's actions: `build test` unless skip_build.
        if request.buildBeforeTest && request.phase == .buildAndTest { arguments.append("build") }
        arguments.append(request.phase.action)
        return XcodebuildCommand(arguments: arguments)
    }
}

/// A `NAME=value` build setting passed on the command line (overrides the project for this run).
public struct BuildSettingOverride: Sendable, Equatable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// Where the `.lanes/` folder keeps derived data, archives and result bundles by default.
public enum LanesBuildFolders {
    /// `.lanes/DerivedData` under `root` (the folder that holds the Lanefile).
    public static func derivedData(root: String) -> String { join(root, ".lanes/DerivedData") }
    /// `.lanes/build` under `root`: archives, exports and generated ExportOptions.plist files.
    public static func build(root: String) -> String { join(root, ".lanes/build") }
    /// `.lanes/results` under `root`: xcresult bundles.
    public static func results(root: String) -> String { join(root, ".lanes/results") }
    /// `.lanes/logs` under `root`: raw, redacted logs.
    public static func logs(root: String) -> String { join(root, ".lanes/logs") }

    static func join(_ root: String, _ relative: String) -> String {
        if root.isEmpty || root == "." { return relative }
        return root.hasSuffix("/") ? root + relative : root + "/" + relative
    }
}

/// What `xcodebuild archive` needs.
public struct ArchiveRequest: Sendable, Equatable {
    public var container: XcodeContainer
    public var scheme: String
    public var configuration: String?
    public var sdk: String?
    /// The `generic/platform=` destination: `iOS`, `tvOS`, `watchOS`, `visionOS`, `macOS`.
    public var platform: String
    public var archivePath: String
    public var clean: Bool
    public var derivedDataPath: String
    public var resultBundlePath: String?
    public var provisioningUpdates: ProvisioningUpdates
    public var buildSettings: [BuildSettingOverride]
    /// A `-destination` replacing `generic/platform=PLATFORM`.
    public var destination: String?
    /// More xcodebuild arguments, as given (fastlane's `xcargs`, such as `-skipMacroValidation`).
    public var extraArguments: [String]

    public init(container: XcodeContainer, scheme: String, configuration: String? = nil, sdk: String? = nil,
                platform: String = "iOS", archivePath: String, clean: Bool = false, derivedDataPath: String,
                resultBundlePath: String? = nil, provisioningUpdates: ProvisioningUpdates = .disallowed,
                buildSettings: [BuildSettingOverride] = [], destination: String? = nil, extraArguments: [String] = []) {
        self.destination = destination
        self.extraArguments = extraArguments
        self.container = container
        self.scheme = scheme
        self.configuration = configuration
        self.sdk = sdk
        self.platform = platform
        self.archivePath = archivePath
        self.clean = clean
        self.derivedDataPath = derivedDataPath
        self.resultBundlePath = resultBundlePath
        self.provisioningUpdates = provisioningUpdates
        self.buildSettings = buildSettings
    }
}

/// A `-destination` specifier.
public struct TestDestination: Sendable, Equatable {
    public let specifier: String

    public init(specifier: String) { self.specifier = specifier }

    /// `platform=iOS Simulator,name=NAME` (optionally `,OS=VERSION`).
    public static func simulator(_ name: String, os: String? = nil, platform: String = "iOS Simulator") -> TestDestination {
        TestDestination(specifier: "platform=\(platform),name=\(name)" + (os.map { ",OS=\($0)" } ?? ""))
    }
}

/// What `xcodebuild test` needs.
public struct TestRequest: Sendable, Equatable {
    public var container: XcodeContainer
    public var scheme: String
    public var destinations: [TestDestination]
    public var configuration: String?
    public var sdk: String?
    public var clean: Bool
    public var derivedDataPath: String
    public var resultBundlePath: String?
    public var buildSettings: [BuildSettingOverride]
    /// `-only-testing:` identifiers (`BrewerTests/RecipeTests/testScale`).
    public var onlyTesting: [String] = []
    /// `-skip-testing:` identifiers.
    public var skipTesting: [String] = []
    /// `-enableCodeCoverage YES|NO`; nil leaves the scheme's setting.
    public var codeCoverage: Bool?
    /// Reruns of a failing test (`-retry-tests-on-failure -test-iterations N+1`).
    public var retries = 0
    public var testPlan: String?
    /// More xcodebuild arguments, as given (fastlane's `xcargs`).
    public var extraArguments: [String] = []
    public var phase: TestPhase = .buildAndTest
    /// `build test` rather than `test` (scan runs both unless `skip_build`).
    public var buildBeforeTest = false

    /// `test`, `build-for-testing` or `test-without-building`.
    public enum TestPhase: Sendable, Equatable {
        case buildAndTest, buildForTesting, testWithoutBuilding

        var action: String {
            switch self {
            case .buildAndTest: "test"
            case .buildForTesting: "build-for-testing"
            case .testWithoutBuilding: "test-without-building"
            }
        }
    }

    /// `devices: ["iPhone 15", "iPad Air"]` in a Lanefile maps to `destinations: devices.map { .simulator($0) }`.
    public init(container: XcodeContainer, scheme: String, destinations: [TestDestination],
                configuration: String? = nil, sdk: String? = nil, clean: Bool = false, derivedDataPath: String,
                resultBundlePath: String? = nil, buildSettings: [BuildSettingOverride] = []) {
        self.container = container
        self.scheme = scheme
        self.destinations = destinations
        self.configuration = configuration
        self.sdk = sdk
        self.clean = clean
        self.derivedDataPath = derivedDataPath
        self.resultBundlePath = resultBundlePath
        self.buildSettings = buildSettings
    }
}

/// Finding `xcodebuild` before a step starts, so Linux fails at once with a clear message (tests put
/// a recording stand-in named `xcodebuild` on PATH).
public enum XcodebuildLocator {
    /// The executable `xcodebuild` on `pathVariable` (the lane's PATH).
    public static func locate(pathVariable: String?) throws(BuildError) -> String {
        if let found = FilePath.which("xcodebuild", path: pathVariable) { return found }
        throw .file(path: "xcodebuild",
                    problem: "is not on PATH; building and testing Xcode projects needs Xcode on macOS (on Linux, only a stand-in named xcodebuild on PATH can take its place)")
    }
}
