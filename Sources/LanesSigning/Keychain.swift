/// An identity as a keychain knows it.
public struct KeychainIdentity: Sendable, Hashable, Codable {
    /// The certificate's common name: what CODE_SIGN_IDENTITY names.
    public let commonName: String
    /// Uppercase hex SHA-1 of the certificate, as `security find-identity` prints it.
    public let sha1: String

    public init(commonName: String, sha1: String) {
        self.commonName = commonName
        self.sha1 = sha1
    }
}

/// How to look an identity up.
public enum IdentityQuery: Sendable, Hashable, CustomStringConvertible {
    case commonName(String)
    case sha1(String)

    func matches(_ identity: KeychainIdentity) -> Bool {
        switch self {
        case let .commonName(name): identity.commonName == name
        case let .sha1(sha1): identity.sha1.uppercased() == sha1.uppercased()
        }
    }

    public var description: String {
        switch self {
        case let .commonName(name): "name '\(name)'"
        case let .sha1(sha1): "SHA-1 \(sha1)"
        }
    }
}

/// A place to keep signing identities for the length of a lane: a file keychain on Linux, a
/// temporary macOS keychain driven through `security` on macOS.
public protocol Keychain: Sendable {
    var name: String { get }
    /// The directory or keychain file.
    var location: String { get }
    /// Creates the keychain (and, on macOS, puts it on the search list).
    func create() async throws
    /// Stores `identity` (certificate with private key) and returns how the keychain lists it.
    func importIdentity(_ identity: SigningIdentity) async throws -> KeychainIdentity
    func findIdentity(_ query: IdentityQuery) async throws -> KeychainIdentity
    /// Removes the keychain and undoes what `create` changed. Safe to call twice, or before
    /// `create`: the cleanup of a failing lane and of Ctrl-C may both run it.
    func delete() async throws
    /// Marks the keychain as kept on purpose after the lane (`keep_keychain`), so that the next
    /// run does not remove it as a crashed run's leftover.
    func keepAfterLane()
}

extension Keychain {
    public func keepAfterLane() {}
}

/// Keychain names become file names: keep them to a safe alphabet.
enum KeychainName {
    static func validate(_ name: String) throws(SigningError) {
        let allowed = name.unicodeScalars.allSatisfy { scalar in
            (scalar.value < 128) && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar))
        }
        guard !name.isEmpty, allowed, !name.hasPrefix("."), name.count <= 100 else {
            throw .keychain(name: name, problem: "keychain names may use letters, digits, '.', '_' and '-' (not starting with '.')")
        }
    }
}
