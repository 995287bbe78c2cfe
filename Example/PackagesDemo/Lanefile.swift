// Steps from a Swift package: `sentry_upload_dsym` comes from Example/SentrySteps, declared in
// lanes/Package.swift. Run from this folder: `lanes upload_dsyms` (SENTRY_AUTH_TOKEN must be set; the
// demo's sentry-cli is a stand-in script that prints what it would upload).
import Lanes
import SentrySteps

let lanes = Lanefile(steps: SentrySteps.steps) {
    Lane("upload_dsyms", "Upload the example's dSYMs to Sentry", secrets: ["SENTRY_AUTH_TOKEN"]) { _ in
        try await sentryUploadDSYM(path: symbolsArchive, org: sentry.org, project: sentry.project, cli: "./fake-sentry-cli")
    }
}
