/// The Xcode project steps, for `lanes actions` and `lanes run`.
public enum XcodeSteps {
    public static let all: [any Step.Type] = [
        UpdateProjectProvisioning.self,
        UpdateCodeSigningSettings.self,
        SetBuildSettings.self,
        IncrementBuildNumber.self,
        SetVersionNumber.self,
    ]
}
