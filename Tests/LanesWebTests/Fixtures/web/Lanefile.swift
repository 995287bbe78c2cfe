import Lanes

// The web and doctor tests' project: a lane that succeeds (and prints its secret, redacted), one
// that fails at its second step, a slow one for the live log, and two signing configurations
// (one with an expired profile). The tests copy Example/codesigning material into `codesigning/`.
struct Staging: Configuration {
    let certificate = "ios_distribution"
    let provisioningProfile = "Brewer_Staging"
    let buildConfiguration = "Staging"
    let appIdentifier = "works.sth.brewer.staging"
    let exportMethod = ExportMethod.adHoc
}

struct Lapsed: Configuration {
    let certificate = "ios_distribution"
    let provisioningProfile = "Brewer_Staging_Expired"
    let buildConfiguration = "Staging"
    let appIdentifier = "works.sth.brewer.staging"
    let exportMethod = ExportMethod.adHoc
}

let lanes = Lanefile {
    CodeSigning(folder: "codesigning", trust: "codesigning/test-root.crt", configurations: [Staging(), Lapsed()])
    Lane("build", "Builds <the> app", secrets: ["CANARY"], schedule: ["H 2 * * *"]) {
        try await sh("echo", "compiling <script>alert('x')</script> & more")
        try echo("the token is \(try secret("CANARY").value)")
        try await sh("true")
    }
    Lane("broken", "Fails at its second step", schedule: ["30 3 * * 1-5", "TZ=Europe/Paris\n0 9 * * *"]) {
        try await sh("echo", "about to fail")
        try await sh("sh", "-c", "echo 'disk <full>' >&2; exit 3")
    }
    Lane("awkward", "Steps whose banners hold a pipe, a tab, escapes and 10,000 characters") {
        try await sh("sh", "-c", "echo a | tr a b")
        try await sh("printf", "%s\\n", "tab\there \\\"quoted\\\" <b>|</b>")
        try await sh("echo", String(repeating: "long|", count: 2_000))
    }
    Lane("slow", "Prints a line every 0.2 s until a file named release appears (at most 60 s)") {
        try await sh("sh", "-c", "i=0; while [ ! -e release ] && [ $i -lt 300 ]; do i=$((i+1)); echo tick $i; sleep 0.2; done; echo released")
    }
}
