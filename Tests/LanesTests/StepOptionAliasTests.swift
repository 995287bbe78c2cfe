import Foundation
import Lanes
import LanesCodegen
import Testing
@testable import LanesRuntime

/// An option answers to its aliases (fastlane's names, earlier lanes names) and reads fastlane's
/// environment variables after lanes' own; fastlane's interface-only options are accepted and noted.
@Suite(.timeLimit(.minutes(3))) struct StepOptionAliasTests {
    @Test func anAliasGivesTheOption() throws {
        let step = try UpdateCodeSigningSettings.resolve(["path": "App.xcodeproj", "configuration": ["Release"]])
        #expect(step.xcodeproj == "App.xcodeproj")
        #expect(step.buildConfigurations == ["Release"])
    }

    @Test func anAliasIsAlsoAcceptedAsText() throws {
        let step = try UpdateCodeSigningSettings.resolve(StepArguments(text: ["path": "App.xcodeproj"]))
        #expect(step.xcodeproj == "App.xcodeproj")
    }

    @Test func anOptionGivenUnderTwoNamesIsAnError() {
        #expect {
            try UpdateCodeSigningSettings.resolve(["xcodeproj": "A.xcodeproj", "path": "B.xcodeproj"])
        } throws: { error in
            "\(error)".contains("option 'xcodeproj' is given twice (as 'xcodeproj' and 'path')")
        }
    }

    @Test func fastlanesVariableIsReadAfterLanesOwn() throws {
        let fastlaneOnly = Environment(variables: ["GITHUB_API_TOKEN": "fastlane-token"])
        let step = try SetGitHubRelease.resolve(["repository_name": "o/r", "tag_name": "v1"], environment: fastlaneOnly)
        #expect(step.apiToken.value == "fastlane-token")
        let both = Environment(variables: ["GITHUB_API_TOKEN": "fastlane-token", "GITHUB_TOKEN": "lanes-token"])
        let preferred = try SetGitHubRelease.resolve(["repository_name": "o/r", "tag_name": "v1"], environment: both)
        #expect(preferred.apiToken.value == "lanes-token")
    }

    @Test func aMissingOptionNamesEveryVariable() {
        #expect {
            try SetGitHubRelease.resolve(["repository_name": "o/r", "tag_name": "v1"])
        } throws: { error in
            "\(error)".contains("missing required option 'api_token' (or environment variables GITHUB_TOKEN, GITHUB_API_TOKEN)")
        }
    }

    @Test func anIgnoredOptionIsAcceptedWithANote() throws {
        let (_, _, _, notes) = try StepResolution.build(UploadToAppStore.self, arguments: StepArguments(text: ["force": "true"]),
                                                         environment: Environment(variables: [:]))
        #expect(notes == ["option 'force' ignored: it skips fastlane's HTML preview of the metadata, which lanes does not make (dry_run:true prints every change instead)"])
        #expect(throws: ValidationErrors.self) { try UploadToAppStore.resolve(StepArguments(text: ["forced": "true"])) }
    }

    @Test func aliasesVariablesAndIgnoredOptionsAreDocumented() throws {
        let page = UpdateCodeSigningSettings.info.helpPage
        #expect(page.contains("also named: path"))
        #expect(page.contains("env LANES_XCODEPROJ, then FL_PROJECT_SIGNING_PROJECT_PATH"))
        #expect(UploadToAppStore.info.helpPage.contains("force (accepted and ignored)"))
        let markdown = StepReference.markdown([UpdateCodeSigningSettings.self])
        #expect(markdown.contains("`xcodeproj` (also `path`)"))
    }

    @Test func theCatalogJSONCarriesAliasesAndVariables() throws {
        let json = UpdateCodeSigningSettings.info.referenceJSON().serialized
        #expect(json.contains(#""aliases":["path"]"#))
        #expect(json.contains(#""env_names":["LANES_XCODEPROJ","FL_PROJECT_SIGNING_PROJECT_PATH"]"#))
        #expect(UploadToAppStore.info.referenceJSON().serialized.contains(#""ignored_options":{"force":"#))
    }

    @Test func theImporterFindsAStepOptionByFastlanesName() throws {
        let action = try #require(FastlaneActionMap.action(named: "automatic_code_signing"))
        guard case .option(let option)? = action.stepOption(for: "path") else { Issue.record("path not mapped"); return }
        #expect(option.name == "xcodeproj")
        guard case .ignored? = FastlaneActionMap.action(named: "deliver")?.stepOption(for: "force") else {
            Issue.record("force not ignored"); return
        }
        #expect(action.stepOption(for: "no_such_option") == nil)
    }
}

extension FastlaneOptionMapping: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.option(let a), .option(let b)): a == b
        case (.ignored(let a), .ignored(let b)): a == b
        default: false
        }
    }
}
