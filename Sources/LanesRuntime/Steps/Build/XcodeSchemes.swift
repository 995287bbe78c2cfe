import LanesBuild
import LanesXcode
#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import LanesPlatform

/// The shared schemes of a workspace or project, listed as fastlane_core's `Project#schemes` lists
/// them (through the Xcodeproj gem): a project's `xcshareddata/xcschemes/*.xcscheme`, or its own
/// name when it shares none; a workspace's own shared schemes and those of the projects it
/// references, without the Pods project's unless `FASTLANE_INCLUDE_PODS_PROJECT_SCHEMES` is set.
struct XcodeSchemes {
    struct Scheme: Equatable {
        let name: String
        /// The `.xcodeproj` the scheme's first buildable reference points into (nil when unknown).
        let project: String?
        /// The target the scheme builds first (its first `BuildableReference`'s `BlueprintName`).
        let target: String?
    }

    let schemes: [Scheme]

    init(_ container: XcodeContainer, environment: Environment) {
        switch container {
        case .project(let path):
            schemes = Self.projectSchemes(path)
        case .workspace(let path):
            let includePods = ["1", "true", "yes", "on"].contains((environment["FASTLANE_INCLUDE_PODS_PROJECT_SCHEMES"] ?? "").lowercased())
            var found = Self.sharedSchemes(in: path, containerFolder: FilePath.directory(of: path))
            for project in Self.projects(of: path) where includePods || !project.hasSuffix("Pods/Pods.xcodeproj") {
                found += Self.projectSchemes(project)
            }
            schemes = found
        }
    }

    var names: [String] { schemes.map(\.name) }

    /// gym's and scan's `select_scheme`: the given scheme, else the only one, else (with
    /// `AUTOMATED_SCHEME_SELECTION`) the one named like the project; several are an error that
    /// lists them (fastlane asks, or fails on CI), none an error that says to share one.
    func select(_ given: String?, container: XcodeContainer, environment: Environment, step: String, log: StepLog) throws -> String {
        if let given { return given }
        let unique = names.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        if unique.count == 1 {
            log.line("using scheme \(unique[0]) (the only shared scheme)")
            return unique[0]
        }
        guard !unique.isEmpty else {
            throw LanesError(.configuration, "\(step): no shared scheme in \(container.path)",
                             hint: "share the scheme in Xcode (Manage Schemes, Shared) and commit xcshareddata, or pass scheme:")
        }
        let projectName = FilePath.name(of: container.path).split(separator: ".").dropLast().joined(separator: ".")
        if ["1", "true", "yes", "on"].contains((environment["AUTOMATED_SCHEME_SELECTION"] ?? "").lowercased()), unique.contains(projectName) {
            log.line("using scheme \(projectName) (named like the project; AUTOMATED_SCHEME_SELECTION)")
            return projectName
        }
        throw LanesError(.configuration, "\(step): \(unique.count) schemes in \(container.path): \(unique.joined(separator: ", "))",
                         hint: "say which with scheme:\(unique[0])")
    }

    func scheme(named name: String) -> Scheme? { schemes.first { $0.name == name } }

    /// `X.xcodeproj`'s shared schemes, or a scheme named like the project when it shares none.
    static func projectSchemes(_ project: String) -> [Scheme] {
        let shared = sharedSchemes(in: project, containerFolder: FilePath.directory(of: project))
        guard shared.isEmpty else { return shared }
        let name = String(FilePath.name(of: project).dropLast(".xcodeproj".count))
        return [Scheme(name: name, project: project, target: nil)]
    }

    static func sharedSchemes(in container: String, containerFolder: String) -> [Scheme] {
        let folder = container + "/xcshareddata/xcschemes"
        return FilePath.entries(of: folder).filter { $0.hasSuffix(".xcscheme") }.sorted().map { file in
            let name = String(file.dropLast(".xcscheme".count))
            let text = (try? FilePath.read(folder + "/" + file)) ?? ""
            let reference = firstBuildableReference(text)
            let project = reference?["ReferencedContainer"].flatMap { value -> String? in
                guard value.hasPrefix("container:") else { return nil }
                return containerFolder + "/" + value.dropFirst("container:".count)
            }
            return Scheme(name: name, project: project, target: reference?["BlueprintName"])
        }
    }

    /// The attributes of the first `<BuildableReference ...>` (the build action's first entry, an
    /// app before its tests in the schemes Xcode writes).
    static func firstBuildableReference(_ xml: String) -> [String: String]? {
        guard let start = xml.range(of: "<BuildableReference"), let end = xml[start.upperBound...].firstIndex(of: ">") else { return nil }
        return attributes(String(xml[start.upperBound..<end]))
    }

    /// The projects a workspace's `contents.xcworkspacedata` references (`group:`, `container:`,
    /// `absolute:` and `self:` locations; groups' own locations prefix their members').
    static func projects(of workspace: String) -> [String] {
        guard let text = try? FilePath.read(workspace + "/contents.xcworkspacedata") else { return [] }
        let base = FilePath.directory(of: workspace)
        var result: [String] = []
        var groups: [String] = []
        var cursor = text.startIndex
        while let open = text[cursor...].firstIndex(of: "<"), let close = text[open...].firstIndex(of: ">") {
            let tag = String(text[text.index(after: open)..<close])
            cursor = text.index(after: close)
            if tag.hasPrefix("/Group") { _ = groups.popLast(); continue }
            let isGroup = tag.hasPrefix("Group"), isFile = tag.hasPrefix("FileRef")
            guard isGroup || isFile, let location = attributes(tag)["location"] else { continue }
            let parent = groups.last ?? base
            let path: String
            if location.hasPrefix("group:") { path = parent + "/" + location.dropFirst("group:".count) }
            else if location.hasPrefix("container:") { path = base + "/" + location.dropFirst("container:".count) }
            else if location.hasPrefix("absolute:") { path = String(location.dropFirst("absolute:".count)) }
            else if location.hasPrefix("self:") { path = FilePath.directory(of: workspace) }
            else { path = parent }
            if isGroup && !tag.hasSuffix("/") { groups.append(path) }
            if isFile && path.hasSuffix(".xcodeproj") { result.append(path) }
        }
        return result
    }

    static func attributes(_ tag: String) -> [String: String] {
        var result: [String: String] = [:]
        let pattern = /([A-Za-z]+)\s*=\s*"([^"]*)"/
        for match in tag.matches(of: pattern) {
            result[String(match.1)] = String(match.2).replacingOccurrences(of: "&amp;", with: "&")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
        }
        return result
    }
}

/// The platform a scheme builds for, read from its target's `SDKROOT`/`SUPPORTED_PLATFORMS` in
/// project.pbxproj (fastlane reads `SUPPORTED_PLATFORMS` from `xcodebuild -showBuildSettings`,
/// which a lane cannot run before building): gym's `detect_platform` order, tvOS, visionOS, iOS,
/// then macOS; iOS when nothing says.
struct SchemePlatform: Equatable {
    enum Platform: String { case iOS, macOS, tvOS, visionOS, watchOS }

    var platform: Platform
    /// `SUPPORTS_MACCATALYST = YES`: build_mac_app archives the Mac Catalyst variant.
    var supportsMacCatalyst: Bool
    /// The deployment target of the platform (`IPHONEOS_DEPLOYMENT_TARGET`...), when set.
    var deploymentTarget: String?

    static let unknown = SchemePlatform(platform: .iOS, supportsMacCatalyst: false, deploymentTarget: nil)

    /// The platform of `scheme`'s target in `project` (else of the target named like the scheme,
    /// else of the first application target).
    static func detect(scheme: XcodeSchemes.Scheme?, schemeName: String, fallbackProject: String?) -> SchemePlatform {
        guard let projectPath = scheme?.project ?? fallbackProject,
              let bytes = try? FilePath.readBytes(projectPath + "/project.pbxproj"),
              let project = try? XcodeProject(bytes: bytes, path: projectPath + "/project.pbxproj") else { return .unknown }
        let wanted = scheme?.target ?? schemeName
        let target = project.targets.first { $0.name == wanted }
            ?? project.targets.first { $0.productType == "com.apple.product-type.application" }
            ?? project.targets.first
        var settings: [String: String] = [:]
        for configuration in (try? project.projectConfigurations()) ?? [] where configuration.name == "Release" || settings.isEmpty {
            for (key, value) in configuration.settings { if case .string(let text) = value { settings[key] = text } }
        }
        if let target, let configurations = try? project.configurations(of: target) {
            let release = configurations.first { $0.name == "Release" } ?? configurations.first
            for (key, value) in release?.settings ?? [:] { if case .string(let text) = value { settings[key] = text } }
        }
        let supported = (settings["SUPPORTED_PLATFORMS"] ?? settings["SDKROOT"] ?? "").split(separator: " ").map(String.init)
        let platforms = Set(supported.compactMap { name -> Platform? in
            switch name {
            case "macosx": .macOS
            case "iphoneos", "iphonesimulator": .iOS
            case "appletvos", "appletvsimulator": .tvOS
            case "xros", "xrsimulator": .visionOS
            case "watchos", "watchsimulator": .watchOS
            default: nil
            }
        })
        let platform: Platform = platforms.contains(.tvOS) ? .tvOS : platforms.contains(.visionOS) ? .visionOS
            : platforms.contains(.iOS) ? .iOS : platforms.contains(.macOS) ? .macOS : platforms.contains(.watchOS) ? .watchOS : .iOS
        let deploymentKey = switch platform {
        case .iOS: "IPHONEOS_DEPLOYMENT_TARGET"
        case .macOS: "MACOSX_DEPLOYMENT_TARGET"
        case .tvOS: "TVOS_DEPLOYMENT_TARGET"
        case .visionOS: "XROS_DEPLOYMENT_TARGET"
        case .watchOS: "WATCHOS_DEPLOYMENT_TARGET"
        }
        return SchemePlatform(platform: platform, supportsMacCatalyst: settings["SUPPORTS_MACCATALYST"] == "YES",
                              deploymentTarget: settings[deploymentKey])
    }

    /// The platform App Store Connect and pilot name it by (`ios`, `osx`, `appletvos`, `xros`).
    var appStorePlatform: String {
        switch platform {
        case .iOS, .watchOS: "ios"
        case .macOS: "osx"
        case .tvOS: "appletvos"
        case .visionOS: "xros"
        }
    }
}

extension XcodeContainer {
    var path: String {
        switch self {
        case .workspace(let path), .project(let path): path
        }
    }

    /// The project a scheme lives in when the container is a project.
    var projectPath: String? {
        if case .project(let path) = self { return path }
        return nil
    }
}
