import LanesRuntime
import LanesCodegen
import LanesPlatform

// `make generate`: rewrites the Lanefile step functions and the step reference from the catalog.
// Run from the package root; both files are committed, and a test fails when either is stale.
let outputs = [
    (LanefileFunctions.path, LanefileFunctions.source(for: StepCatalog.builtIn)),
    (StepReference.markdownPath, StepReference.markdown(StepCatalog.builtIn)),
    (FastlaneMigration.markdownPath, FastlaneMigration.markdown()),
]
for (path, text) in outputs {
    do {
        try AtomicFile.write(Array(text.utf8), to: path)
        print("wrote \(path)")
    } catch {
        print("error: \(path): \(error)")
        exit(1)
    }
}
