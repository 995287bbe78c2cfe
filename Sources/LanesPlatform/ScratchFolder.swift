#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A private folder (0700) for a secret file one run must put on disk for a tool (an App Store
/// Connect key for xcodebuild), named `PID-RANDOM` after the process that made it. A run removes
/// its own at its end; what a killed run (SIGKILL, a crash, a reboot) left is found by its dead
/// process and removed by the next run's `sweep`.
public enum ScratchFolder {
    /// Creates `parent` (0700) if needed, then `parent/PID-RANDOM` with mode 0700.
    public static func create(in parent: String) throws -> String {
        try FilePath.makeDirectories(parent, mode: 0o700)
        let random = (0..<6).map { _ in String(UInt8.random(in: 0...255), radix: 16) }.joined()
        let path = "\(parent)/\(getpid())-\(random)"
        guard mkdir(path, 0o700) == 0 else {
            throw InstallationError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        return path
    }

    /// Removes the folders under `parent` whose process is gone; returns their paths.
    @discardableResult
    public static func sweep(in parent: String) -> [String] {
        FilePath.entries(of: parent).sorted().compactMap { name in
            guard let pid = name.split(separator: "-").first.flatMap({ pid_t($0) }), pid > 0, pid != getpid(),
                  kill(pid, 0) != 0, errno == ESRCH else { return nil }
            let path = "\(parent)/\(name)"
            FilePath.removeTree(path)
            return FilePath.exists(path) ? nil : path
        }
    }
}
