/// `lanes help LANE` and `lanes LANE --help`: what the lane does, how to call it, its typed options
/// with their defaults, the variables and secrets it needs (names only, never values), its schedules.
struct LaneHelp {
    let lane: Lane
    let schedules: [LaneListing.ScheduleRow]

    var rendered: String {
        var lines = ["lanes \(lane.name): \(lane.summary)", ""]
        let optionWords = lane.options.map { option in
            option.isRequired ? "\(option.name):<\(option.typeName)>" : "[\(option.name):<\(option.typeName)>]"
        }
        lines.append((["usage: lanes", lane.name] + optionWords + ["[--env NAME[,NAME...]] [--json] [--junit PATH]"])
            .joined(separator: " "))
        if !lane.options.isEmpty {
            lines += ["", "Options:"]
            let width = lane.options.map { $0.name.count + $0.typeName.count + 1 }.max() ?? 0
            for option in lane.options {
                let head = "\(option.name):\(option.typeName)"
                var notes: [String] = []
                if option.isRequired { notes.append("required") }
                if let value = option.defaultText { notes.append("default: \(option.isSecret ? Redactor.mask : value)") }
                if let variable = option.environmentVariable { notes.append("env: \(variable)") }
                if option.isSecret { notes.append("secret") }
                let summary = option.summary + (notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))")
                lines.append("  " + head + String(repeating: " ", count: width - head.count + 2) + summary)
            }
        }
        if !lane.requiredEnvironment.isEmpty {
            lines += ["", "Environment (checked before the first step):"] + lane.requiredEnvironment.map { "  \($0)" }
        }
        if !lane.requiredTools.isEmpty {
            lines += ["", "Tools (checked on PATH before the first step):"] + lane.requiredTools.map { "  \($0)" }
        }
        if !lane.requiredSecrets.isEmpty {
            lines += ["", "Secrets (redacted from all output):"] + lane.requiredSecrets.map { "  \($0)" }
        }
        if !schedules.isEmpty {
            lines += ["", "Schedule:"] + schedules.map { "  " + LaneListing.summary(of: $0) }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
