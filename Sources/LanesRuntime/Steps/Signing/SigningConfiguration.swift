internal import LanesPlatform
import LanesSigning

/// Where signing material lives on this platform.
enum SigningConfiguration {
    /// A temporary macOS keychain driven through `security` on macOS; a file keychain under the
    /// lanes state directory elsewhere.
    static func keychain(named name: String, password: String, context: StepContext) throws -> any Keychain {
        if HostPlatform.isMacOS {
            let home = try context.environment.value("HOME")
            return try MacKeychain(name: name, keychainsDirectory: "\(home)/Library/Keychains", password: password,
                                   runner: ProcessToolRunner(processes: context.processes),
                                   scratchDirectory: "\(context.stateDirectory)/scratch-\(try RandomSecret.hex(bytes: 8))")
        }
        return try FileKeychain(name: name, in: "\(context.stateDirectory)/keychains", password: password)
    }

    /// Where installed profiles go: Xcode's folder on macOS, the lanes state directory elsewhere.
    static func profilesDirectory(context: StepContext) throws -> String {
        if HostPlatform.isMacOS {
            return "\(try context.environment.value("HOME"))/Library/MobileDevice/Provisioning Profiles"
        }
        return "\(context.stateDirectory)/profiles"
    }
}
