#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
internal import LanesPlatform
internal import LanesSigning
internal import LanesXcode

/// What an .ipa says about itself.
public struct IPAInspection: Sendable {
    public var path: String
    /// `Payload/Brewer.app`.
    public var appPath: String
    public var bundleIdentifier: String
    /// `CFBundleShortVersionString`.
    public var version: String?
    /// `CFBundleVersion`.
    public var build: String?
    /// The embedded provisioning profile (nil when the app has none, as App Store builds downloaded back do not).
    public var profile: EmbeddedProfile?
    /// `DTPlatformName` (`iphoneos`, `appletvos`, `xros`...): the platform pilot uploads it as.
    public var platformName: String? = nil
}

/// The facts of `embedded.mobileprovision` a lane checks, read through LanesSigning.
public struct EmbeddedProfile: Sendable, Equatable {
    public var uuid: String
    public var name: String
    public var teamIdentifier: String?
    public var applicationIdentifier: String
    public var expirationDate: Date
}

/// Reads an .ipa and refuses one that is not what the lane built.
public enum IPAInspector {
    public static func inspect(path: String) throws(BuildError) -> IPAInspection {
        // Read where each record is, never whole: an .ipa may be gigabytes.
        let file: ArchiveFile
        do { file = try ArchiveFile(path: path) } catch {
            throw .file(path: path, problem: "cannot read the .ipa: \(error)")
        }
        return try inspect(ZipArchive(source: .file(file), path: path), path: path)
    }

    public static func inspect(bytes: [UInt8], path: String) throws(BuildError) -> IPAInspection {
        try inspect(ZipArchive(bytes: bytes, path: path), path: path)
    }

    /// The bytes of the app's own `Payload/NAME.app/Info.plist` (fastlane's `fetch_info_plist_file`).
    public static func infoPlistBytes(path: String) throws(BuildError) -> [UInt8] {
        let file: ArchiveFile
        do { file = try ArchiveFile(path: path) } catch {
            throw .file(path: path, problem: "cannot read the .ipa: \(error)")
        }
        let zip = try ZipArchive(source: .file(file), path: path)
        let apps = zip.entries.filter { entry in
            let parts = entry.name.split(separator: "/", omittingEmptySubsequences: false)
            return parts.count == 3 && parts[0] == "Payload" && parts[1].hasSuffix(".app") && parts[2] == "Info.plist"
        }
        guard let entry = apps.first, apps.count == 1 else {
            throw .archive(path: path, problem: "has \(apps.count) Payload/*.app/Info.plist files; an .ipa holds one app")
        }
        return try zip.contents(of: entry)
    }

    static func inspect(_ zip: ZipArchive, path: String) throws(BuildError) -> IPAInspection {
        // `Payload/NAME.app/Info.plist`, exactly one level below Payload (not a plug-in's Info.plist).
        let apps = zip.entries.filter { entry in
            let parts = entry.name.split(separator: "/", omittingEmptySubsequences: false)
            return parts.count == 3 && parts[0] == "Payload" && parts[1].hasSuffix(".app") && parts[2] == "Info.plist"
        }
        guard let infoEntry = apps.first else {
            throw .archive(path: path, problem: "has no Payload/*.app/Info.plist; it is not an iOS app archive")
        }
        guard apps.count == 1 else {
            throw .archive(path: path, problem: "has \(apps.count) apps under Payload/; an .ipa holds one")
        }
        let appPath = String(infoEntry.name.dropLast("/Info.plist".count))
        let info: InfoPlistEditor
        do { info = try InfoPlistEditor(bytes: try zip.contents(of: infoEntry), path: "\(path):\(infoEntry.name)") } catch let error as BuildError {
            throw error
        } catch {
            throw .archive(path: path, problem: "\(infoEntry.name): \(error)")
        }
        let bundleIdentifier: String
        let version: String?
        let build: String?
        let platformName: String?
        do {
            guard let identifier = try info.string(forKey: "CFBundleIdentifier") else {
                throw BuildError.archive(path: path, problem: "\(infoEntry.name) has no CFBundleIdentifier")
            }
            bundleIdentifier = identifier
            version = try info.string(forKey: "CFBundleShortVersionString")
            build = try info.string(forKey: "CFBundleVersion")
            platformName = try info.string(forKey: "DTPlatformName")
        } catch let error as BuildError {
            throw error
        } catch {
            throw .archive(path: path, problem: "\(infoEntry.name): \(error)")
        }
        var profile: EmbeddedProfile?
        if let profileEntry = zip.entries.first(where: { $0.name == appPath + "/embedded.mobileprovision" }) {
            let source = "\(path):\(profileEntry.name)"
            do {
                let read = try ProvisioningProfileReader.read(bytes: try zip.contents(of: profileEntry), source: source)
                profile = EmbeddedProfile(uuid: read.uuid, name: read.name, teamIdentifier: read.teamIdentifier,
                                          applicationIdentifier: read.applicationIdentifier, expirationDate: read.expirationDate)
            } catch let error as BuildError {
                throw error
            } catch {
                throw .archive(path: path, problem: "\(profileEntry.name): \(error)")
            }
        }
        return IPAInspection(path: path, appPath: appPath, bundleIdentifier: bundleIdentifier, version: version,
                             build: build, profile: profile, platformName: platformName)
    }

    /// Refuses the .ipa when its bundle identifier is not `appIdentifier`, or (when `profileUUID` is
    /// given) when it does not embed that profile, or the embedded profile has expired at `now`.
    public static func check(_ inspection: IPAInspection, appIdentifier: String, profileUUID: String?,
                             now: Date) throws(BuildError) {
        guard inspection.bundleIdentifier == appIdentifier else {
            throw .artifactRefused(path: inspection.path,
                                   problem: "bundle identifier is \(inspection.bundleIdentifier), the configuration's appIdentifier is \(appIdentifier)")
        }
        guard let profileUUID else { return }
        guard let profile = inspection.profile else {
            throw .artifactRefused(path: inspection.path, problem: "has no embedded.mobileprovision; expected profile \(profileUUID)")
        }
        guard profile.uuid.lowercased() == profileUUID.lowercased() else {
            throw .artifactRefused(path: inspection.path,
                                   problem: "embeds profile \(profile.name) (\(profile.uuid)), not the installed profile \(profileUUID)")
        }
        guard profile.expirationDate > now else {
            throw .artifactRefused(path: inspection.path, problem: "embedded profile \(profile.name) expired on \(profile.expirationDate)")
        }
    }
}
