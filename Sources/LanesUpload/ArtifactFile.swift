internal import LanesPlatform

/// An artifact read for upload: `PositionedFile`, whose failures are the artifact's (`UploadError.artifact`).
typealias ArtifactFile = PositionedFile

extension PositionedFile {
    static func artifact(_ path: String) throws(UploadError) -> PositionedFile {
        do { return try open(path) } catch { throw .artifact(path, error.problem) }
    }

    func readArtifact(into buffer: inout [UInt8], count: Int, at offset: Int64) throws(UploadError) -> Int {
        do { return try read(into: &buffer, count: count, at: offset) } catch { throw .artifact(path, error.problem) }
    }

    func readArtifactExactly(into buffer: inout [UInt8], count: Int, at offset: Int64) throws(UploadError) {
        do { try readExactly(into: &buffer, count: count, at: offset) } catch { throw .artifact(path, error.problem) }
    }
}
