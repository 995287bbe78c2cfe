internal import Foundation

/// Reads the fields lanes needs from a profile's signed XML property list.
enum ProfilePayload {
    static func decode(_ bytes: [UInt8], path: String, signature: ProfileSignature) throws(SigningError) -> ProvisioningProfile {
        let root: [String: Any]
        do {
            let object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
            guard let dictionary = object as? [String: Any] else {
                throw SigningError.profileField(path: path, field: "(root)", problem: "is not a dictionary")
            }
            root = dictionary
        } catch let error as SigningError {
            throw error
        } catch {
            throw .profileField(path: path, field: "(payload)", problem: "is not a property list: \(error.localizedDescription)")
        }
        let fields = Fields(root, path: path, prefix: "")
        let entitlements = Fields(try fields.required("Entitlements", as: [String: Any].self), path: path, prefix: "Entitlements.")
        var certificates: [Certificate] = []
        for (index, data) in try fields.required("DeveloperCertificates", as: [Data].self).enumerated() {
            do {
                certificates.append(try Certificate(der: Array(data), source: "\(path) DeveloperCertificates[\(index)]"))
            } catch {
                throw .profileField(path: path, field: "DeveloperCertificates[\(index)]", problem: "is not a certificate: \(error)")
            }
        }
        return ProvisioningProfile(
            path: path,
            name: try fields.required("Name", as: String.self),
            uuid: try fields.required("UUID", as: String.self),
            teamIdentifiers: try fields.required("TeamIdentifier", as: [String].self),
            teamName: try fields.optional("TeamName", as: String.self),
            appIDName: try fields.optional("AppIDName", as: String.self),
            applicationIdentifier: try entitlements.required("application-identifier", as: String.self),
            applicationIdentifierPrefixes: try fields.optional("ApplicationIdentifierPrefix", as: [String].self) ?? [],
            creationDate: try fields.optional("CreationDate", as: Date.self),
            expirationDate: try fields.required("ExpirationDate", as: Date.self),
            developerCertificates: certificates,
            provisionedDevices: try fields.optional("ProvisionedDevices", as: [String].self),
            provisionsAllDevices: try fields.optional("ProvisionsAllDevices", as: Bool.self) ?? false,
            getTaskAllow: try entitlements.optional("get-task-allow", as: Bool.self) ?? false,
            platforms: try fields.optional("Platform", as: [String].self) ?? [],
            signature: signature,
            payload: bytes
        )
    }

    /// Typed access to a plist dictionary whose errors name the file and the field.
    private struct Fields {
        let values: [String: Any]
        let path: String
        let prefix: String

        init(_ values: [String: Any], path: String, prefix: String) {
            self.values = values
            self.path = path
            self.prefix = prefix
        }

        func optional<T>(_ key: String, as type: T.Type) throws(SigningError) -> T? {
            guard let value = values[key] else { return nil }
            guard let typed = value as? T else {
                throw .profileField(path: path, field: prefix + key, problem: "has the wrong type (expected \(T.self))")
            }
            return typed
        }

        func required<T>(_ key: String, as type: T.Type) throws(SigningError) -> T {
            guard let value = try optional(key, as: type) else {
                throw .profileField(path: path, field: prefix + key, problem: "is missing")
            }
            return value
        }
    }
}
