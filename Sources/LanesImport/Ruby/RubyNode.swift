/// The Ruby a Fastfile is made of, as a tree with positions. Only the subset fastlane users write;
/// anything else is `.unreadable` with its original text.
indirect enum RubyNode: Sendable {
    case string([RubyStringPart], SourcePosition)
    case command([RubyStringPart], SourcePosition)      // `...`
    case symbol(String, SourcePosition)
    case integer(String, SourcePosition)
    case float(String, SourcePosition)
    case bool(Bool, SourcePosition)
    case nilValue(SourcePosition)
    case selfValue(SourcePosition)
    case regex(String, SourcePosition)
    case array([RubyNode], SourcePosition)
    case hash([RubyPair], SourcePosition)
    /// A bare name: a local variable, or a method called without arguments.
    case name(String, SourcePosition)
    case constant(String, SourcePosition)                 // `UI`, `SharedValues::IPA_OUTPUT_PATH` (joined with ::)
    case instanceVariable(String, SourcePosition)
    case globalVariable(String, SourcePosition)
    case call(RubyCall)
    case index(RubyNode, [RubyNode], SourcePosition)
    case assign(target: RubyNode, value: RubyNode, op: String?, SourcePosition)
    case multipleAssign([RubyNode], RubyNode, SourcePosition)
    case binary(String, RubyNode, RubyNode, SourcePosition)
    case unary(String, RubyNode, SourcePosition)
    case ternary(RubyNode, RubyNode, RubyNode, SourcePosition)
    case range(RubyNode?, RubyNode?, exclusive: Bool, SourcePosition)
    case ifNode(RubyNode, [RubyNode], [RubyNode]?, SourcePosition)       // unless is `!cond`; elsif nests in else
    case whileNode(RubyNode, [RubyNode], until: Bool, SourcePosition)
    case caseNode(RubyNode?, [RubyWhen], [RubyNode]?, SourcePosition)
    case begin([RubyNode], [RubyRescue], elseBody: [RubyNode]?, ensure: [RubyNode]?, SourcePosition)
    case forNode([String], RubyNode, [RubyNode], SourcePosition)
    case returnNode(RubyNode?, SourcePosition)
    case next(RubyNode?, SourcePosition)
    case breakNode(SourcePosition)
    case splat(RubyNode, SourcePosition)
    case blockPass(RubyNode, SourcePosition)
    case lambda(RubyBlock, SourcePosition)
    case defined(RubyNode, SourcePosition)
    case sequence([RubyNode], SourcePosition)
    /// `def name(parameters) ... end`: a helper method of the Fastfile.
    case def(RubyMethod)
    /// What the parser cannot read: the original text and where it starts.
    case unreadable(text: String, reason: String, SourcePosition)

    var position: SourcePosition {
        switch self {
        case .string(_, let p), .command(_, let p), .symbol(_, let p), .integer(_, let p), .float(_, let p), .bool(_, let p),
             .nilValue(let p), .selfValue(let p), .regex(_, let p), .array(_, let p), .hash(_, let p), .name(_, let p),
             .constant(_, let p), .instanceVariable(_, let p), .globalVariable(_, let p), .index(_, _, let p),
             .assign(_, _, _, let p), .multipleAssign(_, _, let p), .binary(_, _, _, let p), .unary(_, _, let p),
             .ternary(_, _, _, let p), .range(_, _, _, let p), .ifNode(_, _, _, let p), .whileNode(_, _, _, let p),
             .caseNode(_, _, _, let p), .begin(_, _, _, _, let p), .forNode(_, _, _, let p), .returnNode(_, let p), .next(_, let p),
             .breakNode(let p), .splat(_, let p), .blockPass(_, let p), .lambda(_, let p), .defined(_, let p), .sequence(_, let p),
             .unreadable(_, _, let p):
            p
        case .call(let call): call.position
        case .def(let method): method.position
        }
    }
}

enum RubyStringPart: Sendable {
    case text(String)
    case code(RubyNode)
}

struct RubyPair: Sendable {
    let key: RubyNode
    let value: RubyNode
}

/// `receiver.name(arguments) do |parameters| body end`, or a command call without parentheses.
struct RubyCall: Sendable {
    let receiver: RubyNode?
    let name: String
    let arguments: [RubyNode]
    /// `key: value` and `"key" => value` arguments, in order.
    let keywords: [RubyPair]
    let block: RubyBlock?
    let position: SourcePosition
    let hasParentheses: Bool
    let safeNavigation: Bool

    /// The value of keyword `key:` (a symbol or label key).
    func keyword(_ key: String) -> RubyNode? {
        keywords.first { $0.key.symbolText == key }?.value
    }
}

struct RubyBlock: Sendable {
    let parameters: [String]
    let body: [RubyNode]
    let position: SourcePosition
    /// The `name: default` parameters (also listed in `parameters`): a lane's options as Ruby keywords.
    var keywords: [RubyMethod.Parameter] = []
}

struct RubyMethod: Sendable {
    struct Parameter: Sendable {
        let name: String
        /// `name:` rather than positional.
        let keyword: Bool
        let defaultValue: RubyNode?
    }

    let name: String
    let parameters: [Parameter]
    let body: [RubyNode]
    let position: SourcePosition
}

struct RubyWhen: Sendable {
    let values: [RubyNode]
    let body: [RubyNode]
}

struct RubyRescue: Sendable {
    let classes: [String]
    let variable: String?
    let body: [RubyNode]
}

extension RubyNode {
    /// The name a lane may use as a local although Ruby keeps it beyond the lane: a plain constant
    /// (`BUILD_NUMBER`, not `Foo::BAR`), an instance variable (`@name`) or a user global (`$name`, not `$?`).
    var laneVariableName: String? {
        switch self {
        case .constant(let name, _) where !name.contains(":"): return name
        case .instanceVariable(let name, _) where name.count > 1 && !name.hasPrefix("@@"): return name
        case .globalVariable(let name, _):
            let rest = name.dropFirst()
            guard let first = rest.first, first.isLetter || first == "_", rest.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
            return name
        default: return nil
        }
    }

    /// The text of a symbol or of a string without interpolation.
    var symbolText: String? {
        switch self {
        case .symbol(let text, _): return text
        case .string(let parts, _):
            var text = ""
            for part in parts {
                guard case .text(let piece) = part else { return nil }
                text += piece
            }
            return text
        default: return nil
        }
    }

    /// Every node below this one (this one included), in source order, for counting action calls.
    /// A loop over a stack, not a call per level: `"a" + "b" + ...` is as deep as it has terms.
    func walk(_ visit: (RubyNode) -> Void) {
        var pending: [RubyNode] = [self]
        while let node = pending.popLast() {
            visit(node)
            pending.append(contentsOf: node.children.reversed())
        }
    }

    /// The nodes directly below this one, in source order.
    var children: [RubyNode] {
        switch self {
        case .string(let parts, _), .command(let parts, _):
            return parts.compactMap { if case .code(let node) = $0 { node } else { nil } }
        case .array(let items, _): return items
        case .hash(let pairs, _): return pairs.flatMap { [$0.key, $0.value] }
        case .call(let call):
            return (call.receiver.map { [$0] } ?? []) + call.arguments + call.keywords.map(\.value) + (call.block?.body ?? [])
        case .index(let base, let items, _): return [base] + items
        case .assign(let target, let value, _, _): return [target, value]
        case .multipleAssign(let targets, let value, _): return targets + [value]
        case .binary(_, let left, let right, _): return [left, right]
        case .unary(_, let operand, _), .splat(let operand, _), .blockPass(let operand, _), .defined(let operand, _): return [operand]
        case .ternary(let a, let b, let c, _): return [a, b, c]
        case .range(let a, let b, _, _): return [a, b].compactMap { $0 }
        case .ifNode(let condition, let then, let otherwise, _): return [condition] + then + (otherwise ?? [])
        case .whileNode(let condition, let body, _, _): return [condition] + body
        case .caseNode(let subject, let whens, let otherwise, _):
            return (subject.map { [$0] } ?? []) + whens.flatMap { $0.values + $0.body } + (otherwise ?? [])
        case .begin(let body, let rescues, let elseBody, let ensure, _):
            return body + rescues.flatMap(\.body) + (elseBody ?? []) + (ensure ?? [])
        case .forNode(_, let sequence, let body, _): return [sequence] + body
        case .returnNode(let value, _), .next(let value, _): return value.map { [$0] } ?? []
        case .lambda(let block, _): return block.body
        case .def(let method): return method.body
        case .sequence(let nodes, _): return nodes
        default: return []
        }
    }
}
