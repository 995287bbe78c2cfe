import Foundation
import Lanes
import LanesPlatform

/// Checks that a Lanefile compiles without building or running it: `swiftc -typecheck` with the
/// flags a lane's compile uses, against the installed `Lanes` module. Nothing of the Lanefile runs
/// (an imported Lanefile is checked before anyone has read it), and the compiler gets only the
/// variables it needs to find itself and its caches, never the user's whole environment.
enum LanefileTypeCheck {
    struct Outcome {
        let status: Int32
        let output: String
    }

    /// Variables the compiler may need; everything else of the user's environment stays out.
    static let passedVariables = ["PATH", "HOME", "TMPDIR", "XDG_CACHE_HOME", "LANG", "LC_ALL", "SDKROOT", "DEVELOPER_DIR"]

    /// What the runner's entry file names, so a Lanefile without `let lanes` fails here as it would in a run.
    static let entrySource = """
        import Lanes

        @main
        enum LanesRunnerEntry {
            static func main() async { await LanefileRunner.main(lanes) }
        }

        """

    static func check(_ lanefile: String, environment: [String: String] = ProcessEnvironment.current()) throws -> Outcome {
        let installation = try Installation.locate(environment: environment)
        guard let swiftc = FilePath.which(installation.swiftc, path: environment["PATH"]) else {
            throw LanesError(.configuration, "cannot find the Swift compiler '\(installation.swiftc)' to check \(lanefile)",
                             hint: "put swiftc on PATH or set LANES_SWIFTC to its path")
        }
        var template = Array(((environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp") + "/lanes-typecheck.XXXXXX").utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw LanesError(.environment, "cannot create a temporary folder to check \(lanefile): \(String(cString: strerror(errno)))")
        }
        let folder = String(cString: created)
        defer { FilePath.removeTree(folder) }
        let entry = folder + "/LanesRunnerEntry.swift"
        try AtomicFile.write(entrySource, to: entry)

        var arguments = [swiftc, "-typecheck", "-parse-as-library", "-swift-version", "6", "-module-name", "LanefileRunner",
                         "-I", installation.modulesDirectory]
        arguments += sources(of: lanefile) + [entry]
        var passed: [String: String] = [:]
        for name in passedVariables { if let value = environment[name] { passed[name] = value } }
        var child = ChildProcess(arguments, environment: passed)
        child.ownProcessGroup = false
        var output: [UInt8] = []
        do {
            let status = try child.runCapturingOutput(input: nil, started: { _ in }) { _, bytes in output.append(contentsOf: bytes) }
            return Outcome(status: status.shellStatus, output: String(decoding: output, as: UTF8.self))
        } catch {
            throw LanesError(.environment, "cannot run \(swiftc) to check \(lanefile): \(error.description)")
        }
    }

    /// The Lanefile and the `.swift` files of the `lanes/` folder beside it (but the packages' manifest),
    /// as a lane's compile takes them.
    static func sources(of lanefile: String) -> [String] {
        let folder = FilePath.directory(of: lanefile) + "/lanes"
        let parts = FilePath.entries(of: folder)
            .filter { $0.hasSuffix(".swift") && $0 != "Package.swift" && !$0.hasPrefix("Package@swift") && !$0.hasPrefix(".") }
            .sorted()
            .map { folder + "/" + $0 }
            .filter { !FilePath.isDirectory($0) }
        return [lanefile] + parts
    }
}
