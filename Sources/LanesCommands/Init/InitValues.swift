import LanesPlatform

/// The values `lanes init` fills its templates with: from the Xcode project when the folder has one,
/// else from the folder's name and `--app-id`. Everything that lands in Swift source is a valid
/// identifier or an escaped string literal, so the generated Lanefile compiles whatever the names are.
struct InitValues: Equatable {
    var appTarget: String
    var project: String
    var workspace: String?
    var scheme: String
    var schemes: [String]
    var configurations: [String]
    var stagingConfiguration: String
    var productionConfiguration: String
    var stagingAppIdentifier: String
    var productionAppIdentifier: String

    init(survey: XcodeProjectSurvey, appIdentifier: String?) {
        appTarget = survey.appTarget
        project = survey.project
        workspace = survey.workspace
        scheme = survey.appScheme
        schemes = survey.schemes
        configurations = survey.configurations
        stagingConfiguration = survey.stagingConfiguration
        productionConfiguration = survey.productionConfiguration
        let fallback = appIdentifier ?? "com.example.\(Self.identifier(survey.appTarget).lowercased())"
        productionAppIdentifier = appIdentifier ?? survey.bundleIdentifiers[productionConfiguration] ?? fallback
        stagingAppIdentifier = survey.bundleIdentifiers[stagingConfiguration]
            ?? (stagingConfiguration == productionConfiguration ? productionAppIdentifier : productionAppIdentifier + ".staging")
    }

    /// A folder without an Xcode project: names from the folder (or `--name`) and `--app-id`.
    init(name: String, appIdentifier: String?) {
        let target = Self.identifier(name).isEmpty ? "App" : Self.identifier(name)
        appTarget = target
        project = "\(target).xcodeproj"
        workspace = nil
        scheme = target
        schemes = []
        configurations = ["Debug", "Staging", "Release"]
        stagingConfiguration = "Staging"
        productionConfiguration = "Release"
        productionAppIdentifier = appIdentifier ?? "com.example.\(target.lowercased())"
        stagingAppIdentifier = productionAppIdentifier + ".staging"
    }

    /// The Swift type name of a configuration: `Release-Staging` → `ReleaseStaging`.
    static func typeName(forConfiguration name: String) -> String {
        let identifier = identifier(name)
        guard let first = identifier.first else { return "Configuration1" }
        return first.isNumber ? "Config" + identifier : first.uppercased() + identifier.dropFirst()
    }

    /// Letters, digits and underscores only.
    static func identifier(_ text: String) -> String {
        String(text.unicodeScalars.filter { ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") && $0.isASCII }
            .map(Character.init))
    }

    /// The inside of a Swift string literal.
    static func literal(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: " ")
    }

    /// What the templates read.
    var templateValues: [String: String] {
        var staging = Self.typeName(forConfiguration: stagingConfiguration)
        var production = Self.typeName(forConfiguration: productionConfiguration)
        if staging == production {
            (staging, production) = ("AdHoc", "AppStore")
        }
        var values = [
            "appTarget": Self.literal(appTarget),
            "appTargetPattern": Self.literal(Self.regexEscaped(appTarget)),
            "project": Self.literal(project),
            "scheme": Self.literal(scheme),
            "schemeList": schemes.isEmpty ? "none shared (Xcode makes one per target)" : schemes.joined(separator: ", "),
            "configurationList": configurations.joined(separator: ", "),
            "stagingType": staging,
            "productionType": production,
            "stagingConfiguration": Self.literal(stagingConfiguration),
            "productionConfiguration": Self.literal(productionConfiguration),
            "stagingAppIdentifier": Self.literal(stagingAppIdentifier),
            "productionAppIdentifier": Self.literal(productionAppIdentifier),
            "lanesVersion": LanesVersion.current,
        ]
        if let workspace { values["workspace"] = workspace }
        return values
    }

    /// A target name as a regular expression that matches only it.
    static func regexEscaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
