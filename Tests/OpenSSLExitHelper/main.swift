// One entry of lanes into OpenSSL as the first OpenSSL call of a fresh process, then a normal exit.
// It prints "cleanup ran" if OpenSSL then freed its global state in its atexit handler: the handler
// that makes a thread still inside OpenSSL at exit take a freed lock (issue 21's SIGSEGV in
// pthread_rwlock_rdlock). Whichever call starts OpenSSL first decides whether the handler exists.
import COpenSSL
import Dispatch
import LanesPlatform
import LanesGit
import LanesSigning

let entries: [String: () -> Void] = [
    // The detector's control: an OpenSSL call without lanes' start registers the handler.
    "unstarted": { ERR_clear_error() },
    "certificate-pem": { _ = try? Certificate(pem: Array("not a certificate".utf8)) },
    "certificate-der": { _ = try? Certificate(der: [0x30, 0x00]) },
    "random-secret": { _ = try? RandomSecret.hex(bytes: 8) },
    "message-digest": { _ = MessageDigest.hex([1, 2, 3], .sha256) },
    "running-digest": { _ = MessageDigest.Running(.sha1).finishHex() },
    "password-cipher": { _ = try? PasswordCipher.randomBytes(8) },
    "pkcs12": { _ = try? PKCS12File.read(bytes: [0x30, 0x03, 0x02, 0x01, 0x03], password: "", source: "helper") },
    "profile": { _ = try? ProvisioningProfileReader.read(bytes: [0x30, 0x00], source: "helper") },
    "openssl-version": { _ = OpenSSLVersion.runtime },
    // libgit2 starts libssh2, which starts OpenSSL (its engines) the default way.
    "git": { _ = GitLibrary() },
]

/// A thread uses an identity's OpenSSL context (re-encoding draws salts from the context's random
/// generator), hands the identity over, and ends only after the other thread dropped it: OpenSSL then
/// releases that thread's state for the context. Prints "thread ended" when the process survives.
final class Handoff: @unchecked Sendable {
    var identity: SigningIdentity?
    var failure: String?
    let used = DispatchSemaphore(value: 0)
    let released = DispatchSemaphore(value: 0)
}

func endAThreadAfterItsIdentityIsGone(p12: String) throws {
    let handoff = Handoff()
    let thread = try PlatformThread.start {
        do {
            let identity = try PKCS12File.read(path: p12, password: "")
            _ = try identity.tripleDESPKCS12(password: "re-encoded")
            handoff.identity = identity
        } catch {
            handoff.failure = "\(error)"
        }
        handoff.used.signal()
        handoff.released.wait()
    }
    handoff.used.wait()
    if let failure = handoff.failure { print(failure); return }
    handoff.identity = nil
    handoff.released.signal()
    thread.join()
    print("thread ended")
}

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "thread-exit" {
    try endAThreadAfterItsIdentityIsGone(p12: arguments[2])
} else if arguments.count == 2, arguments[1] == "--list" {
    print(entries.keys.sorted().joined(separator: "\n"))
} else if arguments.count == 2, let entry = entries[arguments[1]] {
    entry()
    _ = OPENSSL_atexit { print("cleanup ran") }
    print("entered")
} else {
    print("usage: OpenSSLExitHelper --list | ENTRY")
}
