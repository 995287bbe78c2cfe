/// The command line of a compiled Lanefile, as the `lanes` driver passes it on.
struct RunnerArguments {
    enum Command {
        case list(json: Bool)
        /// `lanes list signing`: the `CodeSigning` declaration.
        case listSigning(json: Bool)
        case lane(name: String, options: [String: String])
    }

    var command: Command
    var projectDirectory: String
    var environmentName: String?
    var json = false
    var junitPath: String?

    static let usage = """
        usage: lanes LANE [key:value ...] [--env NAME] [--json] [--junit PATH]
               lanes list [--json]
               lanes list signing [--json]
        """

    init(_ arguments: [String], defaultProjectDirectory: String) throws {
        var projectDirectory = defaultProjectDirectory
        var environmentName: String?
        var json = false
        var junitPath: String?
        var words: [String] = []
        var iterator = arguments.makeIterator()
        func value(after flag: String) throws -> String {
            guard let value = iterator.next(), !value.hasPrefix("--") else {
                throw LanesError(.usage, "\(flag) needs a value", hint: Self.usage)
            }
            return value
        }
        while let argument = iterator.next() {
            switch argument {
            case "--project-dir": projectDirectory = try value(after: argument)
            case "--env": environmentName = try value(after: argument)
            case "--json": json = true
            case "--junit": junitPath = try value(after: argument)
            case _ where argument.hasPrefix("--"):
                throw LanesError(.usage, "unknown option \(argument)", hint: Self.usage)
            default: words.append(argument)
            }
        }
        guard let first = words.first else { throw LanesError(.usage, "no lane given", hint: Self.usage) }
        if first == "list" {
            switch words.dropFirst().first {
            case nil: command = .list(json: json)
            case "signing" where words.count == 2: command = .listSigning(json: json)
            default: throw LanesError(.usage, "list takes no arguments but `signing`", hint: Self.usage)
            }
        } else {
            command = .lane(name: first, options: try OptionValues.parse(Array(words.dropFirst())))
        }
        self.projectDirectory = projectDirectory
        self.environmentName = environmentName
        self.json = json
        self.junitPath = junitPath
    }
}
