import Foundation
import Lanes

/// `lanes/Package.swift` as SwiftPM evaluated it (`swift package dump-package`): the dependencies,
/// each as the Swift that declares it again in the wrapper package, and the library products the
/// manifest's targets use.
struct PackageManifest {
    struct Dependency {
        let identity: String
        /// How the wrapper declares it: `.package(path: ...)`, `.package(url: ..., "1.0.0"..<"2.0.0")`, ...
        let swift: String
        /// The path, URL or registry id, to find the manifest line that declares it.
        let location: String
    }

    struct Product: Equatable {
        let name: String
        let package: String
    }

    let manifest: String
    let dependencies: [Dependency]
    let products: [Product]

    init(json text: String, manifest: String) throws {
        self.manifest = manifest
        let start = text.firstIndex(of: "{") ?? text.startIndex
        guard let root = try? JSONSerialization.jsonObject(with: Data(text[start...].utf8)) as? [String: Any] else {
            throw LanesError(.configuration, "\(manifest): SwiftPM described it in an unexpected form")
        }
        dependencies = try (root["dependencies"] as? [[String: Any]] ?? []).map { try Self.dependency($0, manifest: manifest) }
        var products: [Product] = []
        for target in root["targets"] as? [[String: Any]] ?? [] {
            for use in target["dependencies"] as? [[String: Any]] ?? [] {
                if let product = use["product"] as? [Any], let name = product.first as? String, product.count > 1,
                   let package = product[1] as? String, !products.contains(Product(name: name, package: package)) {
                    products.append(Product(name: name, package: package))
                }
            }
        }
        self.products = products
    }

    private static func dependency(_ entry: [String: Any], manifest: String) throws -> Dependency {
        func first(_ key: String) -> [String: Any]? { (entry[key] as? [[String: Any]])?.first }
        if let local = first("fileSystem"), let path = local["path"] as? String {
            return Dependency(identity: local["identity"] as? String ?? path, swift: ".package(path: \(PackageBuilder.literal(path)))",
                              location: path)
        }
        if let source = first("sourceControl"), let location = source["location"] as? [String: Any] {
            let url: String
            if let remote = (location["remote"] as? [[String: Any]])?.first?["urlString"] as? String {
                url = remote
            } else if let local = (location["local"] as? [String])?.first {
                url = "file://" + local
            } else {
                throw LanesError(.configuration, "\(manifest): a git dependency without a URL")
            }
            return Dependency(identity: source["identity"] as? String ?? url,
                              swift: ".package(url: \(PackageBuilder.literal(url)), \(try requirement(source["requirement"], manifest: manifest)))",
                              location: url)
        }
        if let registry = first("registry"), let identity = registry["identity"] as? String {
            return Dependency(identity: identity,
                              swift: ".package(id: \(PackageBuilder.literal(identity)), \(try requirement(registry["requirement"], manifest: manifest)))",
                              location: identity)
        }
        throw LanesError(.configuration, "\(manifest): a dependency of a kind lanes does not know: \(entry.keys.sorted())")
    }

    private static func requirement(_ value: Any?, manifest: String) throws -> String {
        let requirement = value as? [String: Any] ?? [:]
        if let range = (requirement["range"] as? [[String: Any]])?.first,
           let lower = range["lowerBound"] as? String, let upper = range["upperBound"] as? String {
            return "\(PackageBuilder.literal(lower))..<\(PackageBuilder.literal(upper))"
        }
        for (key, label) in [("exact", "exact"), ("branch", "branch"), ("revision", "revision")] {
            if let value = (requirement[key] as? [String])?.first { return "\(label): \(PackageBuilder.literal(value))" }
        }
        throw LanesError(.configuration, "\(manifest): a dependency requirement lanes does not know: \(requirement.keys.sorted())")
    }

    /// A failed resolution or build as one message: the dependency SwiftPM names, with the line of
    /// `lanes/Package.swift` that declares it, then SwiftPM's own words.
    func explain(buildOutput: String) -> String {
        let errors = buildOutput.split(separator: "\n").filter { $0.contains("error:") }.prefix(8).joined(separator: "\n")
        let lowered = buildOutput.lowercased()
        let culprit = dependencies.first { lowered.contains("'\($0.identity.lowercased())'") }
            ?? dependencies.first { buildOutput.contains($0.location) }
            ?? dependencies.first { lowered.contains($0.identity.lowercased()) }
        let details = errors.isEmpty ? buildOutput : errors
        guard let culprit else {
            return "\(manifest): the packages could not be resolved or built:\n\(details)"
        }
        let line = lineNumber(of: culprit).map { ":\($0)" } ?? ""
        return "\(manifest)\(line): the package \(culprit.identity) (\(culprit.location)) could not be resolved or built:\n\(details)"
    }

    /// The manifest line naming the dependency's path, URL or id.
    private func lineNumber(of dependency: Dependency) -> Int? {
        guard let text = try? String(contentsOfFile: manifest, encoding: .utf8) else { return nil }
        let needles = [dependency.location, (dependency.location as NSString).lastPathComponent, dependency.identity]
        for needle in needles where !needle.isEmpty {
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains(".package(") && line.lowercased().contains(needle.lowercased()) {
                return index + 1
            }
        }
        return nil
    }
}

/// `swift package show-dependencies --format json` of the wrapper: which packages are local (their
/// content is part of the driver's key) and what the direct ones offer.
struct DependencyGraph {
    struct Node {
        let identity: String
        let path: String
        let version: String
        let dependencies: [Node]
    }

    let root: Node
    let checkouts: String

    init(json text: String, checkouts: String) throws {
        let start = text.firstIndex(of: "{") ?? text.startIndex
        guard let object = try? JSONSerialization.jsonObject(with: Data(text[start...].utf8)) as? [String: Any] else {
            throw LanesError(.internal, "SwiftPM listed the dependencies in an unexpected form")
        }
        root = Self.node(object)
        self.checkouts = checkouts
    }

    private static func node(_ object: [String: Any]) -> Node {
        Node(identity: object["identity"] as? String ?? "", path: object["path"] as? String ?? "",
             version: object["version"] as? String ?? "",
             dependencies: (object["dependencies"] as? [[String: Any]] ?? []).map(node))
    }

    /// Packages used from a folder rather than a checkout or the registry: their files can change
    /// without any version changing.
    var localPackages: [String] {
        var found: [String] = []
        func visit(_ node: Node) {
            if node.version == "unspecified", !node.path.hasPrefix(checkouts + "/"), !node.path.contains("/registry/"),
               !found.contains(node.path) {
                found.append(node.path)
            }
            node.dependencies.forEach(visit)
        }
        root.dependencies.forEach(visit)
        return found.sorted()
    }

    /// Every library product of each direct dependency.
    func directLibraryProducts(scratch: String, swiftPM: ([String], (String) -> String) throws -> String) throws -> [PackageManifest.Product] {
        var products: [PackageManifest.Product] = []
        for dependency in root.dependencies {
            // A scratch folder of lanes' own: the package's .build may be locked by its own `swift test`.
            let json = try swiftPM(["package", "--scratch-path", scratch, "dump-package", "--package-path", dependency.path]) {
                "the package \(dependency.identity) at \(dependency.path) has no readable manifest:\n\($0)"
            }
            let start = json.firstIndex(of: "{") ?? json.startIndex
            let object = (try? JSONSerialization.jsonObject(with: Data(json[start...].utf8))) as? [String: Any] ?? [:]
            for product in object["products"] as? [[String: Any]] ?? [] where (product["type"] as? [String: Any])?["library"] != nil {
                if let productName = product["name"] as? String {
                    products.append(PackageManifest.Product(name: productName, package: dependency.identity))
                }
            }
        }
        return products
    }
}
