import Testing
@testable import LanesBuild

@Suite(.timeLimit(.minutes(10))) struct ExportOptionsTests {
    @Test func stagingAdHocGolden() throws {
        let appIdentifier = "works.sth.brewer.staging"
        let profileName = "Brewer_Staging"
        // The founding Lanefile's shape, with variables inside the nested dictionary.
        let options: ExportOptions = [
            "signingStyle": "manual", "provisioningProfiles": [appIdentifier: profileName],
            "teamID": "ABCDE12345", "compileBitcode": false, "thinning": "<none>",
        ]
        #expect(try options.plist(method: .adHoc) == Fixture.text("export/Staging.plist"))
    }

    @Test func productionEnterpriseGolden() throws {
        let options: ExportOptions = [
            "signingStyle": "manual", "provisioningProfiles": ["works.sth.brewer.enterprise": "Brewer_Enterprise"],
            "teamID": "ABCDE12345", "signingCertificate": "iPhone Distribution",
            "manifest": [
                "appURL": "https://dist.sth.works/brewer/Brewer.ipa?build=118&channel=prod",
                "displayImageURL": "https://dist.sth.works/brewer/57.png",
                "fullSizeImageURL": "https://dist.sth.works/brewer/512.png",
            ],
        ]
        #expect(try options.plist(method: .enterprise) == Fixture.text("export/Production.plist"))
    }

    @Test func releaseAppStoreGolden() throws {
        let options: ExportOptions = [
            "signingStyle": "manual", "provisioningProfiles": ["works.sth.brewer": "Brewer_AppStore"],
            "uploadSymbols": true, "stripSwiftSymbols": true, "manageAppVersionAndBuildNumber": false,
            "destination": "export", "testFlightInternalTestingOnly": false, "method": "app-store-connect",
        ]
        // `method` in the dictionary may use the other spelling of the same method; the step's method is written.
        #expect(try options.plist(method: .appStore) == Fixture.text("export/Release.plist"))
    }

    @Test func everyMethodNameIsAccepted() throws {
        for name in ["app-store", "app-store-connect", "validation", "ad-hoc", "release-testing", "package",
                     "enterprise", "development", "debugging", "developer-id", "mac-application"] {
            let method = try #require(ArchiveExportMethod(name: name))
            #expect(try ExportOptions([]).plist(method: method).contains("<string>\(name)</string>"))
        }
        #expect(ArchiveExportMethod(name: "adhoc") == nil)
        #expect(ArchiveExportMethod.adHoc.isSameMethod(as: .releaseTesting))
        #expect(!ArchiveExportMethod.adHoc.isSameMethod(as: .enterprise))
    }

    @Test func unknownKeyIsNamed() {
        let options: ExportOptions = ["signingStyle": "manual", "provisioningProfile": ["a": "b"]]
        #expect(throws: BuildError.self) { try options.plist(method: .adHoc) }
        do {
            _ = try options.plist(method: .adHoc)
        } catch {
            #expect(error.description.hasPrefix("exportOptions: \"provisioningProfile\" is not an ExportOptions.plist key"))
        }
    }

    @Test func wrongTypesAreNamed() {
        let cases: [(ExportOptions, String)] = [
            (["uploadSymbols": "yes"], "exportOptions: \"uploadSymbols\" must be a Boolean, not a string"),
            (["provisioningProfiles": "Brewer_Staging"], "exportOptions: \"provisioningProfiles\" must be a dictionary of strings, not a string"),
            (["teamID": true], "exportOptions: \"teamID\" must be a string, not a Boolean"),
            (["signingStyle": "Manual"], "exportOptions: \"signingStyle\" is \"Manual\"; it must be one of manual, automatic"),
            (["manifest": ["appUrl": "x"]], "exportOptions: \"manifest.appUrl\" is not a manifest key (known: appURL, displayImageURL, fullSizeImageURL, assetPackManifestURL)"),
            (["method": "enterprise"], "exportOptions: \"method\" is \"enterprise\" but the export method is \"ad-hoc\""),
            (ExportOptions([(key: "teamID", value: .string("A")), (key: "teamID", value: .string("B"))]), "exportOptions: \"teamID\" is given twice"),
        ]
        for (options, message) in cases {
            do {
                _ = try options.plist(method: .adHoc)
                Issue.record("\(options) was accepted")
            } catch {
                #expect(error.description == message)
            }
        }
    }

    @Test func everyDocumentedKeyHasAType() {
        #expect(ExportOptionKey.allCases.count == 21)
        #expect(ExportOptionKey.thinning.valueType == .string)
        #expect(ExportOptionKey.compileBitcode.valueType == .bool)
        #expect(ExportOptionKey.provisioningProfiles.valueType == .dictionary)
    }
}
