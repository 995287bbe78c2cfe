import Lanes
import LanesSigning
#if canImport(Glibc)
import Glibc
#endif

/// Secrets of every shape, printed through every channel a Lanefile has (see SecretsMatrixTests).
let shapes = ["PLAIN_SECRET", "NEWLINE_SECRET", "CRLF_SECRET", "MULTILINE_SECRET", "COMBINING_SECRET", "SHORT_SECRET",
              "META_SECRET"]

let lanes = Lanefile {
    Lane("matrix", "Prints every secret every way it can", secrets: shapes) { lane in
        let all = shapes + ["AWS_SECRET_ACCESS_KEY"]  // the last one is not declared: its name gives it away
        for name in all {
            let value = try env(name)
            let shown = name == "COMBINING_SECRET" ? value + "\u{0301}" : value
            try echo("echo \(name)=\(shown)")
            print("print \(name)=\(shown)")
            let line = Array("stderr \(name)=\(shown)\n".utf8)
            _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            try await sh("sh", "-c", "printf 'child %s\\n' \"$\(name)\"; printf 'child-err %s\\n' \"$\(name)\" >&2")
        }
        print("\(lane)")
        try await sh("sleep", "1")  // SecretsMatrixTests puts a stand-in here that holds the lane while it reads argv
        throw LanesError(.laneFailure, "failing with " + all.map { try! env($0) }.joined(separator: " | "))
    }
    Lane("crash", "Makes a keychain, then crashes while holding a secret") {
        let password = try secret("PLAIN_SECRET")
        let keychain = try FileKeychain(name: "crashing", in: ".lanes/keychains", password: password.value)
        try await keychain.create()
        print("about to crash")
        fatalError("crashed holding \(password.value)")
    }
    Lane("noop", "Does nothing") {
        try echo("nothing")
    }
}
