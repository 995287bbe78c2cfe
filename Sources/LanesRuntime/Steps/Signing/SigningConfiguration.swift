internal import LanesPlatform
import LanesSigning

/// Where signing material lives on this platform.
enum SigningConfiguration {
    /// A temporary macOS keychain driven through `security` on macOS; a file keychain under the
    /// lanes state directory elsewhere.
    /// The lane's keychain of that name when a step of the lane made it already (two match calls
    /// import into one keychain, as fastlane's do), else a new one.
    static func keychain(named name: String, password: String, context: StepContext) throws -> any Keychain {
        if let made = context.values[LaneKeychains.self]?[name] { return made }
        if HostPlatform.isMacOS {
            let home = try context.environment.value("HOME")
            return try MacKeychain(name: name, keychainsDirectory: macKeychainsDirectory(home: home), password: password,
                                   runner: ProcessToolRunner(processes: context.processes),
                                   scratchDirectory: "\(context.stateDirectory)/scratch-\(try RandomSecret.hex(bytes: 8))",
                                   ownershipDirectory: macKeychainOwnership(stateDirectory: context.stateDirectory),
                                   searchListLock: searchListLock(environment: context.environment.variables, home: home))
        }
        return try FileKeychain(name: name, in: fileKeychainsDirectory(stateDirectory: context.stateDirectory), password: password)
    }

    /// Removes the keychains that runs which crashed or were killed left behind (never one a running
    /// lane holds, nor one kept on purpose), and returns their paths.
    static func removeLeftoverKeychains(stateDirectory: String, environment: [String: String],
                                        processes: any ProcessRunning) async -> [String] {
        var removed = FileKeychain.removeLeftovers(in: fileKeychainsDirectory(stateDirectory: stateDirectory))
        let ownership = macKeychainOwnership(stateDirectory: stateDirectory)
        if HostPlatform.isMacOS, let home = environment["HOME"], FilePath.isDirectory(ownership) {
            removed += await MacKeychain.removeLeftovers(ownershipDirectory: ownership, keychainsDirectory: macKeychainsDirectory(home: home),
                                                         runner: ProcessToolRunner(processes: processes),
                                                         searchListLock: searchListLock(environment: environment, home: home))
        }
        return removed
    }

    static func fileKeychainsDirectory(stateDirectory: String) -> String { "\(stateDirectory)/keychains" }
    static func macKeychainsDirectory(home: String) -> String { "\(home)/Library/Keychains" }
    /// Which macOS keychains this project's runs made (`MacKeychain`'s lock files).
    static func macKeychainOwnership(stateDirectory: String) -> String { "\(stateDirectory)/mac-keychains" }
    /// One lock for every lanes run of the user: the keychain search list is the user's, not the project's.
    static func searchListLock(environment: [String: String], home: String) -> String {
        UserFolders.cacheBase(environment: environment, home: home) + "/lanes/keychain-search-list.lock"
    }

    /// Where installed profiles go: the folder Xcode 16 and later read on macOS
    /// (`~/Library/Developer/Xcode/UserData/Provisioning Profiles`, as fastlane's `profiles_path` has it
    /// for Xcode 16), the lanes state directory elsewhere.
    static func profilesDirectory(context: StepContext) throws -> String {
        if HostPlatform.isMacOS {
            return xcodeProfilesDirectory(home: try context.environment.value("HOME"))
        }
        return "\(context.stateDirectory)/profiles"
    }

    static func xcodeProfilesDirectory(home: String) -> String {
        "\(home)/Library/Developer/Xcode/UserData/Provisioning Profiles"
    }
}

/// The keychains the lane's steps made, by name: a later step imports into the same one (with its
/// password) instead of making it again, which its lock would refuse.
enum LaneKeychains: LaneValueKey {
    typealias Value = [String: any Keychain]
}
