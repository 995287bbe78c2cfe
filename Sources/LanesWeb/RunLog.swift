import LanesPlatform

/// Reads logs only from inside one folder: the path is resolved (symlinks included) and must stay
/// under the folder's own resolved path, so neither `..` nor a symlink in the folder reaches out.
public struct LogFolder: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The resolved path of `path` when it is a file inside the folder; nil otherwise.
    public func contained(_ path: String) -> String? {
        guard let root = FilePath.realPath(directory), let resolved = FilePath.realPath(path),
              resolved.hasPrefix(root + "/"), !FilePath.isDirectory(resolved)
        else { return nil }
        return resolved
    }

    /// The log's bytes from `offset` on, or nil when it is outside the folder or unreadable.
    public func read(_ path: String, from offset: Int = 0) -> [UInt8]? {
        guard let resolved = contained(path), let bytes = try? FilePath.readBytes(resolved) else { return nil }
        return offset < bytes.count ? Array(bytes[offset...]) : []
    }
}
