internal import LanesPlatform

/// Everything `build_app` does, as paths and commands: archive, export with a generated
/// ExportOptions.plist, then the .ipa and zipped dSYMs moved to `outputDirectory`.
/// The step runs `archiveCommand` and `exportCommand` through `ProcessRunning`, writes
/// `exportOptionsPlist()` to `exportOptionsPlistPath` first, and calls `collectOutputs()` last.
public struct BuildAppPlan: Sendable {
    public let container: XcodeContainer
    public let scheme: String
    public let configuration: String?
    public let exportMethod: ArchiveExportMethod
    public let exportOptions: ExportOptions
    public let outputDirectory: String
    /// The .ipa's name in `outputDirectory`.
    public var outputName: String { outputBaseName + BuildProduct.Kind.ipa.fileExtension }
    /// The product's name without extension; the export decides the extension (`Brewer.ipa`, `Brewer.pkg`,
    /// `Brewer.app`). Unless given, gym's default (`detect_values.rb`: the app's `WRAPPER_NAME` without
    /// its suffix): the app the archive holds, which is the product's name, not the scheme's; the scheme's
    /// before there is an archive.
    public var outputBaseName: String { givenBaseName ?? archivedAppName ?? scheme }
    private let givenBaseName: String?
    private var archivedAppName: String? {
        FilePath.entries(of: archivePath + "/Products/Applications").sorted()
            .first { $0.hasSuffix(BuildProduct.Kind.app.fileExtension) }
            .map { String($0.dropLast(BuildProduct.Kind.app.fileExtension.count)) }
    }
    /// An ExportOptions.plist the caller wrote, used as it is instead of a generated one.
    public let exportOptionsPlistFile: String?
    /// More arguments for `xcodebuild -exportArchive` (fastlane's `export_xcargs`).
    public let exportExtraArguments: [String]

    public let archivePath: String
    public let exportPath: String
    public let exportOptionsPlistPath: String
    public let archiveResultBundlePath: String
    public let derivedDataPath: String

    private let archiveRequest: ArchiveRequest
    private let provisioningUpdates: ProvisioningUpdates

    /// `root` is the folder of the Lanefile: `.lanes/` lives there.
    public init(root: String, container: XcodeContainer, scheme: String, configuration: String? = nil,
                sdk: String? = nil, platform: String = "iOS", clean: Bool = false, outputDirectory: String,
                outputName: String? = nil, exportMethod: ArchiveExportMethod, exportOptions: ExportOptions = [:],
                derivedDataPath: String? = nil, provisioningUpdates: ProvisioningUpdates = .disallowed,
                buildSettings: [BuildSettingOverride] = [], destination: String? = nil, extraArguments: [String] = [],
                exportExtraArguments: [String] = [], archivePath: String? = nil, exportOptionsPlistFile: String? = nil,
                resultBundlePath: String? = nil) {
        self.container = container
        self.scheme = scheme
        self.configuration = configuration
        self.exportMethod = exportMethod
        self.exportOptions = exportOptions
        self.outputDirectory = outputDirectory
        givenBaseName = outputName.map { name in
            var name = name
            for suffix in BuildProduct.Kind.allCases.map(\.fileExtension) where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
            return name
        }
        let build = LanesBuildFolders.build(root: root)
        let label = scheme + (configuration.map { "-" + $0 } ?? "")
        self.archivePath = archivePath ?? "\(build)/\(label).xcarchive"
        exportPath = "\(build)/\(label)-export"
        exportOptionsPlistPath = "\(build)/\(label)-ExportOptions.plist"
        self.exportOptionsPlistFile = exportOptionsPlistFile
        self.exportExtraArguments = exportExtraArguments
        archiveResultBundlePath = resultBundlePath ?? "\(LanesBuildFolders.results(root: root))/\(label)-archive.xcresult"
        self.derivedDataPath = derivedDataPath ?? LanesBuildFolders.derivedData(root: root)
        self.provisioningUpdates = provisioningUpdates
        archiveRequest = ArchiveRequest(
            container: container, scheme: scheme, configuration: configuration, sdk: sdk, platform: platform,
            archivePath: self.archivePath, clean: clean, derivedDataPath: self.derivedDataPath,
            resultBundlePath: archiveResultBundlePath, provisioningUpdates: provisioningUpdates,
            buildSettings: buildSettings, destination: destination, extraArguments: extraArguments)
    }

    public var archiveCommand: XcodebuildCommand { .archive(archiveRequest) }

    /// `xcodebuild ... build`: the same settings without an archive (fastlane's `skip_archive`).
    public var buildCommand: XcodebuildCommand { .build(archiveRequest) }

    public var exportCommand: XcodebuildCommand {
        let command = XcodebuildCommand.exportArchive(archivePath: archivePath, exportPath: exportPath,
                                                      exportOptionsPlist: exportOptionsPlistFile ?? exportOptionsPlistPath,
                                                      provisioningUpdates: provisioningUpdates)
        return XcodebuildCommand(arguments: command.arguments + exportExtraArguments)
    }

    /// The plist text; throws naming a bad `exportOptions` key before anything runs.
    public func exportOptionsPlist() throws(BuildError) -> String {
        try exportOptions.plist(method: exportMethod)
    }

    /// What a previous run left and xcodebuild refuses to overwrite (a result bundle), or would mix
    /// with the new run (an old archive or export). The step removes them before archiving.
    public var stalePaths: [String] { [archivePath, exportPath, archiveResultBundlePath] }

    /// Moves the exported product (.ipa; for macOS a .pkg or an .app) to `outputDirectory` under
    /// `outputBaseName` and the extension the export gave it, and zips `archive/dSYMs` next to it as
    /// `NAME.app.dSYM.zip` (nil when the archive has no dSYMs).
    public func collectOutputs() throws(BuildError) -> BuildAppOutputs {
        let products = FilePath.entries(of: exportPath).filter { BuildProduct.Kind(fileName: $0) != nil }.sorted()
        guard products.count == 1, let kind = BuildProduct.Kind(fileName: products[0]) else {
            throw .file(path: exportPath, problem: products.isEmpty
                ? "xcodebuild -exportArchive left no .ipa, .pkg or .app here"
                : "holds \(products.count) products (\(products.joined(separator: ", "))); expected one")
        }
        do { try FilePath.makeDirectories(outputDirectory) } catch {
            throw .file(path: outputDirectory, problem: "cannot create the output folder: \(error)")
        }
        let productPath = LanesBuildFolders.join(outputDirectory, outputBaseName + kind.fileExtension)
        let source = exportPath + "/" + products[0]
        // An .app is a folder: rename(2) replaces only an empty one.
        if kind == .app { FilePath.removeTree(productPath) }
        guard rename(source, productPath) == 0 else {
            throw .file(path: productPath, problem: "cannot move \(source) here: \(String(cString: strerror(errno)))")
        }
        return BuildAppOutputs(product: BuildProduct(path: productPath, kind: kind), dSYMZipPath: try zipDSYMs())
    }

    /// `NAME.app.dSYM.zip` in `outputDirectory` from the archive's dSYMs, or nil when it has none.
    public func zipDSYMs() throws(BuildError) -> String? {
        let dSYMFolder = archivePath + "/dSYMs"
        guard FilePath.entries(of: dSYMFolder).contains(where: { $0.hasSuffix(".dSYM") }) else { return nil }
        do { try FilePath.makeDirectories(outputDirectory) } catch {
            throw .file(path: outputDirectory, problem: "cannot create the output folder: \(error)")
        }
        let zipPath = LanesBuildFolders.join(outputDirectory, outputBaseName + ".app.dSYM.zip")
        try ZipWriter.zip(folder: dSYMFolder, rootName: "dSYMs", to: zipPath)
        return zipPath
    }
}

/// What an export produced.
public struct BuildProduct: Sendable, Equatable {
    public var path: String
    public var kind: Kind

    public enum Kind: String, Sendable, CaseIterable {
        /// iOS, tvOS, watchOS and visionOS exports.
        case ipa
        /// A Mac App Store (installer-signed) export.
        case pkg
        /// A Developer ID or mac-application export.
        case app

        public var fileExtension: String { "." + rawValue }
        /// Only an .ipa can be checked by `check_ipa` (bundle identifier, embedded profile).
        public var isIPA: Bool { self == .ipa }

        init?(fileName: String) {
            guard let kind = Kind.allCases.first(where: { fileName.hasSuffix($0.fileExtension) && fileName.count > $0.fileExtension.count }) else { return nil }
            self = kind
        }
    }
}

/// The files `build_app` hands to later steps.
public struct BuildAppOutputs: Sendable, Equatable {
    public var product: BuildProduct
    public var dSYMZipPath: String?
    /// The product's path (an .ipa for iOS exports).
    public var ipaPath: String { product.path }
}
