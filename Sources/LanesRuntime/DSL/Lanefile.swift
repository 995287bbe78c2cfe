internal import LanesPlatform

/// The lanes of a project and the hooks around them: what `Lanefile.swift` defines as `let lanes`.
public struct Lanefile: Sendable {
    public let lanes: [Lane]
    /// The signing material its configurations use, when the Lanefile declares it (`CodeSigning`).
    public let codeSigning: CodeSigningDeclaration?
    /// Steps from Swift packages (`lanes/Package.swift`) this Lanefile registers, so `lanes actions`,
    /// `lanes run` and `lanes help` know them; lanes' own steps are always known.
    public let steps: [any Step.Type]
    /// What this Lanefile declares, so another Lanefile (a package's shared lanes) can include it.
    let items: [LanefileItem]
    /// Where `Lanefile(steps:)` is written, for errors about the steps it registers.
    let sourceLine: Int
    let beforeEach: [nonisolated(nonsending) @Sendable (Lane) async throws -> Void]
    let afterSuccess: [nonisolated(nonsending) @Sendable (Lane) async throws -> Void]
    let onError: [nonisolated(nonsending) @Sendable (Lane, any Error) async throws -> Void]
    let finally: [nonisolated(nonsending) @Sendable (Lane) async throws -> Void]
    private let codeSigningCount: Int

    /// `steps`: step types from packages, registered for `lanes actions` and `lanes run`. Lanes,
    /// hooks and steps of another `Lanefile` value (one a package exports) are included by naming it
    /// among the lanes.
    public init(steps: [any Step.Type] = [], line: Int = #line, @LanefileBuilder _ content: () -> [LanefileItem]) {
        self.init(steps: steps, line: line, items: content())
    }

    /// What the driver compiles a `Lanefile { ... }` block into: its entries, each made by
    /// `__lanefileEntry` in a declaration of its own, so that Swift type-checks the lanes one by one
    /// instead of as one expression (whose time grows with the square of its statements). The value
    /// is the one the block makes. Not for Lanefiles to call; see `LanefileSplitter` in the driver.
    public init(steps: [any Step.Type] = [], line: Int = #line, __entries entries: [LanefileItem]...) {
        self.init(steps: steps, line: line, items: entries.flatMap { $0 })
    }

    private init(steps: [any Step.Type], line: Int, items content: [LanefileItem]) {
        let items = (steps.isEmpty ? [] : [LanefileItem(kind: .steps(steps))]) + content
        var registered: [any Step.Type] = []
        var lanes: [Lane] = []
        var beforeEach: [nonisolated(nonsending) @Sendable (Lane) async throws -> Void] = []
        var afterSuccess: [nonisolated(nonsending) @Sendable (Lane) async throws -> Void] = []
        var onError: [nonisolated(nonsending) @Sendable (Lane, any Error) async throws -> Void] = []
        var finally: [nonisolated(nonsending) @Sendable (Lane) async throws -> Void] = []
        var codeSigning: [CodeSigningDeclaration] = []
        for item in items {
            switch item.kind {
            case .steps(let types):
                for type in types where !registered.contains(where: { ObjectIdentifier($0) == ObjectIdentifier(type) }) { registered.append(type) }
            case .lane(let lane): lanes.append(lane)
            case .beforeEach(let hook): beforeEach.append(hook)
            case .afterSuccess(let hook): afterSuccess.append(hook)
            case .onError(let hook): onError.append(hook)
            case .finally(let hook): finally.append(hook)
            case .codeSigning(let declaration): codeSigning.append(declaration)
            }
        }
        self.lanes = lanes
        self.steps = registered
        self.items = items
        self.sourceLine = line
        self.codeSigning = codeSigning.first
        self.codeSigningCount = codeSigning.count
        self.beforeEach = beforeEach
        self.afterSuccess = afterSuccess
        self.onError = onError
        self.finally = finally
    }

    /// The lane `name`; `hotfix-start` also finds `hotfix_start` (a lane name is an identifier, and
    /// fastlane's lanes are often named with dashes: the command its team types keeps working).
    public func lane(named name: String) -> Lane? {
        lanes.first { $0.name == name } ?? (name.contains("-") ? lanes.first { $0.name == name.replacing("-", with: "_") } : nil)
    }

    /// Mistakes only visible once the lanes exist as values: two lanes with one name, a lane
    /// named like a subcommand (which always wins, so the lane could never run), and names that
    /// are not identifiers: a lane's name becomes a command-line word, a file name and a job name
    /// in every export, and a variable's or secret's name an environment variable's.
    func validate() throws {
        var problems: [String] = []
        for lane in lanes {
            if !Self.isIdentifier(lane.name) {
                problems.append("lane \(String(reflecting: lane.name)) is not a valid lane name: use letters, digits and _, "
                    + "starting with a letter or _ (it becomes a command-line word, a file name and a job name)")
            }
            for (kind, names) in [("environment variable", lane.requiredEnvironment), ("secret", lane.requiredSecrets)] {
                for name in names where !Self.isIdentifier(name) {
                    problems.append("lane \(String(reflecting: lane.name)) declares the \(kind) \(String(reflecting: name)), "
                        + "which is not a valid environment variable name: use letters, digits and _, starting with a letter or _")
                }
            }
        }
        let byName = Dictionary(grouping: lanes, by: \.name)
        let subcommands = Subcommands.names
        for name in byName.keys.sorted() {
            let same = byName[name] ?? []
            if same.count > 1 {
                let summaries = same.map { "\"\($0.summary)\"" }.joined(separator: " and ")
                problems.append("lane '\(name)' is defined \(same.count) times: \(summaries)")
            }
            if subcommands.contains(name) {
                problems.append("lane '\(name)' has the name of the subcommand `lanes \(name)`, which would always run instead")
            }
        }
        if codeSigningCount > 1 {
            problems.append("CodeSigning is declared \(codeSigningCount) times; declare it once, with every configuration")
        }
        if let codeSigning {
            for name in Set(codeSigning.configurations.map(\.name)).sorted()
            where codeSigning.configurations.filter({ $0.name == name }).count > 1 {
                problems.append("CodeSigning lists the configuration \(name) more than once")
            }
        }
        problems += stepProblems()
        guard problems.isEmpty else {
            throw ValidationErrors(kind: .configuration, problems: problems.map { "Lanefile.swift: \($0)" })
        }
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`, in ASCII.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || (first | 0x20) >= UInt8(ascii: "a") && (first | 0x20) <= UInt8(ascii: "z")
        else { return false }
        return name.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "_") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z"))
        }
    }
}

extension Lanefile {
    /// A registered step by id.
    public func step(id: String) -> (any Step.Type)? {
        steps.first { $0.definition.id == id }
    }

    /// Two steps with one id (two packages, or a package and lanes itself) would make `lanes run ID`
    /// ambiguous: name both modules and the line that registers them.
    func stepProblems() -> [String] {
        // Most Lanefiles register no step: every start would read every built-in definition for nothing.
        guard !steps.isEmpty else { return [] }
        var owners: [String: String] = [:]
        for type in StepCatalog.builtIn { owners[type.definition.id] = "lanes" }
        var problems: [String] = []
        for type in steps {
            let id = type.definition.id
            let module = StepInfo.module(of: type)
            if let owner = owners[id] {
                problems.append("line \(sourceLine): the step id '\(id)' is declared by both \(owner) and the package module \(module); rename one (StepDefinition id:)")
            } else {
                owners[id] = module
            }
        }
        return problems
    }
}

/// One entry of a Lanefile: a lane or a hook.
public struct LanefileItem: Sendable {
    enum Kind: Sendable {
        // Lane bodies and hooks run on their caller's executor (`nonisolated(nonsending)`), as the step
        // functions do: a call between them needs no hop back, which halves a lane body's suspension
        // points and with them the code its compile generates (ARCHITECTURE.md, "Compile on a miss").
        typealias LaneHook = nonisolated(nonsending) @Sendable (Lane) async throws -> Void
        typealias LaneErrorHook = nonisolated(nonsending) @Sendable (Lane, any Error) async throws -> Void
        case lane(Lane)
        case beforeEach(LaneHook)
        case afterSuccess(LaneHook)
        case onError(LaneErrorHook)
        case finally(LaneHook)
        case codeSigning(CodeSigningDeclaration)
        case steps([any Step.Type])
    }
    let kind: Kind
}

@resultBuilder
public enum LanefileBuilder {
    public static func buildExpression(_ lane: Lane) -> [LanefileItem] { [LanefileItem(kind: .lane(lane))] }
    public static func buildExpression(_ item: LanefileItem) -> [LanefileItem] { [item] }
    /// Another Lanefile's lanes, hooks and steps: how a package shares them.
    public static func buildExpression(_ lanefile: Lanefile) -> [LanefileItem] { lanefile.items }
    public static func buildBlock(_ parts: [LanefileItem]...) -> [LanefileItem] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [LanefileItem]?) -> [LanefileItem] { part ?? [] }
    public static func buildEither(first part: [LanefileItem]) -> [LanefileItem] { part }
    public static func buildEither(second part: [LanefileItem]) -> [LanefileItem] { part }
    public static func buildArray(_ parts: [[LanefileItem]]) -> [LanefileItem] { parts.flatMap { $0 } }
}

/// One entry of a `Lanefile { ... }` block as the driver compiles it (see `Lanefile(__entries:)`):
/// what `LanefileBuilder.buildExpression` makes of it.
public func __lanefileEntry(_ lane: Lane) -> [LanefileItem] { LanefileBuilder.buildExpression(lane) }
public func __lanefileEntry(_ item: LanefileItem) -> [LanefileItem] { LanefileBuilder.buildExpression(item) }
public func __lanefileEntry(_ lanefile: Lanefile) -> [LanefileItem] { LanefileBuilder.buildExpression(lanefile) }

/// Runs before every lane started from the command line (not before lanes it calls), with the lane.
public func BeforeEach(_ hook: nonisolated(nonsending) @escaping @Sendable (Lane) async throws -> Void) -> LanefileItem {
    LanefileItem(kind: .beforeEach(hook))
}

/// Runs after a lane succeeded.
public func AfterSuccess(_ hook: nonisolated(nonsending) @escaping @Sendable (Lane) async throws -> Void) -> LanefileItem {
    LanefileItem(kind: .afterSuccess(hook))
}

/// Runs after a lane failed, with the error.
public func OnError(_ hook: nonisolated(nonsending) @escaping @Sendable (Lane, any Error) async throws -> Void) -> LanefileItem {
    LanefileItem(kind: .onError(hook))
}

/// Runs after every lane, whatever happened, after the success or error hooks.
public func Finally(_ hook: nonisolated(nonsending) @escaping @Sendable (Lane) async throws -> Void) -> LanefileItem {
    LanefileItem(kind: .finally(hook))
}
