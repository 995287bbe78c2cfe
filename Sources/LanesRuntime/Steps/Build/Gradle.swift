import LanesBuild
internal import Foundation
internal import LanesPlatform

/// `gradle`: an Android (or any Gradle) task through the project's Gradle wrapper, as fastlane's
/// `gradle` action runs it; returns the APK and AAB files the run wrote under `build/outputs`.
public struct Gradle: Step {
    public typealias Output = GradleResult

    public static let definition = StepDefinition(
        id: "gradle",
        summary: "Run a Gradle task (task + Flavor + BuildType) with ./gradlew; returns the APKs and AABs it wrote",
        category: .build,
        examples: [StepExample(swift: #"try await gradle(task: "assemble", flavor: "Prod", buildType: "Release", properties: ["versionCode=12"])"#,
                               commandLine: ["task:assemble", "flavor:Prod", "build_type:Release", "properties:versionCode=12"])],
        // fastlane's `build_android_app`; `assemble` and `bundle` read as the task they run (`bundle(task: "bundle", buildType: "Release")`).
        aliases: ["build_android_app", "assemble", "bundle"]
    )

    @StepOption("task", "The task (assemble, bundle, test); flavor and build type are appended capitalised", env: "FL_GRADLE_TASK")
    var task: String?
    @StepOption("flavor", "The product flavor, joined to task and build_type as written (Prod makes assembleProdRelease)", env: "FL_GRADLE_FLAVOR")
    var flavor: String?
    @StepOption("build_type", "The build type (Release, Debug)", env: "FL_GRADLE_BUILD_TYPE")
    var buildType: String?
    @StepOption("tasks", "Several tasks, run when task, flavor and build_type are all absent", default: [])
    var tasks: [String]
    @StepOption("flags", "More Gradle arguments, split on spaces (--stacktrace --info)")
    var flags: String?
    @StepOption("project_dir", "The Gradle project's root folder", env: "FL_GRADLE_PROJECT_DIR", default: ".")
    var projectDir: String
    @StepOption("gradle_path", "The Gradle program; relative to project_dir (default ./gradlew)", env: "FL_GRADLE_PATH")
    var gradlePath: String?
    @StepOption("properties", "Project properties as name=value (-Pname=value); secret-looking ones go through ORG_GRADLE_PROJECT_name instead", default: [])
    var properties: [String]
    @StepOption("system_properties", "JVM system properties as name=value (-Dname=value)", default: [])
    var systemProperties: [String]
    @StepOption("serial", "The Android device serial (ANDROID_SERIAL) for connected tasks", env: "FL_ANDROID_SERIAL")
    var serial: String?

    public init() {}

    public var banner: String {
        "Gradle " + GradleCommand.taskNames(task: task, flavor: flavor, buildType: buildType, tasks: tasks).joined(separator: " ")
    }

    public func run(in context: StepContext) async throws -> GradleResult {
        let project = context.resolve(projectDir)
        let program = GradleCommand.programPath(gradlePath, projectDirectory: project)
        guard FilePath.exists(program) else {
            throw LanesError(.environment, "gradle: no Gradle program at \(program)",
                             hint: "run it in the folder holding gradlew, or give project_dir or gradle_path (FL_GRADLE_PATH)")
        }
        let names = SecretNames(variables: context.environment.variables), redactor = context.environment.redactor
        let command = try GradleCommand(
            program: program, projectDirectory: project,
            tasks: GradleCommand.taskNames(task: task, flavor: flavor, buildType: buildType, tasks: tasks),
            properties: properties, systemProperties: systemProperties, flags: flags, serial: serial,
            isSecret: { name, value in names.isSecret(name) || redactor.containsSecret(value) })
        for (name, value) in command.environment where name.hasPrefix(GradleCommand.propertyVariablePrefix) {
            redactor.register(value)
        }
        let started = Date()
        try await context.runTool(command.arguments, label: "gradle", tool: "gradle \(command.taskNames.joined(separator: " "))",
                                  environment: command.environment, workingDirectory: project)
        // Two seconds of slack: some file systems keep modification times in whole seconds.
        let result = GradleResult.outputs(under: project, since: started.addingTimeInterval(-2))
        // upload_to_play_store and sign_apk default to what the lane built last.
        if !result.apkPaths.isEmpty || !result.aabPaths.isEmpty { context.values[LaneAndroidBuild.self] = result }
        if result.apkPaths.isEmpty && result.aabPaths.isEmpty,
           command.taskNames.contains(where: { $0.hasPrefix("assemble") || $0.hasPrefix("bundle") }) {
            context.log.line("no new .apk or .aab under \(project)/**/build/outputs")
        }
        return result
    }
}

/// The Gradle command line, composed as fastlane composes it; secret properties stay out of it.
struct GradleCommand: Equatable {
    static let propertyVariablePrefix = "ORG_GRADLE_PROJECT_"

    let arguments: [String]
    /// ORG_GRADLE_PROJECT_<name> for secret properties (Gradle reads them as project properties), ANDROID_SERIAL.
    let environment: [String: String]
    let taskNames: [String]

    /// fastlane joins task, flavor and build type as written (gradle.rb: `[task, flavor, build_type].join`):
    /// `assemble` + `prod` + `release` = `assembleprodrelease`, which Gradle matches to `assembleProdRelease`
    /// ignoring case; `tasks` only when all three are absent.
    static func taskNames(task: String?, flavor: String?, buildType: String?, tasks: [String]) -> [String] {
        let joined = (task ?? "") + (flavor ?? "") + (buildType ?? "")
        return joined.isEmpty ? tasks : [joined]
    }

    /// An absolute gradle_path as given; a relative one inside the project folder.
    static func programPath(_ given: String?, projectDirectory: String) -> String {
        let path = given ?? "./gradlew"
        return path.hasPrefix("/") ? path : projectDirectory + "/" + path
    }

    init(program: String, projectDirectory: String, tasks: [String], properties: [String], systemProperties: [String],
         flags: String?, serial: String?, isSecret: (String, String) -> Bool) throws {
        guard !tasks.isEmpty else {
            throw LanesError(.usage, "gradle: give task (with flavor and build_type) or tasks", hint: "task:assemble build_type:Release")
        }
        var arguments = [program, "-p", projectDirectory]
        var environment: [String: String] = [:]
        for entry in properties {
            let (name, value) = try Self.split(entry, option: "properties")
            if isSecret(name, value) {
                environment[Self.propertyVariablePrefix + name] = value
            } else {
                arguments.append("-P\(name)=\(value)")
            }
        }
        for entry in systemProperties {
            let (name, value) = try Self.split(entry, option: "system_properties")
            arguments.append("-D\(name)=\(value)")
        }
        arguments += (flags ?? "").split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        arguments += tasks
        if let serial, !serial.isEmpty { environment["ANDROID_SERIAL"] = serial }
        self.arguments = arguments
        self.environment = environment
        self.taskNames = tasks
    }

    private static func split(_ entry: String, option: String) throws -> (String, String) {
        guard let equals = entry.firstIndex(of: "="), equals != entry.startIndex else {
            // The entry is not echoed whole: it may be a secret.
            throw LanesError(.usage, "gradle: option '\(option)' takes name=value entries", hint: "\(option):versionCode=12")
        }
        return (String(entry[..<equals]), String(entry[entry.index(after: equals)...]))
    }
}

/// What a Gradle run built: fastlane's GRADLE_*_OUTPUT_PATH values.
public struct GradleResult: Sendable, ReportableResult {
    /// Every new .apk (unaligned ones left out), oldest first: GRADLE_ALL_APK_OUTPUT_PATHS.
    public let apkPaths: [String]
    /// Every new .aab, oldest first: GRADLE_ALL_AAB_OUTPUT_PATHS.
    public let aabPaths: [String]

    /// The newest APK: GRADLE_APK_OUTPUT_PATH.
    public var apkPath: String? { apkPaths.last }
    /// The newest AAB: GRADLE_AAB_OUTPUT_PATH.
    public var aabPath: String? { aabPaths.last }

    public var report: StepResultReport {
        StepResultReport(lines: apkPaths.map { "apk: \($0)" } + aabPaths.map { "aab: \($0)" },
                         json: .object([("apk", apkPath.map(JSONValue.string) ?? .null), ("aab", aabPath.map(JSONValue.string) ?? .null),
                                        ("apks", .array(apkPaths.map(JSONValue.string))), ("aabs", .array(aabPaths.map(JSONValue.string)))]))
    }

    /// The .apk and .aab files under any `build/outputs` below `project` modified at or after `since`.
    static func outputs(under project: String, since: Date) -> GradleResult {
        var found: [(path: String, kind: String, modified: Date)] = []
        let files = FileManager.default
        guard let walker = files.enumerator(atPath: project) else { return GradleResult(apkPaths: [], aabPaths: []) }
        while let relative = walker.nextObject() as? String {
            let kind = relative.hasSuffix(".apk") ? "apk" : relative.hasSuffix(".aab") ? "aab" : ""
            guard !kind.isEmpty, relative.contains("build/outputs/"), !relative.lowercased().hasSuffix("-unaligned.apk") else { continue }
            let path = project + "/" + relative
            guard let modified = (try? files.attributesOfItem(atPath: path))?[.modificationDate] as? Date, modified >= since else { continue }
            found.append((path, kind, modified))
        }
        let ordered = found.sorted { ($0.modified, $0.path) < ($1.modified, $1.path) }
        return GradleResult(apkPaths: ordered.filter { $0.kind == "apk" }.map(\.path),
                            aabPaths: ordered.filter { $0.kind == "aab" }.map(\.path))
    }
}
