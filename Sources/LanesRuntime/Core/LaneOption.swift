/// A typed option of a lane: `lanes deploy version:1.2.3`, read in the lane as `lane[version]`.
/// Resolved by the same `OptionResolver` as step options.
public struct LaneOption<Value: OptionValue>: Sendable, LaneOptionDeclaration {
    public let info: OptionInfo
    let defaultValue: Value?

    /// A required option, or one with a default (an optional `Value` may always be left out).
    public init(_ name: String, _ summary: String, env: String? = nil, secret: Bool = false,
                default defaultValue: Value? = nil) {
        let fallback = defaultValue ?? (Value.self as? any AbsentOptionValue.Type)?.absent as? Value
        self.defaultValue = fallback
        self.info = OptionInfo(
            name: name, summary: summary, typeName: Value.typeName, environmentVariables: env.map { [$0] } ?? [], isSecret: secret,
            defaultText: defaultValue.map(optionText(of:)), mayBeAbsent: fallback != nil,
            swiftName: name, swiftType: Value.swiftType, spelling: .labeled, accepts: { Value(optionText: $0) != nil })
    }
}

/// Any lane option, whatever its type: what `Lane(options:)` takes.
public protocol LaneOptionDeclaration: Sendable {
    var info: OptionInfo { get }
}
