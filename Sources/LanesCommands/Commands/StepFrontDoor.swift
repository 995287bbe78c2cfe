import Lanes

/// Whether this run of `lanes-tool` asks for help text: `--help`, `-h`, `lanes help COMMAND`, or the
/// argument parser's dump of every command's help. The front doors' flag lists come from reflection
/// over the steps' options, which once cost more than the rest of any command's start (the parser
/// reads every command's configuration), so a command builds them only when they are shown.
enum HelpRequest {
    static let words: Set<String> = ["-h", "--help", "help", "--experimental-dump-help"]

    static func isAsked(in arguments: [String]) -> Bool {
        arguments.dropFirst().contains { words.contains($0) }
    }

    static var isAsked: Bool { isAsked(in: CommandLine.arguments) }
}

/// A shell spelling of a step, derived from its declaration: each option `part_size_mib` is the flag
/// `--part-size-mib`, with the option's own summary as its help, so a renamed or removed option
/// cannot leave a stale flag behind. The words become the step's `key:value` options and the step
/// runs like `lanes run STEP`, with its validation, sources, redaction and output.
struct StepFrontDoor {
    let step: any Step.Type
    /// Options the command takes as positional arguments or sets itself (`file`, `xcodeproj`): not flags.
    let fixed: Set<String>

    /// `part_size_mib` → `--part-size-mib`.
    static func flag(for option: String) -> String {
        "--" + option.split(separator: "_").joined(separator: "-")
    }

    /// The options offered as flags: every declared option but the fixed ones and secrets (which
    /// come only from the environment).
    var flagOptions: [OptionInfo] {
        step.info.options.filter { !fixed.contains($0.name) && !$0.isSecret }
    }

    /// `--flag VALUE`, `--flag=VALUE` and, for a Bool option, a bare `--flag`, as `key:value` options.
    func options(from words: [String]) throws -> [String] {
        let (options, positionals) = try parse(words)
        guard positionals.isEmpty else {
            throw LanesError(.usage, "unexpected argument \(positionals[0])", hint: "the \(step.info.id) step's options are flags such as \(flagOptions.first.map { Self.flag(for: $0.name) } ?? "--timeout")")
        }
        return options
    }

    /// The flags as `key:value` options, and the words that are not flags or their values, in order.
    func parse(_ words: [String]) throws -> (options: [String], positionals: [String]) {
        var positionals: [String] = []
        // An option's aliases are flags too (`--configuration` for build_configuration), unless
        // another option of the step already has that name.
        let byName = Dictionary(flagOptions.map { (Self.flag(for: $0.name), $0) }) { first, _ in first }
        let byAlias = Dictionary(flagOptions.flatMap { option in option.aliases.map { (Self.flag(for: $0), option) } }) { first, _ in first }
        let byFlag = byName.merging(byAlias) { own, _ in own }
        var result: [String] = []
        var iterator = words.makeIterator()
        while let word = iterator.next() {
            guard word.hasPrefix("--") else {
                positionals.append(word)
                continue
            }
            let flag = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
            guard let option = byFlag[flag] else {
                let known = byName.keys.sorted().joined(separator: ", ")
                throw LanesError(.usage, "\(word) is not an option of the \(step.info.id) step",
                                 hint: "its options: \(known) (see `lanes actions \(step.info.id)`)")
            }
            let value: String
            if word.count > flag.count {
                value = String(word.dropFirst(flag.count + 1))
            } else if option.typeName == "Bool" {
                value = "true"
            } else {
                guard let next = iterator.next(), !next.hasPrefix("--") else {
                    throw LanesError(.usage, "\(flag) needs a value (\(option.summary))")
                }
                value = next
            }
            result.append("\(option.name):\(value)")
        }
        return (result, positionals)
    }

    /// The flags and their help, for the command's `--help`.
    static func help(_ doors: [StepFrontDoor]) -> String {
        var lines: [String] = []
        var seen: Set<String> = []
        for door in doors {
            let options = door.flagOptions.filter { seen.insert($0.name + "\u{0}" + $0.summary).inserted }
            guard !options.isEmpty else { continue }
            lines.append("Options of the \(door.step.info.id) step:")
            for option in options {
                let value = option.typeName == "Bool" ? "" : " <\(option.typeName.lowercased())>"
                let variable = option.environmentVariables.isEmpty ? "" : " (env: \(option.environmentVariables.joined(separator: ", ")))"
                let aliases = option.aliases.isEmpty ? "" : " (also \(option.aliases.map { flag(for: $0) }.joined(separator: ", ")))"
                lines.append("  \(flag(for: option.name))\(value)  \(option.summary)\(variable)\(aliases)")
            }
        }
        return lines.joined(separator: "\n")
    }
}
