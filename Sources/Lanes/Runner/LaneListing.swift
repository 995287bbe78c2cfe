/// `lanes list`: the lanes as values, from the compiled Lanefile, never by scanning its text.
struct LaneListing {
    let lanefile: Lanefile

    func render(json: Bool) -> String {
        json ? JSONValue.array(lanefile.lanes.map(describe)).serialized + "\n" : table
    }

    private func describe(_ lane: Lane) -> JSONValue {
        .object([
            ("name", .string(lane.name)),
            ("description", .string(lane.summary)),
            ("options", .array(lane.options.map(describe))),
            ("environment", .array(lane.requiredEnvironment.map { .string($0) })),
            ("secrets", .array(lane.requiredSecrets.map { .string($0) })),
            ("schedules", .array(lane.schedules.map { .string($0) })),
        ])
    }

    private func describe(_ option: OptionInfo) -> JSONValue {
        .object([
            ("name", .string(option.name)),
            ("type", .string(option.typeName)),
            ("summary", .string(option.summary)),
            ("env", option.environmentVariable.map { .string($0) } ?? .null),
            ("secret", .bool(option.isSecret)),
            ("required", .bool(option.isRequired)),
            ("default", option.defaultText.map { .string($0) } ?? .null),
        ])
    }

    private var table: String {
        guard !lanefile.lanes.isEmpty else { return "The Lanefile defines no lanes.\n" }
        let rows = lanefile.lanes.map { lane in
            let options = lane.options.map { "\($0.name):\($0.typeName)" }.joined(separator: " ")
            return [lane.name, lane.summary, options, lane.schedules.joined(separator: "; ")]
        }
        return TextTable(header: ["Lane", "Description", "Options", "Schedule"], rows: rows).rendered + "\n"
    }
}
