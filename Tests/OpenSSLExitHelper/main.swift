// One entry of lanes into OpenSSL as the first OpenSSL call of a fresh process, then a normal exit.
// It prints "cleanup ran" if OpenSSL then freed its global state in its atexit handler: the handler
// that makes a thread still inside OpenSSL at exit take a freed lock (issue 21's SIGSEGV in
// pthread_rwlock_rdlock). Whichever call starts OpenSSL first decides whether the handler exists.
import COpenSSL
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

let arguments = CommandLine.arguments
if arguments.count == 2, arguments[1] == "--list" {
    print(entries.keys.sorted().joined(separator: "\n"))
} else if arguments.count == 2, let entry = entries[arguments[1]] {
    entry()
    _ = OPENSSL_atexit { print("cleanup ran") }
    print("entered")
} else {
    print("usage: OpenSSLExitHelper --list | ENTRY")
}
