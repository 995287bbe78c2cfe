import LanesCommands
import LanesPlatform

/// `lanes-tool`: the subcommands of `lanes` (the driver execs this binary for them), in the
/// LanesCommands library; this `main` runs them over the real host and exits with their status.
SystemHost.exit(await LanesTool.run(host: SystemHost()))
