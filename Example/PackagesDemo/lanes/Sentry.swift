// A second file of the Lanefile: every .swift file in lanes/ compiles with Lanefile.swift.

/// Where this team's crashes go.
let sentry = (org: "brewer", project: "ios")

/// What the build lanes leave behind for Sentry.
let symbolsArchive = "Brewer.app.dSYM.zip"
