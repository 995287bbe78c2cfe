import Foundation
import LanesPlatform

/// What a run's log says about its steps. The daemon runs lanes with the terminal reporter, whose
/// output is the log: step banners (`[12:00:01] --- 2. sh: ...`), the summary table
/// (`| # | Step | Duration | Result |`) and, on failure, `error: lane X failed`, the failing step and
/// the indented error. This reads those lines back; `RunLogTests` pins them against a real run.
public struct RunLogSummary: Sendable, Hashable {
    public struct Step: Sendable, Hashable {
        public let index: Int
        public let id: String
        /// As the summary table shows it: `0.012 s`.
        public let duration: String
        public let succeeded: Bool
    }

    public var steps: [Step] = []
    /// The failing step's banner line, e.g. `2. sh: sh -c exit 3`.
    public var failingStep: String?
    /// The error the lane failed with, as the log shows it.
    public var error: String?

    public init(log: String) {
        var lines = log.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
        var inTable = false
        // Columns are read by their header's names, so a column added to the table (`What`) is skipped.
        var columns: [String: Int] = [:]
        while let line = lines.popFirst() {
            if line.hasPrefix("| # ") && line.contains("| Step ") {
                inTable = true
                let names = line.split(separator: "|").map { $0.trimmingSpaces }
                columns = Dictionary(names.enumerated().map { ($0.element, $0.offset) }) { first, _ in first }
                continue
            }
            if inTable, line.hasPrefix("| ") {
                let cells = line.split(separator: "|").map { $0.trimmingSpaces }
                if cells.count == columns.count, let index = Int(cells[0]), let step = columns["Step"],
                   let duration = columns["Duration"], let result = columns["Result"] {
                    steps.append(Step(index: index, id: cells[step], duration: cells[duration], succeeded: cells[result] == "ok"))
                }
                continue
            }
            if inTable, !line.hasPrefix("+") { inTable = false }
            if line.hasPrefix("error: lane ") {
                var errorLines: [String] = []
                while let next = lines.first, next.hasPrefix("  ") {
                    lines.removeFirst()
                    if failingStep == nil, next.hasPrefix("  failing step: ") {
                        failingStep = String(next.dropFirst("  failing step: ".count))
                    } else {
                        errorLines.append(String(next.dropFirst(2)))
                    }
                }
                error = errorLines.joined(separator: "\n")
            }
        }
    }
}

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

    /// The log's bytes from `offset` on (at most `maximum` of them), or nil when it is outside the
    /// folder, not a regular file, or unreadable. Only the bytes asked for are read, so a reader
    /// following a long log costs what it has not seen yet, not the whole file on every poll.
    public func read(_ path: String, from offset: Int = 0, maximum: Int = Int.max) -> [UInt8]? {
        guard let resolved = contained(path) else { return nil }
        // Non-blocking: a FIFO planted as a log must not hang the page; only regular files are read.
        let descriptor = open(resolved, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let available = Int(info.st_size) - max(0, offset)
        guard available > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: min(available, maximum))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, $0.count - filled, off_t(offset + filled)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        return Array(bytes[..<filled])
    }
}
