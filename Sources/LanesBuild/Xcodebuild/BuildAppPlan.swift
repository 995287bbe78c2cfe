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
    /// The .ipa's name in `outputDirectory` (`Brewer.ipa` by default: the scheme's name).
    public let outputName: String

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
                buildSettings: [BuildSettingOverride] = []) {
        self.container = container
        self.scheme = scheme
        self.configuration = configuration
        self.exportMethod = exportMethod
        self.exportOptions = exportOptions
        self.outputDirectory = outputDirectory
        var name = outputName ?? scheme
        if !name.hasSuffix(".ipa") { name += ".ipa" }
        self.outputName = name
        let build = LanesBuildFolders.build(root: root)
        let label = scheme + (configuration.map { "-" + $0 } ?? "")
        archivePath = "\(build)/\(label).xcarchive"
        exportPath = "\(build)/\(label)-export"
        exportOptionsPlistPath = "\(build)/\(label)-ExportOptions.plist"
        archiveResultBundlePath = "\(LanesBuildFolders.results(root: root))/\(label)-archive.xcresult"
        self.derivedDataPath = derivedDataPath ?? LanesBuildFolders.derivedData(root: root)
        self.provisioningUpdates = provisioningUpdates
        archiveRequest = ArchiveRequest(
            container: container, scheme: scheme, configuration: configuration, sdk: sdk, platform: platform,
            archivePath: archivePath, clean: clean, derivedDataPath: self.derivedDataPath,
            resultBundlePath: archiveResultBundlePath, provisioningUpdates: provisioningUpdates,
            buildSettings: buildSettings)
    }

    public var archiveCommand: XcodebuildCommand { .archive(archiveRequest) }

    public var exportCommand: XcodebuildCommand {
        .exportArchive(archivePath: archivePath, exportPath: exportPath, exportOptionsPlist: exportOptionsPlistPath,
                       provisioningUpdates: provisioningUpdates)
    }

    /// The plist text; throws naming a bad `exportOptions` key before anything runs.
    public func exportOptionsPlist() throws(BuildError) -> String {
        try exportOptions.plist(method: exportMethod)
    }

    /// What a previous run left and xcodebuild refuses to overwrite (a result bundle), or would mix
    /// with the new run (an old archive or export). The step removes them before archiving.
    public var stalePaths: [String] { [archivePath, exportPath, archiveResultBundlePath] }

    /// Moves the exported .ipa to `outputDirectory/outputName` and zips `archive/dSYMs` next to it
    /// as `NAME.app.dSYM.zip` (nil when the archive has no dSYMs).
    public func collectOutputs() throws(BuildError) -> BuildAppOutputs {
        let ipas = FilePath.entries(of: exportPath).filter { $0.hasSuffix(".ipa") }.sorted()
        guard ipas.count == 1 else {
            throw .file(path: exportPath, problem: ipas.isEmpty
                ? "xcodebuild -exportArchive left no .ipa here"
                : "holds \(ipas.count) .ipa files (\(ipas.joined(separator: ", "))); expected one")
        }
        do { try FilePath.makeDirectories(outputDirectory) } catch {
            throw .file(path: outputDirectory, problem: "cannot create the output folder: \(error)")
        }
        let ipaPath = LanesBuildFolders.join(outputDirectory, outputName)
        let source = exportPath + "/" + ipas[0]
        guard rename(source, ipaPath) == 0 else {
            throw .file(path: ipaPath, problem: "cannot move \(source) here: \(String(cString: strerror(errno)))")
        }
        let dSYMFolder = archivePath + "/dSYMs"
        let dSYMs = FilePath.entries(of: dSYMFolder).filter { $0.hasSuffix(".dSYM") }.sorted()
        var dSYMZipPath: String?
        if !dSYMs.isEmpty {
            let zipPath = LanesBuildFolders.join(outputDirectory, String(outputName.dropLast(4)) + ".app.dSYM.zip")
            try ZipWriter.zip(folder: dSYMFolder, rootName: "dSYMs", to: zipPath)
            dSYMZipPath = zipPath
        }
        return BuildAppOutputs(ipaPath: ipaPath, dSYMZipPath: dSYMZipPath)
    }
}

/// The files `build_app` hands to later steps.
public struct BuildAppOutputs: Sendable, Equatable {
    public var ipaPath: String
    public var dSYMZipPath: String?
}
