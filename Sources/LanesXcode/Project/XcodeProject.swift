/// The Xcode view of a `project.pbxproj`: targets, configuration lists and build configurations, read
/// from the objects dictionary of a `PBXDocument`.
public struct XcodeProject: Sendable {
    public let document: PBXDocument
    /// Every object by id.
    public let objects: [String: PBXDictionary]
    public let projectObjectID: String
    /// The `PBXProject` object.
    public let projectObject: PBXDictionary
    /// Native, aggregate and legacy targets, in the order of the project's `targets` list.
    public let targets: [XcodeTarget]

    public init(document: PBXDocument) throws(XcodeProjectError) {
        guard let objectsValue = document.root["objects"]?.dictionary else {
            throw .notAnXcodeProject(reason: "the top-level dictionary has no 'objects' dictionary")
        }
        var objects: [String: PBXDictionary] = [:]
        objects.reserveCapacity(objectsValue.entries.count)
        for entry in objectsValue.entries {
            if case .dictionary(let object) = entry.value { objects[entry.key.value] = object }
        }
        guard let rootID = document.root["rootObject"]?.string else {
            throw .notAnXcodeProject(reason: "the top-level dictionary has no 'rootObject'")
        }
        guard let project = objects[rootID] else { throw .missingObject(id: rootID, referencedBy: "rootObject") }
        var targets: [XcodeTarget] = []
        for id in project["targets"]?.strings ?? [] {
            guard let object = objects[id] else { throw .missingObject(id: id, referencedBy: "PBXProject.targets") }
            guard let isa = object["isa"]?.string, let kind = XcodeTarget.Kind(isa: isa) else { continue }
            targets.append(XcodeTarget(id: id, name: object["name"]?.string ?? id, kind: kind,
                                       productType: object["productType"]?.string,
                                       configurationListID: object["buildConfigurationList"]?.string))
        }
        self.document = document
        self.objects = objects
        self.projectObjectID = rootID
        self.projectObject = project
        self.targets = targets
    }

    public init(bytes: [UInt8], path: String? = nil) throws {
        try self.init(document: PBXDocument(bytes: bytes, path: path))
    }

    /// The project-level build configurations (from the `PBXProject`'s configuration list).
    public func projectConfigurations() throws(XcodeProjectError) -> [BuildConfiguration] {
        try configurations(listID: projectObject["buildConfigurationList"]?.string, owner: nil)
    }

    /// A target's build configurations, in the order of its `XCConfigurationList`.
    public func configurations(of target: XcodeTarget) throws(XcodeProjectError) -> [BuildConfiguration] {
        try configurations(listID: target.configurationListID, owner: target)
    }

    private func configurations(listID: String?, owner: XcodeTarget?) throws(XcodeProjectError) -> [BuildConfiguration] {
        let ownerName = owner.map { "target '\($0.name)'" } ?? "the project"
        guard let listID else { return [] }
        guard let list = objects[listID] else { throw .missingObject(id: listID, referencedBy: ownerName) }
        var result: [BuildConfiguration] = []
        for id in list["buildConfigurations"]?.strings ?? [] {
            guard let object = objects[id] else { throw .missingObject(id: id, referencedBy: "the configuration list of \(ownerName)") }
            result.append(BuildConfiguration(id: id, name: object["name"]?.string ?? id, target: owner, object: object))
        }
        return result
    }
}

/// A `PBXNativeTarget`, `PBXAggregateTarget` or `PBXLegacyTarget`.
public struct XcodeTarget: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case native = "PBXNativeTarget"
        case aggregate = "PBXAggregateTarget"
        case legacy = "PBXLegacyTarget"

        init?(isa: String) { self.init(rawValue: isa) }
    }

    public let id: String
    public let name: String
    public let kind: Kind
    public let productType: String?
    public let configurationListID: String?
}

/// One `XCBuildConfiguration`, project-level (`target == nil`) or of a target.
public struct BuildConfiguration: Sendable {
    public let id: String
    public let name: String
    public let target: XcodeTarget?
    public let object: PBXDictionary

    /// The `buildSettings` dictionary as written.
    public var buildSettings: PBXDictionary? { object["buildSettings"]?.dictionary }

    /// The settings as written: strings, or arrays of strings.
    public var settings: [String: BuildSettingValue] {
        var result: [String: BuildSettingValue] = [:]
        for entry in buildSettings?.entries ?? [] {
            result[entry.key.value] = BuildSettingValue(entry.value)
        }
        return result
    }

    /// Where the owner is named in reports: the target's name, or "project".
    public var scopeName: String { target?.name ?? "project" }
}
