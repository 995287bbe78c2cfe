/// Ruby's instance variables (`@name`) and globals (`$name`) in a Fastfile belong to the run, not to
/// a lane: a method sets `@keychain_name` and another method or lane reads it. A name that more than
/// one body touches (a lane, a hook or a `def` method), or that a body reads without setting it, is
/// kept in one `FastfileVariables` object for the run; a name one body sets and reads stays a local.
enum SharedVariables {
    /// The `@name`/`$name` names the bodies share.
    static func shared(in bodies: [[RubyNode]]) -> Set<String> {
        var touchedBy: [String: Int] = [:]
        var shared: Set<String> = []
        for body in bodies {
            var assigned: Set<String> = []
            var read: Set<String> = []
            for statement in body {
                statement.walk { node in
                    if case .assign(let target, _, _, _) = node, let name = target.laneVariableName, isSigilled(name) { assigned.insert(name) }
                    if case .multipleAssign(let targets, _, _) = node {
                        for target in targets { if let name = target.laneVariableName, isSigilled(name) { assigned.insert(name) } }
                    }
                    switch node {
                    case .instanceVariable, .globalVariable:
                        if let name = node.laneVariableName { read.insert(name) }
                    default: break
                    }
                }
            }
            // An assignment's target is walked too: only a name read somewhere else than as a target counts as read.
            for name in assigned.union(read) { touchedBy[name, default: 0] += 1 }
            for name in read where !assigned.contains(name) { shared.insert(name) }
        }
        for (name, count) in touchedBy where count > 1 { shared.insert(name) }
        return shared
    }

    static func isSigilled(_ name: String) -> Bool { name.hasPrefix("@") || name.hasPrefix("$") }

    /// The Swift type of a property holding a value of `kind` (every property may be nil, as Ruby's are before set).
    static func propertyType(_ kind: SwiftValue.Kind) -> String? {
        switch kind {
        case .string, .optionalString: "String?"
        case .bool, .optionalBool: "Bool?"
        case .int: "Int?"
        case .double: "Double?"
        case .strings: "[String]?"
        case .secret: "Secret?"
        case .dictionary: "[String: String]?"
        case .result(let type): type.hasSuffix("?") ? type : type + "?"
        case .void, .nilLiteral: nil
        }
    }

    /// One kind for two assignments of a name (`String` then `String?`), or nil when they differ.
    static func unify(_ a: SwiftValue.Kind, _ b: SwiftValue.Kind) -> SwiftValue.Kind? {
        if a == b { return a }
        let pairs: [(SwiftValue.Kind, SwiftValue.Kind, SwiftValue.Kind)] = [
            (.string, .optionalString, .optionalString), (.bool, .optionalBool, .optionalBool),
            (.string, .nilLiteral, .optionalString), (.optionalString, .nilLiteral, .optionalString),
            (.result("String"), .string, .string), (.result("String?"), .optionalString, .optionalString),
            (.result("String?"), .string, .optionalString), (.result("String"), .optionalString, .optionalString),
        ]
        for (x, y, unified) in pairs where (a == x && b == y) || (a == y && b == x) { return unified }
        if case .result(let type) = a, b == .nilLiteral { return .result(type) }
        if case .result(let type) = b, a == .nilLiteral { return .result(type) }
        return nil
    }
}

extension FastfileTranslator {
    /// The property of `FastfileVariables` that holds `@name` or `$name`.
    func sharedProperty(_ name: String) -> String {
        swiftIdentifier(camelCase(String(name.drop { $0 == "@" || $0 == "$" })))
    }

    /// Reading a shared `@name`: text and flags as optionals (Ruby's nil before it is set, "" in text);
    /// any other value must have been set, or the lane stops there as fastlane's action would on nil.
    mutating func sharedRead(_ name: String) throws -> SwiftValue {
        guard let kind = sharedKinds[name] ?? knownSharedKinds[name] else {
            sharedReadBeforeKnown = true
            throw Untranslatable("\(name), which no lane, hook or method of the Fastfile sets to a value the importer can type")
        }
        usesSharedVariables = true
        let property = "fastfile." + sharedProperty(name)
        switch kind {
        case .string, .optionalString, .result("String"), .result("String?"): return SwiftValue(property, .optionalString)
        case .bool, .optionalBool: return SwiftValue(property, .optionalBool)
        case .result(let type) where type.hasSuffix("?"): return SwiftValue(property, kind)
        default:
            return SwiftValue("(try requireValue(\(property), \(SwiftText.literal("\(name) of the Fastfile"))))", kind)
        }
    }

    /// `@name = value` for a shared name: the property takes the value (its type is every assignment's).
    mutating func sharedAssign(_ name: String, value: RubyNode, op: String?, line: Int, into emitter: inout LanefileEmitter) throws {
        let property = "fastfile." + sharedProperty(name)
        if let op {
            let current = try sharedRead(name)
            let right = try expression(value)
            switch (op, current.kind, right.kind) {
            case ("||", .optionalString, _):
                guard let text = right.asString else { throw Untranslatable("`||=` with a value that is not text") }
                emitShared("\(property) = \(property) ?? \(text)", line: line, into: &emitter)
            case ("+", .optionalString, _):
                guard let text = right.asString else { throw Untranslatable("`+=` with a value that is not text") }
                emitShared("\(property) = (\(property) ?? \"\") + \(text)", line: line, into: &emitter)
            case ("+", .int, .int), ("-", .int, .int):
                emitShared("\(property) = \(current.code) \(op) \(right.code)", line: line, into: &emitter)
            default:
                throw Untranslatable("`\(op)=` on \(name)")
            }
            return
        }
        var right = try expression(value, assigning: true)
        if right.kind == .void { throw Untranslatable("the value of an action that returns nothing in lanes") }
        if right.kind == .nilLiteral { right = SwiftValue("nil", .nilLiteral) }
        let known = sharedKinds[name] ?? knownSharedKinds[name]
        var kind = right.kind
        if let known {
            guard let unified = SharedVariables.unify(known, right.kind) else {
                throw Untranslatable("\(name) changes type (\(known) to \(right.kind))")
            }
            kind = unified
        }
        guard SharedVariables.propertyType(kind) != nil else { throw Untranslatable("\(name) set to a value the importer cannot type") }
        sharedKinds[name] = kind
        usesSharedVariables = true
        emitShared("\(property) = \(right.code)", line: line, into: &emitter)
    }

    private mutating func emitShared(_ text: String, line: Int, into emitter: inout LanefileEmitter) {
        for hoisted in prelude { emitter.emit(hoisted, source: line) }
        prelude = []
        emitter.emit(text, source: line)
    }

    /// The class of the run's shared variables, and the one object of it every lane, hook and method reads.
    func sharedDeclaration() -> LanefileEmitter {
        var lines = LanefileEmitter()
        let kinds = knownSharedKinds.merging(sharedKinds) { _, new in new }
        lines.emit("", source: nil)
        lines.emit("/// The Fastfile's instance variables (`@name`) and globals (`$name`): Ruby keeps them for the whole run,", source: nil)
        lines.emit("/// shared by its lanes, hooks and methods. A runner process runs one lane at a time, so one object is enough.", source: nil)
        lines.emit("final class FastfileVariables: @unchecked Sendable {", source: nil)
        for (name, kind) in kinds.sorted(by: { $0.key < $1.key }) {
            guard let type = SharedVariables.propertyType(kind) else { continue }
            lines.emit("    /// `\(SwiftText.commentLine(name))`", source: nil)
            lines.emit("    var \(sharedProperty(name)): \(type)", source: nil)
        }
        lines.emit("}", source: nil)
        lines.emit("", source: nil)
        lines.emit("let fastfile = FastfileVariables()", source: nil)
        return lines
    }
}
