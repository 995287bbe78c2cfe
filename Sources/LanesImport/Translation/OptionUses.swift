/// How a lane uses each of its options (`options[:key]`), read before the lane is translated, so the
/// option's type comes from every use and not from the first: text, unless every use only tests it
/// (`if options[:skip]`, `options[:release] || false`, `unless release`), which makes it a flag.
/// A local set from an option (`release = options[:release] || false`) is followed: its uses are the option's.
struct OptionUses {
    /// Option key to whether every use of it is a test.
    private(set) var onlyTested: [String: Bool] = [:]
    /// Keys in the order the lane first reads them.
    private(set) var keys: [String] = []
    private var aliases: [String: String] = [:]
    private let parameter: String

    init(body: [RubyNode], optionsParameter: String) {
        parameter = optionsParameter
        // Aliases first, so a use before the alias's own line still counts.
        for statement in body { statement.walk { node in noteAlias(node) } }
        for statement in body { visit(statement, tested: false) }
    }

    /// The key an `options[:key]` or `options.fetch(:key)` node reads.
    private func key(of node: RubyNode) -> String? {
        switch node {
        case .index(.name(let name, _), let keys, _) where name == parameter && keys.count == 1: return keys[0].symbolText
        case .call(let call) where call.name == "fetch" || call.name == "[]":
            guard case .name(let name, _)? = call.receiver, name == parameter else { return nil }
            return call.arguments.first?.symbolText
        default: return nil
        }
    }

    private mutating func noteAlias(_ node: RubyNode) {
        guard case .assign(.name(let local, _), let value, nil, _) = node else { return }
        if let key = key(of: value) { aliases[local] = key }
        if case .binary("||", let left, let right, _) = value, let key = key(of: left), case .bool = right { aliases[local] = key }
    }

    private mutating func use(_ key: String, tested: Bool) {
        if onlyTested[key] == nil { keys.append(key) }
        onlyTested[key] = (onlyTested[key] ?? true) && tested
    }

    private mutating func visit(_ node: RubyNode, tested: Bool) {
        if let key = key(of: node) { use(key, tested: tested); return }
        switch node {
        case .name(let local, _):
            if let key = aliases[local] { use(key, tested: tested) }
        case .assign(.name(let local, _), let value, nil, _) where aliases[local] != nil:
            // `release = options[:release] || false`: the alias's uses decide; a text default makes it text.
            if key(of: value) == nil, case .binary("||", let left, let right, _) = value, key(of: left) != nil {
                visit(right, tested: false)
            }
        case .ifNode(let condition, let then, let otherwise, _):
            visit(condition, tested: true)
            for statement in then + (otherwise ?? []) { visit(statement, tested: false) }
        case .whileNode(let condition, let body, _, _):
            visit(condition, tested: true)
            for statement in body { visit(statement, tested: false) }
        case .ternary(let test, let then, let otherwise, _):
            visit(test, tested: true)
            visit(then, tested: tested)
            visit(otherwise, tested: tested)
        case .unary("!", let operand, _):
            visit(operand, tested: true)
        case .binary(let op, let left, let right, _) where op == "&&" || op == "||":
            // In a test both sides are tested; `x || false` is a flag with a default.
            if case .bool = right { visit(left, tested: true) } else { visit(left, tested: tested) }
            visit(right, tested: tested)
        case .binary(let op, let left, let right, _) where op == "==" || op == "!=":
            let flag: (RubyNode) -> Bool = { node in
                if case .bool = node { return true }
                return node.symbolText == "true" || node.symbolText == "false"
            }
            visit(left, tested: flag(right))
            visit(right, tested: flag(left))
        case .call(let call) where call.receiver != nil && ["nil?", "!"].contains(call.name):
            visit(call.receiver!, tested: true)
        default:
            for child in node.children { visit(child, tested: false) }
        }
    }
}
