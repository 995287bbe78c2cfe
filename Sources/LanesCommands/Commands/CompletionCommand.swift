import ArgumentParser
import Lanes

/// `lanes completion bash|zsh|fish`: the argument parser's script for the subcommands and their
/// options (generated from the command tree, so subcommands added later are completed too), plus what
/// only lanes knows: the lanes of the Lanefile in the current folder, asked of its cached runner at
/// each completion (`lanes __complete-lanes`, which never compiles), and the step ids of `run` and `actions`.
struct CompletionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "completion",
        abstract: "Print a shell completion script (bash, zsh or fish) for subcommands, options, steps and lanes.",
        discussion: """
            bash: add `source <(lanes completion bash)` to ~/.bashrc
            zsh:  add `source <(lanes completion zsh)` to ~/.zshrc, after compinit
            fish: lanes completion fish > ~/.config/fish/completions/lanes.fish
            """)

    @Argument(help: "bash, zsh or fish.")
    var shell: String

    func validate() throws {
        guard CompletionScript.Shell(rawValue: shell) != nil else {
            throw ValidationError("unknown shell '\(shell)': lanes completes bash, zsh and fish")
        }
    }

    func run() throws {
        guard let shell = CompletionScript.Shell(rawValue: shell) else { return }
        let script = CompletionScript(shell: shell, stepIDs: StepCatalog.builtIn.map { $0.info.id })
        TextOutput.standardOutput(Redactor()).write(script.rendered)
    }
}

/// A completion script: the argument parser's, then lanes' additions for the same command.
struct CompletionScript {
    enum Shell: String, CaseIterable {
        case bash, zsh, fish

        var argumentParserShell: CompletionShell {
            switch self {
            case .bash: .bash
            case .zsh: .zsh
            case .fish: .fish
            }
        }
    }

    let shell: Shell
    let stepIDs: [String]

    /// What a lane run accepts besides `key:value`.
    static let laneFlags = ["--env", "--json", "--junit", "--lanefile", "--help"]

    var rendered: String {
        LanesCommand.completionScript(for: shell.argumentParserShell) + "\n" + additions
    }

    private var additions: String {
        let steps = stepIDs.joined(separator: " ")
        let flags = Self.laneFlags.joined(separator: " ")
        let fishLaneFlags = Self.laneFlags.map { flag in
            "complete -c lanes -n 'contains -- (commandline -opc)[2] (lanes __complete-lanes 2>/dev/null)' -l \(flag.dropFirst(2))"
        }.joined(separator: "\n")
        switch shell {
        case .bash:
            return """
                # lanes: lane names from the cached runner of the Lanefile here, step ids, lane flags.
                _lanes_with_lanes() {
                    _lanes "$@"
                    local cur="${COMP_WORDS[COMP_CWORD]}" first="${COMP_WORDS[1]}"
                    if [[ ${COMP_CWORD} -eq 1 ]]; then
                        COMPREPLY+=($(compgen -W "list $(lanes __complete-lanes 2>/dev/null)" -- "${cur}"))
                    elif [[ ${COMP_CWORD} -eq 2 && ( "${first}" == run || "${first}" == actions ) ]]; then
                        COMPREPLY+=($(compgen -W "\(steps)" -- "${cur}"))
                    elif [[ ${COMP_CWORD} -eq 2 && "${first}" == help ]]; then
                        COMPREPLY+=($(compgen -W "$(lanes __complete-lanes 2>/dev/null)" -- "${cur}"))
                    elif [[ ${COMP_CWORD} -ge 2 && "${cur}" == -* ]] && lanes __complete-lanes 2>/dev/null | grep -qxF -- "${first}"; then
                        COMPREPLY+=($(compgen -W "\(flags)" -- "${cur}"))
                    fi
                }
                complete -o filenames -F _lanes_with_lanes lanes

                """
        case .zsh:
            return """
                # lanes: lane names from the cached runner of the Lanefile here, step ids, lane flags.
                _lanes_with_lanes() {
                    _lanes "$@"
                    local -a lane_names
                    lane_names=(${(f)"$(lanes __complete-lanes 2>/dev/null)"})
                    if (( CURRENT == 2 )); then
                        compadd -- list ${lane_names[@]}
                    elif (( CURRENT == 3 )) && [[ ${words[2]} == (run|actions) ]]; then
                        compadd -- \(steps)
                    elif (( CURRENT == 3 )) && [[ ${words[2]} == help ]]; then
                        compadd -- ${lane_names[@]}
                    elif (( ${lane_names[(Ie)${words[2]}]} )) && [[ ${words[CURRENT]} == -* ]]; then
                        compadd -- \(flags)
                    fi
                }
                compdef _lanes_with_lanes lanes

                """
        case .fish:
            return """
                # lanes: lane names from the cached runner of the Lanefile here, step ids, lane flags.
                complete -c lanes -n 'test (count (commandline -opc)) -eq 1' -f -a '(lanes __complete-lanes 2>/dev/null)' -d 'lane'
                complete -c lanes -n 'test (count (commandline -opc)) -eq 1' -f -a 'list'
                complete -c lanes -n 'test (count (commandline -opc)) -eq 2; and __fish_seen_subcommand_from run actions' -f -a '\(steps)' -d 'step'
                complete -c lanes -n 'test (count (commandline -opc)) -eq 2; and __fish_seen_subcommand_from help' -f -a '(lanes __complete-lanes 2>/dev/null)' -d 'lane'
                \(fishLaneFlags)

                """
        }
    }
}
