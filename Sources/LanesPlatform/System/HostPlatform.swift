/// Facts about the OS lanes runs on, for code that chooses behaviour rather than calls: modules
/// outside LanesPlatform ask these instead of writing `#if os(...)`.
public enum HostPlatform {}
