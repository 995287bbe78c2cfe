internal import LanesPlatform
internal import LanesWire

/// Every lane run writes its `--json` events to `events.jsonl` in a run folder under the project's
/// state folder (`logs/<run>/`), whatever its reporter on the terminal. The runner writes only this
/// file: `lanes-tool` indexes the folders into the history database when it reads the history, so a
/// lane's start never loads SQLite. The daemon names the folder (`--run-folder`); a run started by
/// hand or on CI gets `logs/run-<milliseconds>-<pid>/`.
struct RunRecording {
    let folder: String
    let descriptor: Int32

    /// Opens the events file; nil (after a warning) when it cannot be written, since a lane should not
    /// fail for want of its history.
    static func start(arguments: RunnerArguments, environment: [String: String], diagnostics: Diagnostics) -> RunRecording? {
        let folder: String
        if let given = arguments.runFolder {
            folder = given
        } else {
            guard let state = ProjectState.directory(projectDirectory: arguments.projectDirectory, environment: environment) else {
                diagnostics.warning("this run is not recorded in the history: no state folder (set HOME or LANES_STATE_DIR)")
                return nil
            }
            let now = Timestamp.now()
            let name = ProjectState.outsideRunFolderName(startedMilliseconds: now.millisecondsSince1970, processID: ProjectState.currentProcessID)
            folder = state + "/" + ProjectState.runsFolderName + "/" + name
        }
        let path = folder + "/" + ProjectState.eventsFileName
        do {
            try FilePath.makeDirectories(folder, mode: 0o700)
        } catch {
            diagnostics.warning("this run is not recorded in the history: cannot create \(folder): \(error)")
            return nil
        }
        switch ProjectState.openEventsFile(path) {
        case .success(let descriptor):
            return RunRecording(folder: folder, descriptor: descriptor)
        case .failure(let error):
            diagnostics.warning("this run is not recorded in the history: cannot write \(path): \(error)")
            return nil
        }
    }

    /// `lane_started`'s run facts: the trigger and the commit checked out.
    static func context(arguments: RunnerArguments, environment: [String: String]) -> JSONLinesReporter.RunContext {
        let trigger = arguments.runFolder != nil ? (environment["LANES_RUN_TRIGGER"] ?? "timer")
                                                 : CISystem.detect(in: environment) == nil ? "manual" : "ci"
        return JSONLinesReporter.RunContext(trigger: trigger, commit: GitHead.commit(from: arguments.projectDirectory))
    }
}

/// The commit checked out in the repository around a folder, read from `.git` files (HEAD, the
/// branch's ref, `packed-refs`) so that a lane's start does not initialise libgit2 for it.
enum GitHead {
    static func commit(from directory: String) -> String? {
        guard let dotGit = FilePath.findUpwards(".git", from: directory) else { return nil }
        var gitDirectory = dotGit
        if !FilePath.isDirectory(dotGit) {
            // A worktree or submodule: `.git` is a file saying `gitdir: PATH`.
            guard let text = try? FilePath.read(dotGit), text.hasPrefix("gitdir: ") else { return nil }
            let path = String(text.dropFirst("gitdir: ".count)).trimmingCharacters()
            gitDirectory = FilePath.absolute(path, from: FilePath.directory(of: dotGit))
        }
        guard let head = (try? FilePath.read(gitDirectory + "/HEAD"))?.trimmingCharacters() else { return nil }
        guard head.hasPrefix("ref: ") else { return isObjectName(head) ? head : nil }
        let reference = String(head.dropFirst("ref: ".count))
        // Branch refs of a linked worktree live in the main repository (`commondir`).
        var directories = [gitDirectory]
        if let common = (try? FilePath.read(gitDirectory + "/commondir"))?.trimmingCharacters() {
            directories.append(FilePath.absolute(common, from: gitDirectory))
        }
        for directory in directories {
            if let loose = (try? FilePath.read(directory + "/" + reference))?.trimmingCharacters(), isObjectName(loose) { return loose }
            if let packed = try? FilePath.read(directory + "/packed-refs") {
                for line in packed.split(separator: "\n") where line.hasSuffix(" " + reference) {
                    let name = String(line.prefix { $0 != " " })
                    if isObjectName(name) { return name }
                }
            }
        }
        return nil
    }

    private static func isObjectName(_ text: String) -> Bool {
        (text.count == 40 || text.count == 64) && text.allSatisfy(\.isHexDigit)
    }
}

private extension String {
    func trimmingCharacters() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
