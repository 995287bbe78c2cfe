/// What a release needs from an Android artifact's manifest: the package name, version code and
/// version name, read by lanes itself from an .apk (binary XML) or an .aab (aapt2's protobuf XML).
public struct AndroidManifestFacts: Sendable, Equatable {
    public enum Kind: String, Sendable { case apk, aab }

    public let kind: Kind
    public let packageName: String
    public let versionCode: Int
    /// Nil when the manifest has none, or names a string resource instead of a value.
    public let versionName: String?
    public let minSdkVersion: Int?

    public init(kind: Kind, packageName: String, versionCode: Int, versionName: String?, minSdkVersion: Int?) {
        self.kind = kind
        self.packageName = packageName
        self.versionCode = versionCode
        self.versionName = versionName
        self.minSdkVersion = minSdkVersion
    }
}

/// Reads the manifest of an .apk (`AndroidManifest.xml`, binary XML) or an .aab
/// (`base/manifest/AndroidManifest.xml`, an `aapt.pb.XmlNode`), through the zip's central directory.
public enum AndroidArtifactReader {
    public static func read(path: String) throws(BuildError) -> AndroidManifestFacts {
        let file: ArchiveFile
        do { file = try ArchiveFile(path: path) } catch {
            throw .file(path: path, problem: "cannot read it: \(error)")
        }
        return try read(ZipArchive(source: .file(file), path: path), path: path)
    }

    public static func read(bytes: [UInt8], path: String) throws(BuildError) -> AndroidManifestFacts {
        try read(ZipArchive(bytes: bytes, path: path), path: path)
    }

    static func read(_ zip: ZipArchive, path: String) throws(BuildError) -> AndroidManifestFacts {
        if let entry = zip.entries.first(where: { $0.name == "base/manifest/AndroidManifest.xml" }) {
            let element = try ProtoXML.root(try zip.contents(of: entry, limit: 16 << 20), path: path)
            return try facts(of: element, kind: .aab, path: path)
        }
        if let entry = zip.entries.first(where: { $0.name == "AndroidManifest.xml" }) {
            let element = try BinaryXML.root(try zip.contents(of: entry, limit: 16 << 20), path: path)
            return try facts(of: element, kind: .apk, path: path)
        }
        throw .archive(path: path, problem: "has neither AndroidManifest.xml (an .apk) nor base/manifest/AndroidManifest.xml (an .aab)")
    }

    static func facts(of manifest: ManifestElement, kind: AndroidManifestFacts.Kind, path: String) throws(BuildError) -> AndroidManifestFacts {
        guard manifest.name == "manifest" else {
            throw .archive(path: path, problem: "its manifest's root element is <\(manifest.name)>, not <manifest>")
        }
        guard case .string(let package)? = manifest.attribute("package"), !package.isEmpty else {
            throw .archive(path: path, problem: "its <manifest> has no package attribute")
        }
        guard let code = manifest.attribute("versionCode", resourceID: ManifestElement.versionCodeID)?.integer else {
            throw .archive(path: path, problem: "its <manifest> has no android:versionCode")
        }
        let name: String?
        if case .string(let text)? = manifest.attribute("versionName", resourceID: ManifestElement.versionNameID) { name = text } else { name = nil }
        let sdk = manifest.children.first { $0.name == "uses-sdk" }?.attribute("minSdkVersion", resourceID: ManifestElement.minSdkVersionID)?.integer
        return AndroidManifestFacts(kind: kind, packageName: package, versionCode: code, versionName: name, minSdkVersion: sdk)
    }
}

/// An element of a compiled manifest: its name, attributes (by name, with the android resource id
/// when the compiler gave one) and child elements.
struct ManifestElement: Sendable {
    enum Value: Sendable, Equatable {
        case string(String)
        case integer(Int)
        /// A reference to a resource (`@string/app_version`): its id, not resolvable without resources.arsc.
        case reference(UInt32)
        case other

        var integer: Int? {
            switch self {
            case .integer(let value): value
            case .string(let text): Int(text)
            default: nil
            }
        }
    }

    struct Attribute: Sendable {
        let name: String
        let resourceID: UInt32
        let value: Value
    }

    static let versionCodeID: UInt32 = 0x0101_021B
    static let versionNameID: UInt32 = 0x0101_021C
    static let minSdkVersionID: UInt32 = 0x0101_020C

    var name: String
    var attributes: [Attribute] = []
    var children: [ManifestElement] = []

    /// The attribute with this resource id (what Android itself goes by), else by name.
    func attribute(_ name: String, resourceID: UInt32? = nil) -> Value? {
        if let resourceID, let match = attributes.first(where: { $0.resourceID == resourceID }) { return match.value }
        return attributes.first { $0.name == name }?.value
    }
}
