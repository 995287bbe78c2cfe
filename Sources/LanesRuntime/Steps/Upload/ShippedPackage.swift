import LanesBuild
internal import LanesPlatform

/// The package pilot and deliver upload, as fastlane's actions find it: the `ipa` or `pkg` given,
/// else the one build_app made in this lane (`lane_context[IPA_OUTPUT_PATH]`, `PKG_OUTPUT_PATH`);
/// its platform the one given, else the .ipa's `DTPlatformName` (pilot's `fetch_app_platform`),
/// `osx` for a .pkg; its version, build number and bundle identifier read from the .ipa when the
/// lane does not say (deliver's and pilot's `IpaFileAnalyser`).
struct ShippedPackage {
    let path: String
    let platform: String
    let version: String?
    let build: String?
    let bundleIdentifier: String?

    /// nil when nothing was given and nothing built.
    static func find(ipa: String?, pkg: String?, platform: String?, step: String, context: StepContext) throws -> ShippedPackage? {
        if ipa != nil && pkg != nil { throw LanesError(.usage, "\(step): give ipa or pkg, not both") }
        let built = context.values[BuiltAppValue.self]
        if let ipa {
            let path = context.resolve(ipa)
            if built?.path == path, let built { return from(built, platform: platform) }
            guard FilePath.exists(path) else { throw LanesError(.configuration, "\(step): ipa \(path) does not exist") }
            // An .ipa lanes cannot read is still uploaded when the lane says what it holds.
            let inspection = try? IPAInspector.inspect(path: path)
            return ShippedPackage(path: path, platform: platform ?? inspection?.platformName.map(BuildApp.appStorePlatform(ofPlatformName:)) ?? "ios",
                                  version: inspection?.version, build: inspection?.build, bundleIdentifier: inspection?.bundleIdentifier)
        }
        if let pkg {
            let path = context.resolve(pkg)
            if built?.path == path, let built { return from(built, platform: platform ?? "osx") }
            guard FilePath.exists(path) else { throw LanesError(.configuration, "\(step): pkg \(path) does not exist") }
            return ShippedPackage(path: path, platform: platform ?? "osx", version: nil, build: nil, bundleIdentifier: nil)
        }
        guard let built, built.path != nil, built.kind == "ipa" || built.kind == "pkg" else { return nil }
        return from(built, platform: platform)
    }

    private static func from(_ built: BuiltApp, platform: String?) -> ShippedPackage {
        ShippedPackage(path: built.path ?? "", platform: platform ?? built.platform ?? (built.kind == "pkg" ? "osx" : "ios"),
                       version: built.version, build: built.build, bundleIdentifier: built.bundleIdentifier)
    }
}
