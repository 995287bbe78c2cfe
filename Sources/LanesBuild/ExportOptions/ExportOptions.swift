internal import LanesPlatform
/// A value in `exportOptions`: the three shapes ExportOptions.plist uses.
public enum ExportOptionValue: Sendable, Equatable {
    case string(String)
    case bool(Bool)
    /// `provisioningProfiles` (bundle identifier -> profile name or UUID) and `manifest` (name -> URL).
    case dictionary([String: String])

    var typeName: String {
        switch self {
        case .string: "a string"
        case .bool: "a Boolean"
        case .dictionary: "a dictionary of strings"
        }
    }
}

/// What may appear as a value in an `exportOptions` literal: `"manual"`, `true`, `[appIdentifier: profileName]`
/// or a variable of those types.
public protocol ExportOptionConvertible: Sendable {
    var exportOptionValue: ExportOptionValue { get }
}

extension String: ExportOptionConvertible {
    public var exportOptionValue: ExportOptionValue { .string(self) }
}

extension Bool: ExportOptionConvertible {
    public var exportOptionValue: ExportOptionValue { .bool(self) }
}

extension Dictionary: ExportOptionConvertible where Key == String, Value == String {
    public var exportOptionValue: ExportOptionValue { .dictionary(self) }
}

extension ExportOptionValue: ExportOptionConvertible {
    public var exportOptionValue: ExportOptionValue { self }
}

/// The `exportOptions` a Lanefile writes as a literal, checked against the keys `xcodebuild -help`
/// documents when the plist is made:
///
///     ["signingStyle": "manual", "provisioningProfiles": [appIdentifier: profileName]]
public struct ExportOptions: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// Entries in the order written (a repeated key is an error at `plist(method:)`).
    public let entries: [(key: String, value: ExportOptionValue)]

    public init(dictionaryLiteral elements: (String, any ExportOptionConvertible)...) {
        entries = elements.map { (key: $0.0, value: $0.1.exportOptionValue) }
    }

    public init(_ entries: [(key: String, value: ExportOptionValue)]) {
        self.entries = entries
    }

    public init(_ dictionary: [String: any ExportOptionConvertible]) {
        entries = dictionary.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value.exportOptionValue) }
    }

    /// The same options with `key` set to `value` (replacing a value the caller gave).
    public func adding(_ key: String, _ value: ExportOptionValue) -> ExportOptions {
        ExportOptions(entries.filter { $0.key != key } + [(key: key, value: value)])
    }

    /// The same options without `key`.
    public func removing(_ key: String) -> ExportOptions {
        ExportOptions(entries.filter { $0.key != key })
    }

    /// The value given for `key` (the last one, when repeated).
    public func value(of key: String) -> ExportOptionValue? {
        entries.last { $0.key == key }?.value
    }

    public static func == (lhs: ExportOptions, rhs: ExportOptions) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    /// The checked options with `method` set: every key documented, every value of its type, `method`
    /// (when also given here) naming the same export as `method`.
    public func validated(method: ArchiveExportMethod) throws(BuildError) -> [ExportOptionKey: ExportOptionValue] {
        var result: [ExportOptionKey: ExportOptionValue] = [.method: .string(method.rawValue)]
        var seen: Set<String> = []
        for (name, value) in entries {
            guard seen.insert(name).inserted else {
                throw .exportOption(key: name, problem: "is given twice")
            }
            guard let key = ExportOptionKey(rawValue: name) else {
                throw .exportOption(key: name, problem: "is not an ExportOptions.plist key xcodebuild documents (known keys: \(ExportOptionKey.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            try key.check(value)
            if key == .method {
                guard case .string(let given) = value, let givenMethod = ArchiveExportMethod(name: given) else {
                    throw .exportOption(key: name, problem: "must be one of \(ArchiveExportMethod.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                guard givenMethod.isSameMethod(as: method) else {
                    throw .exportOption(key: name, problem: "is \"\(given)\" but the export method is \"\(method.rawValue)\"")
                }
                continue
            }
            result[key] = value
        }
        return result
    }

    /// ExportOptions.plist (XML, keys sorted) for `method` and these options.
    public func plist(method: ArchiveExportMethod) throws(BuildError) -> String {
        let options = try validated(method: method)
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>

            """
        for (key, value) in options.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            xml += "\t<key>\(MarkupText.escape(key.rawValue))</key>\n"
            switch value {
            case .string(let string): xml += "\t<string>\(MarkupText.escape(string))</string>\n"
            case .bool(let flag): xml += flag ? "\t<true/>\n" : "\t<false/>\n"
            case .dictionary(let dictionary):
                xml += "\t<dict>\n"
                for (innerKey, innerValue) in dictionary.sorted(by: { $0.key < $1.key }) {
                    xml += "\t\t<key>\(MarkupText.escape(innerKey))</key>\n\t\t<string>\(MarkupText.escape(innerValue))</string>\n"
                }
                xml += "\t</dict>\n"
            }
        }
        xml += "</dict>\n</plist>\n"
        return xml
    }
}

/// Every key `xcodebuild -help` documents for `-exportOptionsPlist`, with its type.
public enum ExportOptionKey: String, Sendable, CaseIterable, Hashable {
    case compileBitcode
    case destination
    case distributionBundleIdentifier
    case embedOnDemandResourcesAssetPacksInBundle
    case generateAppStoreInformation
    case iCloudContainerEnvironment
    case installerSigningCertificate
    case manageAppVersionAndBuildNumber
    case manifest
    case method
    case onDemandInstallCapable
    case onDemandResourcesAssetPacksBaseURL
    case provisioningProfiles
    case signingCertificate
    case signingStyle
    case stripSwiftSymbols
    case teamID
    case testFlightInternalTestingOnly
    case thinning
    case uploadBitcode
    case uploadSymbols

    public enum ValueType: Sendable, Equatable {
        case string
        /// A string from a fixed set.
        case oneOf([String])
        case bool
        case dictionary
    }

    public var valueType: ValueType {
        switch self {
        case .compileBitcode, .embedOnDemandResourcesAssetPacksInBundle, .generateAppStoreInformation,
             .manageAppVersionAndBuildNumber, .onDemandInstallCapable, .stripSwiftSymbols,
             .testFlightInternalTestingOnly, .uploadBitcode, .uploadSymbols:
            .bool
        case .destination: .oneOf(["export", "upload"])
        case .iCloudContainerEnvironment: .oneOf(["Development", "Production"])
        case .signingStyle: .oneOf(["manual", "automatic"])
        case .method: .oneOf(ArchiveExportMethod.allCases.map(\.rawValue))
        case .distributionBundleIdentifier, .installerSigningCertificate, .onDemandResourcesAssetPacksBaseURL,
             .signingCertificate, .teamID, .thinning:
            .string
        case .manifest, .provisioningProfiles: .dictionary
        }
    }

    func check(_ value: ExportOptionValue) throws(BuildError) {
        switch (valueType, value) {
        case (.bool, .bool), (.string, .string), (.dictionary, .dictionary): break
        case (.oneOf(let allowed), .string(let string)):
            guard allowed.contains(string) else {
                throw .exportOption(key: rawValue, problem: "is \"\(string)\"; it must be one of \(allowed.joined(separator: ", "))")
            }
        default:
            throw .exportOption(key: rawValue, problem: "must be \(expectedTypeName), not \(value.typeName)")
        }
        if self == .manifest, case .dictionary(let entries) = value {
            let known = ["appURL", "displayImageURL", "fullSizeImageURL", "assetPackManifestURL"]
            for name in entries.keys.sorted() where !known.contains(name) {
                throw .exportOption(key: "manifest.\(name)", problem: "is not a manifest key (known: \(known.joined(separator: ", ")))")
            }
        }
    }

    var expectedTypeName: String {
        switch valueType {
        case .bool: "a Boolean"
        case .string, .oneOf: "a string"
        case .dictionary: "a dictionary of strings"
        }
    }
}
