import LanesSchedule

/// A lane's last runs as an inline SVG: one bar per run, oldest on the left, its height the run's
/// duration and its colour the outcome. No script, no external file (the CSP allows neither).
enum TrendChart {
    static let width = 240
    static let height = 36

    static func svg(_ runsNewestFirst: [RunRecord], lane: String) -> String {
        let runs = Array(runsNewestFirst.prefix(30).reversed())
        let durations = runs.map(duration)
        let longest = max(durations.max() ?? 0, 1)
        let slot = Double(width) / 30
        var bars = ""
        for (index, run) in runs.enumerated() {
            let barHeight = max(3, Double(height - 2) * durations[index] / longest)
            let x = Double(index) * slot
            let title = "#\(run.id) \(run.status.rawValue), \(format(durations[index]))"
            bars += "<rect class=\"bar \(statusClass(run.status))\" x=\"\(format2(x))\" y=\"\(format2(Double(height) - barHeight))\" width=\"\(format2(slot - 2))\" height=\"\(format2(barHeight))\"><title>\(HTML.escape(title))</title></rect>"
        }
        let passed = runs.filter { $0.status == .succeeded }.count
        let label = "\(lane): \(passed) of \(runs.count) recent runs succeeded"
        return "<svg class=\"trend\" role=\"img\" aria-label=\"\(HTML.escape(label))\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" xmlns=\"http://www.w3.org/2000/svg\">\(bars)</svg>"
    }

    static func duration(_ run: RunRecord) -> Double {
        guard let started = run.started, let ended = run.ended else { return 0 }
        return max(0, ended.secondsSince1970 - started.secondsSince1970)
    }

    static func statusClass(_ status: RunStatus) -> String {
        switch status {
        case .succeeded: "ok"
        case .failed, .interrupted: "bad"
        case .starting, .running: "active"
        case .cancelled, .missed, .skipped: "other"
        }
    }

    static func format(_ seconds: Double) -> String {
        seconds < 60 ? "\(format2(seconds)) s" : "\(Int(seconds) / 60) min \(Int(seconds) % 60) s"
    }

    static func format2(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
