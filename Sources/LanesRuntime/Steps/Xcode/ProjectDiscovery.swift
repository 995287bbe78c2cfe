import LanesBuild
internal import LanesPlatform

/// How fastlane finds the Xcode project a step works on when the Fastfile does not say, in the
/// Lanefile's folder (where fastlane runs its actions): gym and scan take the one `.xcworkspace`,
/// else the one `.xcodeproj` (fastlane_core's `Project.detect_projects`); agvtool, behind the
/// version actions, the one `.xcodeproj` of its folder; update_code_signing_settings
/// `Dir['*.xcodeproj']`. One candidate is used; several are an error that lists them (fastlane
/// would ask, which a lane cannot); none is an error that says what to pass.
enum ProjectDiscovery {
    /// The entries of `folder` ending in `suffix`, sorted, as paths relative to the Lanefile's folder.
    static func candidates(_ suffix: String, in folder: String, context: StepContext) -> [String] {
        let absolute = context.resolve(folder)
        let prefix = folder == "." ? "" : (folder.hasSuffix("/") ? folder : folder + "/")
        return FilePath.entries(of: absolute).filter { $0.hasSuffix(suffix) && FilePath.isDirectory(absolute + "/" + $0) }
            .sorted().map { prefix + $0 }
    }

    /// The workspace or project gym and scan build: the given one, else the folder's one workspace,
    /// else its one project.
    static func container(workspace: String?, project: String?, in context: StepContext, step: String) throws -> XcodeContainer {
        switch (workspace, project) {
        case (let workspace?, nil): return .workspace(context.resolve(workspace))
        case (nil, let project?): return .project(context.resolve(project))
        case (_?, _?): throw LanesError(.usage, "\(step): give workspace or project, not both")
        case (nil, nil): break
        }
        let workspaces = candidates(".xcworkspace", in: ".", context: context)
        if let only = try single(workspaces, kind: "workspace", option: "workspace", step: step) {
            context.log.line("using \(only) (the only workspace in \(context.projectDirectory))")
            return .workspace(context.resolve(only))
        }
        let projects = candidates(".xcodeproj", in: ".", context: context)
        if let only = try single(projects, kind: "project", option: "project", step: step) {
            context.log.line("using \(only) (the only project in \(context.projectDirectory))")
            return .project(context.resolve(only))
        }
        throw LanesError(.configuration, "\(step): no .xcworkspace or .xcodeproj in \(context.projectDirectory)",
                         hint: "pass workspace: or project:, relative to the Lanefile's folder")
    }

    /// Whether the Lanefile's folder holds an Xcode workspace or project (scan never falls back to
    /// `swift test` then).
    static func hasXcodeContainer(in context: StepContext) -> Bool {
        !candidates(".xcworkspace", in: ".", context: context).isEmpty || !candidates(".xcodeproj", in: ".", context: context).isEmpty
    }

    /// The `.xcodeproj` a project-editing step works on: the given path (a `.xcodeproj`, its
    /// `project.pbxproj`, or a folder holding one, as get_version_number takes it), else the one in
    /// the Lanefile's folder.
    static func xcodeproj(_ given: String?, in context: StepContext, step: String) throws -> String {
        var folder = "."
        if let given {
            let trimmed = given.hasSuffix("/") ? String(given.dropLast()) : given
            guard !trimmed.hasSuffix(".xcodeproj"), !trimmed.hasSuffix(".pbxproj"), FilePath.isDirectory(context.resolve(trimmed)) else {
                return given
            }
            folder = trimmed
        }
        let projects = candidates(".xcodeproj", in: folder, context: context)
        guard let only = try single(projects, kind: "project", option: "xcodeproj", step: step) else {
            throw LanesError(.configuration, "\(step): no .xcodeproj in \(context.resolve(folder))",
                             hint: "pass xcodeproj:, relative to the Lanefile's folder")
        }
        return only
    }

    private static func single(_ found: [String], kind: String, option: String, step: String) throws -> String? {
        guard found.count <= 1 else {
            throw LanesError(.configuration, "\(step): \(found.count) \(kind)s found: \(found.joined(separator: ", "))",
                             hint: "say which with \(option):\(found[0])")
        }
        return found.first
    }
}
