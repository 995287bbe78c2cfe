internal import LanesPlatform

/// Reading small files (keys, service accounts) through LanesPlatform.
enum LanesPlatformFile {
    static func read(_ path: String) throws -> String { try FilePath.read(path) }
}
