import Lanes

let lanes = Lanefile {
    Lane("release", "Needs three secrets and a variable",
         environment: ["KEYCHAIN_NAME"], secrets: ["KEYCHAIN_PASSWORD", "CERTIFICATE_PASSWORD"]) {
        try await sh("sh", "-c", "echo should not run")
    }
    Lane("leak", "A child prints the canary secret every way it can") {
        let canary = try secret("CANARY")
        try echo("echo says \(canary.value)")
        print("print says \(canary.value)")
        try await sh("sh", "-c", "echo child stdout $CANARY; echo child stderr $CANARY >&2")
        try await sh("sh", "-c", "echo failing with $CANARY; exit 2")
    }
    Lane("argv", "Passes a secret as an argument") {
        let canary = try secret("CANARY")
        try await sh("echo", canary.value)
    }
}
