@testable import LanesRuntime
import Testing

/// Issue 32: on macOS, where signing material goes. Profiles go to the folder Xcode 16 and later read
/// (fastlane's `profiles_path` for Xcode 16); `~/Library/MobileDevice/Provisioning Profiles` is the
/// folder of Xcode 15 and earlier, which Xcode 16 no longer reads. The search-list lock is the user's,
/// shared by every project (the search list is the user's), and XDG_CACHE_HOME still wins.
@Suite(.timeLimit(.minutes(3))) struct SigningPlacesTests {
    @Test func profilesGoWhereXcode16ReadsThem() {
        #expect(SigningConfiguration.xcodeProfilesDirectory(home: "/Users/ci")
                == "/Users/ci/Library/Developer/Xcode/UserData/Provisioning Profiles")
    }

    @Test func macKeychainsAreOwnedPerProjectAndTheSearchListLockIsTheUsers() {
        #expect(SigningConfiguration.macKeychainOwnership(stateDirectory: "/p/.lanes") == "/p/.lanes/mac-keychains")
        #expect(SigningConfiguration.fileKeychainsDirectory(stateDirectory: "/p/.lanes") != SigningConfiguration.macKeychainOwnership(stateDirectory: "/p/.lanes"),
                "file keychains' leftover sweep never sees a macOS keychain's lock")
        #expect(SigningConfiguration.searchListLock(environment: ["XDG_CACHE_HOME": "/x"], home: "/Users/ci") == "/x/lanes/keychain-search-list.lock")
    }
}
