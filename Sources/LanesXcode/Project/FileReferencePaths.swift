extension XcodeProject {
    /// The path of a file reference or group relative to the project root (the folder holding the
    /// `.xcodeproj`), following `<group>` paths up the group tree; absolute for `<absolute>` ones.
    /// Nil for source trees set in the build environment (`BUILT_PRODUCTS_DIR`, `SDKROOT`, ...).
    public func path(ofFileObject id: String) -> String? {
        let parents = groupParents()
        var visited: Set<String> = []
        return path(of: id, parents: parents, visited: &visited)
    }

    /// Where a configuration's base `.xcconfig` lives, relative to the project root: through
    /// `baseConfigurationReference`, or Xcode 16's `baseConfigurationReferenceAnchor` (a synchronized
    /// folder) plus `baseConfigurationReferenceRelativePath`.
    public func baseConfigurationPath(of configuration: BuildConfiguration) -> String? {
        if let reference = configuration.object["baseConfigurationReference"]?.string {
            return path(ofFileObject: reference)
        }
        if let anchor = configuration.object["baseConfigurationReferenceAnchor"]?.string,
           let relative = configuration.object["baseConfigurationReferenceRelativePath"]?.string,
           let folder = path(ofFileObject: anchor) {
            return join(folder, relative)
        }
        return nil
    }

    private func path(of id: String, parents: [String: String], visited: inout Set<String>) -> String? {
        guard visited.insert(id).inserted, let object = objects[id] else { return nil }
        let own = object["path"]?.string ?? ""
        switch object["sourceTree"]?.string ?? "<group>" {
        case "<absolute>":
            return own
        case "SOURCE_ROOT":
            return own
        case "<group>":
            guard let parent = parents[id] else { return own }
            guard let base = path(of: parent, parents: parents, visited: &visited) else { return nil }
            return join(base, own)
        default:
            return nil
        }
    }

    private func groupParents() -> [String: String] {
        var parents: [String: String] = [:]
        for (id, object) in objects {
            guard let children = object["children"]?.strings else { continue }
            for child in children { parents[child] = id }
        }
        return parents
    }

    private func join(_ base: String, _ component: String) -> String {
        if base.isEmpty { return component }
        if component.isEmpty { return base }
        if component.hasPrefix("/") { return component }
        return base.hasSuffix("/") ? base + component : base + "/" + component
    }
}
