/// The command line of a compiled Lanefile, as the `lanes` driver passes it on.
struct RunnerArguments {
    enum Command: Equatable {
        case list(ListFormat)
        /// `lanes help LANE`, `lanes LANE --help`.
        case help(lane: String)
        /// `lanes list signing`: the `CodeSigning` declaration.
        case listSigning(json: Bool)
        case lane(name: String, options: [String: String])
    }

    enum ListFormat: Equatable {
        case table, json
        /// One name per line, for shell completion.
        case names
    }

    var command: Command
    var projectDirectory: String
    /// The Lanefile as the driver found it (for CI annotations); nil when run without the driver.
    var lanefilePath: String?
    /// `--env a,b`: `.env.a` then `.env.b`, each overriding the one before (fastlane's order).
    var environmentNames: [String] = []
    var json = false
    var junitPath: String?
    /// `--run-folder PATH`: where this run writes `events.jsonl` (the daemon names one per run);
    /// otherwise a new folder under the project's state folder.
    var runFolder: String?

    static let usage = """
        usage: lanes LANE [key:value ...] [--env NAME[,NAME...]] [--json] [--junit PATH] [--lanefile PATH]
               lanes list [--json]
               lanes help LANE
               lanes list signing [--json]
        """

    init(_ arguments: [String], defaultProjectDirectory: String) throws {
        var projectDirectory = defaultProjectDirectory
        var lanefilePath: String?
        var environmentNames: [String] = []
        var json = false
        var names = false
        var help = false
        var junitPath: String?
        var runFolder: String?
        var words: [String] = []
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            // `--flag value` and `--flag=value` are the same.
            let (flag, attached) = Self.split(argument)
            func value() throws -> String {
                if let attached { return attached }
                guard let value = iterator.next(), !value.hasPrefix("--") else {
                    throw LanesError(.usage, "\(flag) needs a value", hint: Self.usage)
                }
                return value
            }
            func noValue() throws {
                if attached != nil { throw LanesError(.usage, "\(flag) takes no value", hint: Self.usage) }
            }
            switch Flag(flag) {
            case .projectDirectory?: projectDirectory = try value()
            case .lanefile?: lanefilePath = try value()
            case .environment?: environmentNames += try Self.environmentNames(try value())
            case .json?: try noValue(); json = true
            case .names?: try noValue(); names = true
            case .help?: try noValue(); help = true
            case .junit?: junitPath = try value()
            case .runFolder?: runFolder = try value()
            case nil where argument.hasPrefix("-"):
                throw LanesError(.usage, "unknown option \(argument)", hint: Self.usage)
            case nil: words.append(argument)
            }
        }
        guard let first = words.first else { throw LanesError(.usage, "no lane given", hint: Self.usage) }
        switch first {
        case "list":
            switch words.dropFirst().first {
            case nil: command = .list(names ? .names : json ? .json : .table)
            case "signing" where words.count == 2: command = .listSigning(json: json)
            default: throw LanesError(.usage, "list takes no arguments but `signing`", hint: Self.usage)
            }
        case "help":
            guard words.count == 2 else { throw LanesError(.usage, "help takes one lane name", hint: Self.usage) }
            command = .help(lane: words[1])
        case _ where help:
            command = .help(lane: first)
        default:
            command = .lane(name: first, options: try OptionValues.parse(Array(words.dropFirst())))
        }
        self.projectDirectory = projectDirectory
        self.lanefilePath = lanefilePath
        self.environmentNames = environmentNames
        self.json = json
        self.junitPath = junitPath
        self.runFolder = runFolder
    }

    /// The lane and option words of a command line, without its flags and their values (the driver
    /// passes `--project-dir DIR --lanefile PATH` before what the user typed).
    static func positionalWords(_ arguments: [String]) -> [String] {
        var words: [String] = []
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            let (flag, attached) = split(argument)
            if let known = Flag(flag) {
                if known.takesValue, attached == nil { _ = iterator.next() }
            } else if !argument.hasPrefix("-") {
                words.append(argument)
            }
        }
        return words
    }

    /// The runner's flags, named once: the parser reads them and `positionalWords` skips them.
    private enum Flag: String {
        case projectDirectory = "--project-dir", lanefile = "--lanefile", environment = "--env", json = "--json",
             names = "--names", help = "--help", junit = "--junit", runFolder = "--run-folder"

        init?(_ word: String) {
            self.init(rawValue: word == "-h" ? Flag.help.rawValue : word)
        }

        var takesValue: Bool {
            switch self {
            case .projectDirectory, .lanefile, .environment, .junit, .runFolder: true
            case .json, .names, .help: false
            }
        }
    }

    /// `--env=demo` → ("--env", "demo"); `--json` → ("--json", nil).
    private static func split(_ argument: String) -> (flag: String, value: String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// `staging` or `staging,extra`; an empty name (`--env a,,b`) is a mistake, not a no-op.
    private static func environmentNames(_ value: String) throws -> [String] {
        let names = value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard names.allSatisfy({ !$0.isEmpty && !$0.contains("/") }) else {
            throw LanesError(.usage, "--env takes names such as staging or staging,extra, not '\(value)'", hint: Self.usage)
        }
        return names
    }
}
