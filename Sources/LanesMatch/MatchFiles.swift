internal import Foundation

/// What a match storage holds, as it is stored (encrypted), by path relative to the storage root:
/// a git tree, the objects of an S3 prefix, or a folder. Nothing in it is clear text but
/// `match_version.txt` and the README.
public struct MatchFiles: Sendable, Equatable {
    public var files: [String: [UInt8]]

    public init(_ files: [String: [UInt8]] = [:]) { self.files = files }

    public subscript(path: String) -> [UInt8]? {
        get { files[path] }
        set { files[path] = newValue }
    }

    /// The stored files under `folder` with extension `ext`, sorted by path.
    public func paths(in folder: String, extension ext: String) -> [String] {
        files.keys.filter { $0.hasPrefix(folder + "/") && MatchLayout.fileExtension($0) == ext
            && !$0.dropFirst(folder.count + 1).contains("/") }.sorted()
    }

    /// Every encrypted file, sorted.
    public var encryptedPaths: [String] { files.keys.filter(MatchLayout.isEncrypted).sorted() }

    /// Reads every file under `root` (a checkout or a folder); `.git` is skipped.
    public static func read(folder root: String) throws(MatchError) -> MatchFiles {
        var files: [String: [UInt8]] = [:]
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .badOption(name: "storage_mode", problem: "folder \(root) does not exist")
        }
        guard let walker = manager.enumerator(atPath: root) else { throw .storage("cannot list \(root)") }
        while let relative = walker.nextObject() as? String {
            if relative == ".git" || relative.hasPrefix(".git/") { walker.skipDescendants(); continue }
            let full = root + "/" + relative
            guard manager.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            guard let data = manager.contents(atPath: full) else { throw .storage("cannot read \(full)") }
            files[relative] = Array(data)
        }
        return MatchFiles(files)
    }
}

extension MatchFiles {
    /// Writes every file under `root` (folders 0700, files 0600: they may be clear private keys),
    /// each atomically.
    public func write(into root: String) throws(MatchError) {
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            for (path, bytes) in files.sorted(by: { $0.key < $1.key }) {
                guard !path.split(separator: "/").contains("..") else { throw MatchError.damaged(file: path, problem: "a path outside the storage") }
                let full = "\(root)/\(path)"
                let parent = String(full[..<full.lastIndex(of: "/")!])
                try manager.createDirectory(atPath: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                let temporary = "\(full).tmp-\(getpid())"
                guard manager.createFile(atPath: temporary, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
                    throw MatchError.storage("cannot write \(full)")
                }
                guard rename(temporary, full) == 0 else {
                    unlink(temporary)
                    throw MatchError.storage("cannot write \(full): \(String(cString: strerror(errno)))")
                }
            }
        } catch let error as MatchError {
            throw error
        } catch {
            throw .storage("cannot write into \(root): \(error.localizedDescription)")
        }
    }
}
