@testable import LanesImport
import Testing

/// A Fastfile's `platform :android` lanes become lanes using gradle, upload_to_play_store and supply's
/// companions, with supply's option names mapped to the steps' and no TODO left.
@Suite(.timeLimit(.minutes(3))) struct AndroidImportTests {
    static let fastfile = """
        default_platform(:android)

        platform :android do
          desc "Internal build"
          lane :internal do
            build_android_app(task: "bundle", build_type: "Release")
            upload_to_play_store(track: "internal", release_status: "draft", json_key: "play.json", skip_upload_images: true,
                                 mapping: "app/build/outputs/mapping/release/mapping.txt", timeout: 600)
          end

          lane :promote do
            supply(track: "beta", track_promote_to: "production", rollout: "0.1", json_key_data: ENV["PLAY_JSON"])
            codes = google_play_track_version_codes(track: "production", package_name: "com.example.brewer")
            names = google_play_track_release_names(track: "production", package_name: "com.example.brewer")
          end

          lane :share do
            validate_play_store_json_key(json_key: "play.json")
            url = upload_to_play_store_internal_app_sharing(apk: "app.apk", package_name: "com.example.brewer")
            download_from_play_store(package_name: "com.example.brewer", metadata_path: "fastlane/metadata/android")
          end
        end
        """

    @Test func androidLanesUseThePlayStoreSteps() {
        let result = FastlaneImporter.importRuby(Self.fastfile, configuration: FastlaneConfiguration())
        let text = result.lanefile
        #expect(text.contains(#"try await gradle(task: "bundle", buildType: "Release")"#) || text.contains(#"try await buildAndroidApp(task: "bundle", buildType: "Release")"#), "\(text)")
        let upload = text.split(separator: "\n").first { $0.contains("try await uploadToPlayStore(") && $0.contains(#"track: "internal""#) } ?? ""
        #expect(upload.contains("releaseStatus: .draft") && upload.contains(#"mapping: "app/build/outputs/mapping/release/mapping.txt""#)
                && upload.contains("skipUploadImages: true") && upload.contains("jsonKey:"), "\(text)")
        // supply's per-request timeout is not lanes' whole-step timeout: dropped and reported, never silently.
        #expect(result.report.droppedOptions.contains { $0.action == "upload_to_play_store" && $0.option == "timeout" },
                "\(result.report.droppedOptions)")
        #expect(text.contains("trackPromoteTo: \"production\""), "\(text)")
        #expect(text.contains("googlePlayTrackVersionCodes(") && text.contains("googlePlayTrackReleaseNames("), "\(text)")
        #expect(text.contains("validatePlayStoreJsonKey(") && text.contains("uploadToPlayStoreInternalAppSharing(") && text.contains("downloadFromPlayStore("), "\(text)")
        #expect(!text.contains(#"sh("fastlane""#), "an Android action was left to fastlane: \(text)")
        #expect(result.report.todos.isEmpty, "\(result.report.todos)")
    }
}
