/// What a short-lived tool prints (`swiftc --version`, `sw_vers`): its standard output, errors dropped;
/// nil when it cannot start. Blocks the calling thread until the tool ends.
public enum ToolOutput {
    public static func standardOutput(of arguments: [String]) -> String? {
        var child = ChildProcess(arguments)
        child.ownProcessGroup = false
        child.standardError = .null
        var output: [UInt8] = []
        guard (try? child.runCapturingOutput(input: nil, started: { _ in }) { stream, bytes in
            if stream == .standardOutput { output.append(contentsOf: bytes) }
        }) != nil else { return nil }
        return String(decoding: output, as: UTF8.self)
    }

    /// The line of `swiftc --version` that names the Swift version (`Swift version 6.3.1 (...)`).
    public static func compilerVersion(of compiler: String) -> String? {
        standardOutput(of: [compiler, "--version"])?.split(separator: "\n").first { $0.contains("Swift version") }.map(String.init)
    }
}
