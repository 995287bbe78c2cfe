import Synchronization

/// A key for a value one step leaves for later steps of the same lane, such as the signing
/// identity `import_certificate` imported, which `update_project_provisioning` then writes.
/// Keys are types, so a value is always read back with the type it was stored with.
public protocol LaneValueKey {
    associatedtype Value: Sendable
}

/// Values steps hand to later steps of the same lane run.
public final class LaneValues: Sendable {
    private let storage = Mutex<[ObjectIdentifier: any Sendable]>([:])

    public init() {}

    public subscript<Key: LaneValueKey>(_ key: Key.Type) -> Key.Value? {
        get { storage.withLock { $0[ObjectIdentifier(key)] as? Key.Value } }
        set { storage.withLock { $0[ObjectIdentifier(key)] = newValue } }
    }
}

/// The lane the command line started, for what steps record about a run (an upload's manifest).
public enum RunningLaneName: LaneValueKey {
    public typealias Value = String
}
