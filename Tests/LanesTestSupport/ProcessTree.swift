import Foundation

/// The command lines of a process and its descendants, from /proc (Linux), read once.
public enum ProcessTree {
    public static func commandLines(below root: Int32) -> [String] {
        var parents: [Int32: Int32] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = Int32(fields[1]) { parents[pid] = parent }
        }
        var tree: Set<Int32> = [root]
        var grew = true
        while grew {
            grew = false
            for (pid, parent) in parents where tree.contains(parent) && !tree.contains(pid) {
                tree.insert(pid)
                grew = true
            }
        }
        return tree.compactMap { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !data.isEmpty else { return nil }
            return String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
        }
    }
}
