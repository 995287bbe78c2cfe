/// Every built-in step: the source of `lanes actions`, `lanes run`, the generated Lanefile functions
/// and the step reference. A test checks that every `Step` type under Sources/Lanes/Steps is here.
public enum StepCatalog {
    public static let builtIn: [any Step.Type] = [
        ShellCommand.self,
        ImportCertificate.self,
        InstallProvisioningProfile.self,
        UpdateProjectProvisioning.self,
        UpdateCodeSigningSettings.self,
        SetBuildSettings.self,
        IncrementBuildNumber.self,
        SetVersionNumber.self,
        BuildApp.self,
        RunTests.self,
        BuildSwiftPackage.self,
        CocoaPods.self,
        SwiftPackageResolve.self,
        CheckIPA.self,
        CheckArtifact.self,
        Upload.self,
        FirebaseAppDistribution.self,
        UploadToTestFlight.self,
        NumberOfCommits.self,
        ChangelogFromGitCommits.self,
        EnsureGitStatusClean.self,
        ResetGitRepo.self,
        AddGitTag.self,
        LastGitTag.self,
        GitBranch.self,
        PushGitTags.self,
        SyncCodeSigning.self,
        MatchImport.self,
        MatchChangePassword.self,
        MatchDecrypt.self,
    ]

    public static func step(id: String) -> (any Step.Type)? {
        builtIn.first { $0.definition.id == id } ?? builtIn.first { $0.definition.aliases.contains(id) }
    }
}
