import Foundation
import Lanes
import LanesPlatform
import LanesXcode

/// What `lanes init` learns from the Xcode project in a folder: the workspace or project, its shared
/// schemes, its configurations, and the app target's bundle identifier per configuration, read with
/// LanesXcode's project reader (never by pattern-matching the file).
struct XcodeProjectSurvey: Equatable {
    /// `Brewer.xcworkspace`, when there is one.
    let workspace: String?
    /// `Brewer.xcodeproj`.
    let project: String
    /// Shared schemes (`xcshareddata/xcschemes/*.xcscheme`) of the workspace and the project.
    let schemes: [String]
    /// The project's build configurations, in the project's order.
    let configurations: [String]
    /// The application target the lanes sign and provision.
    let appTarget: String
    /// The app target's `PRODUCT_BUNDLE_IDENTIFIER` per configuration, where it is a plain value.
    let bundleIdentifiers: [String: String]

    /// The survey of the first `*.xcodeproj` in `directory` (the workspace's name decides between
    /// several), or nil when the folder has none or it has no application target.
    static func survey(directory: String) throws -> XcodeProjectSurvey? {
        let entries = FilePath.entries(of: directory).sorted()
        let workspace = entries.first { $0.hasSuffix(".xcworkspace") }
        let projects = entries.filter { $0.hasSuffix(".xcodeproj") }
        let workspaceStem = workspace.map { String($0.dropLast(".xcworkspace".count)) }
        guard let project = projects.first(where: { $0.dropLast(".xcodeproj".count) == workspaceStem ?? "" }) ?? projects.first else {
            return nil
        }
        let pbxproj = directory + "/" + project + "/project.pbxproj"
        let xcodeProject: XcodeProject
        do {
            xcodeProject = try XcodeProject(bytes: try FilePath.readBytes(pbxproj), path: pbxproj)
        } catch {
            throw LanesError(.configuration, "lanes init cannot read \(pbxproj): \(error)",
                             hint: "pass --name and --app-id to describe the project by hand")
        }
        let applications = xcodeProject.targets.filter { $0.productType == "com.apple.product-type.application" }
        let projectStem = String(project.dropLast(".xcodeproj".count))
        guard let app = applications.first(where: { $0.name == projectStem }) ?? applications.first else { return nil }

        var identifiers: [String: String] = [:]
        for configuration in try xcodeProject.configurations(of: app) {
            let effective = try? xcodeProject.effectiveSettings(of: configuration, projectRoot: directory) { path in
                try? String(contentsOfFile: path, encoding: .utf8)
            }
            let value = configuration.settings["PRODUCT_BUNDLE_IDENTIFIER"].flatMap { setting -> String? in
                if case .string(let text) = setting { return text }
                return nil
            } ?? effective?.first { $0.key == "PRODUCT_BUNDLE_IDENTIFIER" }?.value
            // `$(…)` is resolved by Xcode at build time; a Lanefile needs the literal identifier.
            if let value, !value.contains("$(") { identifiers[configuration.name] = value }
        }
        let schemeFolders = [workspace, project].compactMap { $0 }.map { "\(directory)/\($0)/xcshareddata/xcschemes" }
        let schemes = schemeFolders.flatMap { folder in
            FilePath.entries(of: folder).filter { $0.hasSuffix(".xcscheme") }.map { String($0.dropLast(".xcscheme".count)) }
        }
        return XcodeProjectSurvey(
            workspace: workspace, project: project, schemes: Array(Set(schemes)).sorted(),
            configurations: try xcodeProject.projectConfigurations().map(\.name), appTarget: app.name,
            bundleIdentifiers: identifiers)
    }

    /// The configuration testers' builds use: one named like Staging, Beta, AdHoc or QA, else Release.
    var stagingConfiguration: String {
        let markers = ["staging", "beta", "adhoc", "ad-hoc", "qa", "test"]
        return configurations.first { name in
            name != "Debug" && markers.contains { name.lowercased().contains($0) }
        } ?? productionConfiguration
    }

    /// The App Store configuration: Release, else the last one that is not Debug.
    var productionConfiguration: String {
        configurations.first { $0 == "Release" } ?? configurations.last { $0 != "Debug" } ?? configurations.last ?? "Release"
    }

    /// The scheme that builds the app: a shared one named like the target, else the target's name
    /// (Xcode makes a scheme per target when none is shared).
    var appScheme: String {
        schemes.first { $0 == appTarget } ?? schemes.first ?? appTarget
    }
}
