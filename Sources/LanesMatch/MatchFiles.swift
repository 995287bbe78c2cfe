internal import LanesPlatform

/// What a match storage holds, as it is stored (encrypted), by path relative to the storage root:
/// a git tree, the objects of an S3 prefix, or a folder. Nothing in it is clear text but
/// `match_version.txt`.
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

    /// Reads the files the match layout names under `root` (`MatchLayout.isStoredFile`), within
    /// `limits`: regular files only (a link is not followed, a FIFO never opened), each read no
    /// further than its limit. Nothing else under `root` is read.
    public static func read(folder root: String, limits: MatchStorageLimits = .standard) throws(MatchError) -> MatchFiles {
        guard FilePath.isDirectory(root) else {
            throw .badOption(name: "storage_mode", problem: "folder \(root) does not exist")
        }
        var paths: [String] = []
        if isRegularFile(root + "/" + MatchLayout.versionFile) { paths.append(MatchLayout.versionFile) }
        for top in ["certs", "profiles"] where isFolder(root + "/" + top) {
            for kind in FilePath.entries(of: root + "/" + top).sorted() where MatchLayout.isStoredFolder(top + "/" + kind) {
                let folder = top + "/" + kind
                guard isFolder(root + "/" + folder) else { continue }
                for name in FilePath.entries(of: root + "/" + folder).sorted() where MatchLayout.isStoredFile(folder + "/" + name) {
                    guard isRegularFile(root + "/" + folder + "/" + name) else { continue }
                    paths.append(folder + "/" + name)
                    if paths.count > limits.files { throw limits.tooManyFiles(root) }
                }
            }
        }
        var files: [String: [UInt8]] = [:]
        var total = 0
        for path in paths {
            let bytes = try readFile(root + "/" + path, storedAs: path, limits: limits)
            total += bytes.count
            if total > limits.totalBytes { throw limits.tooMuch(root) }
            files[path] = bytes
        }
        return MatchFiles(files)
    }

    private static func readFile(_ full: String, storedAs path: String, limits: MatchStorageLimits) throws(MatchError) -> [UInt8] {
        let descriptor = open(full, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw .storage("cannot read \(full): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { throw .storage("\(full) is not a regular file") }
        if Int(info.st_size) > limits.fileBytes { throw limits.fileTooLarge(path, size: Int(info.st_size)) }
        switch FileDescriptorIO.readAll(from: descriptor, limit: limits.fileBytes) {
        case .complete(let bytes): return bytes
        case .tooLarge: throw limits.fileTooLarge(path, size: limits.fileBytes + 1)
        case .failed(let code): throw .storage("cannot read \(full): \(String(cString: strerror(code)))")
        }
    }

    private static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}

extension MatchFiles {
    /// Writes every file under `root`, each atomically: folders 0700, files 0600 (a folder
    /// storage, or files kept after a failed push: encrypted).
    public func write(into root: String) throws(MatchError) {
        try write(into: root) { bytes, path throws(AtomicFile.Failure) in
            try AtomicFile.write(bytes, to: path, permissions: 0o600)
        }
    }

    /// Writes clear files (private keys) under `root`, which must be the user's own: `root` and
    /// every folder below it are created 0700 or, when they exist, must be real folders owned by
    /// the user that nobody else may write (another user could make `/tmp/match-clear` first and
    /// watch it). Each file is created 0600 before a byte is written (`AtomicFile.writePrivate`).
    public func writePrivately(into root: String) throws(MatchError) {
        try write(into: root, privateFolders: true) { bytes, path throws(AtomicFile.Failure) in
            try AtomicFile.writePrivate(bytes, to: path)
        }
    }

    private func write(into root: String, privateFolders: Bool = false,
                       _ writeFile: ([UInt8], String) throws(AtomicFile.Failure) -> Void) throws(MatchError) {
        try prepare(root, private: privateFolders)
        for (path, bytes) in files.sorted(by: { $0.key < $1.key }) {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            guard !parts.isEmpty, !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
                throw .damaged(file: path, problem: "a path outside the storage")
            }
            var folder = root
            for part in parts.dropLast() {
                folder += "/" + part
                try prepare(folder, private: privateFolders)
            }
            do {
                try writeFile(bytes, "\(root)/\(path)")
            } catch {
                throw .storage(error.description)
            }
        }
    }

    private func prepare(_ folder: String, private: Bool) throws(MatchError) {
        if `private` {
            do {
                try PrivateFolder.prepare(folder)
            } catch {
                throw .storage("refusing to write clear files into \(folder): \(error.message)")
            }
        } else {
            do {
                try FilePath.makeDirectories(folder, mode: 0o700)
            } catch {
                throw .storage("cannot write into \(folder): \(error)")
            }
        }
    }
}
