/// lanes' version: printed by `lanes --version` and part of every compiled Lanefile's cache key.
public enum LanesVersion {
    public static let current = "0.1.0"
}
