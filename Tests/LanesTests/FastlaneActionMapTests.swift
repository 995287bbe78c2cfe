import Foundation
import LanesCodegen
import LanesTestSupport
import Testing
@testable import LanesRuntime

/// The fastlane action map names only steps and options that exist, and the migration guide is
/// generated from it.
@Suite(.timeLimit(.minutes(3))) struct FastlaneActionMapTests {
    @Test func everyNameIsMappedOnce() {
        let names = FastlaneActionMap.all.flatMap(\.names)
        let repeated = Dictionary(grouping: names, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "mapped twice: \(repeated)")
        for name in names {
            #expect(name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" }, "\(name)")
        }
    }

    /// A step named by the map is in the catalog.
    @Test func everyMappedStepExists() {
        for action in FastlaneActionMap.all {
            guard case .step(let id, _, _, _) = action.mapping else { continue }
            #expect(StepCatalog.step(id: id) != nil,
                    "\(action.name) maps to step \(id), which does not exist")
        }
    }

    /// Each lanes option named in the map is an option of that step; the fastlane names it lists
    /// as unsupported are not silently options after all.
    @Test func everyMappedOptionIsAnOptionOfItsStep() {
        for action in FastlaneActionMap.all {
            guard case .step(let id, let options, let unsupported, _) = action.mapping, let step = StepCatalog.step(id: id) else { continue }
            let known = Set(step.info.options.flatMap(\.names))
            for (fastlane, lanes) in options.sorted(by: { $0.key < $1.key }) {
                #expect(known.contains(lanes), "\(action.name): fastlane option \(fastlane) maps to \(id).\(lanes), which does not exist")
            }
            for name in unsupported.keys.sorted() {
                #expect(!known.contains(name) && options[name] == nil && step.definition.ignoredOptions[name] == nil,
                        "\(action.name): \(name) is listed as unsupported but \(id) has it")
            }
        }
    }

    /// Issue 33: for the actions whose every fastlane option the map lists, each one is a step
    /// option, an ignored option of fastlane's interface, or unsupported with a reason; every
    /// unsupported reason names an option fastlane has.
    @Test func everyFastlaneOptionOfTheListedActionsIsAccountedFor() {
        let listed = FastlaneActionMap.all.filter { !$0.fastlaneOptions.isEmpty }
        #expect(Set(listed.map(\.name)).isSuperset(of: ["build_app", "run_tests", "upload_to_testflight", "upload_to_app_store", "match",
                                                          "increment_build_number", "update_code_signing_settings"]))
        for action in listed {
            for row in action.optionTable {
                #expect(row.lanes != nil || !(row.unsupported ?? "").isEmpty, "\(action.name): fastlane's \(row.fastlane) is not accounted for")
            }
            guard case .step(let id, _, let unsupported, _) = action.mapping, let step = StepCatalog.step(id: id) else { continue }
            for name in unsupported.keys { #expect(action.fastlaneOptions.contains(name), "\(action.name): \(name) is not a fastlane option") }
            for name in step.definition.ignoredOptions.keys {
                #expect(action.fastlaneOptions.contains(name), "\(id) ignores \(name), which \(action.name) does not declare")
            }
        }
    }

    @Test func implicitAndUnsupportedActionsSayWhy() {
        for action in FastlaneActionMap.all {
            switch action.mapping {
            case .implicit(let reason), .notSupported(let reason): #expect(reason.count > 20, "\(action.name)")
            case .lanefile(let function, let note): #expect(!function.isEmpty && !note.isEmpty, "\(action.name)")
            case .step: break
            }
        }
        #expect(FastlaneActionMap.action(named: "create_keychain")?.mapping.status == "implicit")
        #expect(FastlaneActionMap.action(named: "gym")?.name == "build_app")
        #expect(FastlaneActionMap.action(named: "scan")?.mapping.isCovered == true)
    }

    @Test func theJSONHasOneObjectPerActionWithItsStatus() throws {
        let text = FastlaneMigration.json().serialized
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(decoded.count == FastlaneActionMap.all.count)
        let gym = try #require(decoded.first { $0["action"] as? String == "build_app" })
        #expect(gym["step"] as? String == "build_app" && gym["function"] as? String == "buildApp" && gym["status"] as? String == "step")
        #expect((gym["aliases"] as? [String])?.contains("gym") == true)
        #expect((gym["options"] as? [String: String])?["xcargs"] == "xcargs")
        let keychain = try #require(decoded.first { $0["action"] as? String == "delete_keychain" })
        #expect(keychain["covered"] as? Bool == true && (keychain["reason"] as? String)?.contains("keychain") == true)
    }

    @Test func theMigrationGuideIsCurrent() throws {
        let committed = try String(contentsOf: LanesCommandLine.repositoryRoot.appendingPathComponent(FastlaneMigration.markdownPath), encoding: .utf8)
        #expect(committed == FastlaneMigration.markdown(), "run `make generate` and commit the result")
    }
}
