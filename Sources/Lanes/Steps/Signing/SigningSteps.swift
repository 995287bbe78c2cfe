/// The signing steps, for `lanes actions` and `lanes run`.
public enum SigningSteps {
    public static let all: [any Step.Type] = [ImportCertificate.self, InstallProvisioningProfile.self]
}
