import LanesPlatform

/// The history page's token: `web-token` in the project's state folder, which is made 0700 (the
/// file 0600), so only the user who runs lanes can read it. Made once and kept, so a browser
/// signed in stays signed in across restarts; a file that group or others could read (or that is
/// not the user's own regular file) is replaced by a new token, since the old one may be known.
public enum WebToken {
    public static let fileName = "web-token"

    public struct Loaded: Sendable {
        public let token: String
        public let path: String
        /// A token file others could read was replaced.
        public let replacedExposed: Bool
    }

    public static func loadOrCreate(stateDirectory: String) throws(HTTPServerError) -> Loaded {
        do {
            try PrivateFolder.prepare(stateDirectory)
        } catch {
            throw HTTPServerError(description: "cannot keep the page's token in \(stateDirectory): \(error.message)")
        }
        let path = stateDirectory + "/" + fileName
        var replaced = false
        var info = stat()
        if lstat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(), info.st_mode & 0o077 == 0,
               let token = read(path), token.utf8.count >= 32 {
                return Loaded(token: token, path: path, replacedExposed: false)
            }
            replaced = info.st_mode & 0o077 != 0 || info.st_uid != geteuid()
        }
        var generator = SystemRandomNumberGenerator()
        let token = (0..<4).map { _ in Hex.encode(withUnsafeBytes(of: (generator.next() as UInt64).bigEndian) { Array($0) }) }.joined()
        do {
            try AtomicFile.writePrivate(Array((token + "\n").utf8), to: path)
        } catch {
            throw HTTPServerError(description: error.description)
        }
        return Loaded(token: token, path: path, replacedExposed: replaced)
    }

    private static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard case .complete(let bytes) = FileDescriptorIO.readAll(from: descriptor, limit: 4096) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self).trimmingSpaces.split(separator: "\n").first.map(String.init)
        return text?.isEmpty == false ? text : nil
    }
}
