import Foundation

/// Test data copied from ../shared/cron, located next to this file.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// One case of vectors.jsonl (produced by a reference build of Jenkins' scheduler classes).
    struct Vector: Decodable, Sendable {
        struct Tab: Decodable, Sendable {
            var minute: [Int]
            var hour: [Int]
            var dom: [Int]
            var month: [Int]
            var dow: [Int]
        }

        var id: String
        var category: String
        var spec: String
        var seed: String?
        var tz: String
        var start: String
        var ok: Bool
        var error: String?
        var warning: String?
        var tabs: [Tab]?
        var lanes_next: [String]?
        var tags: [String]

        var testDescription: String { "\(id) \(spec.debugDescription)" }
    }

    static let vectors: [Vector] = {
        let text = (try? String(contentsOf: directory.appendingPathComponent("vectors.jsonl"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            // A malformed fixture line should fail loudly, not shrink the suite.
            try! JSONDecoder().decode(Vector.self, from: Data(line.utf8))
        }
    }()
}

