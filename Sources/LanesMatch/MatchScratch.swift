internal import Foundation

/// A private folder (mode 0700) for what a match run must keep on disk: the bare git repository
/// of encrypted files, and a raw ssh key handed as text. Named after the process, so the next run
/// removes what a crashed or killed one left (`sweep`).
public struct MatchScratch: Sendable {
    public let path: String

    /// Creates `<parent>/<pid>-<random>` with mode 0700.
    public static func create(in parent: String) throws(MatchError) -> MatchScratch {
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .storage("cannot create \(parent): \(error.localizedDescription)")
        }
        let random = (0..<6).map { _ in String(UInt8.random(in: 0...255), radix: 16) }.joined()
        let path = "\(parent)/\(getpid())-\(random)"
        guard mkdir(path, 0o700) == 0 else { throw .storage("cannot create \(path): \(String(cString: strerror(errno)))") }
        return MatchScratch(path: path)
    }

    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Removes the folders under `parent` whose process is gone; returns their names.
    @discardableResult
    public static func sweep(in parent: String) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return [] }
        return names.filter { name in
            guard let pid = name.split(separator: "-").first.flatMap({ Int32($0) }), pid > 0 else { return false }
            guard kill(pid, 0) != 0, errno == ESRCH else { return false }
            return (try? FileManager.default.removeItem(atPath: "\(parent)/\(name)")) != nil
        }
    }
}
