// The module a Lanefile imports: the runtime (steps, catalog, runner, DSL) re-exported, plus the
// step functions generated from the runtime's catalog (Generated/). The generator links only the
// runtime, so removing a step never needs a hand edit of the file it writes.
@_exported import LanesRuntime
