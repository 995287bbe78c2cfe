import LanesGit

/// Times the parts of `lanes git info` in this process, to show where the time goes.
enum Breakdown {
    static func measure(_ path: String, runs: Int) throws -> [(String, [Double])] {
        var parts: [(String, [Double])] = [("open + head", []), ("commit count", []), ("status", []), ("last tag", [])]
        for _ in 0..<runs {
            var repository: Repository?
            parts[0].1.append(try Stopwatch.measure {
                repository = try Repository(discoveringFrom: path)
                _ = try repository!.head()
            })
            parts[1].1.append(try Stopwatch.measure { _ = try repository!.commitCount() })
            parts[2].1.append(try Stopwatch.measure { _ = try repository!.status() })
            parts[3].1.append(try Stopwatch.measure { _ = try repository!.lastTag() })
        }
        return parts
    }
}
