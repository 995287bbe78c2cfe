#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import Synchronization
internal import LanesPlatform

/// `sign_apk`: zipalign, then apksigner with a keystore, then `apksigner verify`. The passwords are
/// secrets: apksigner reads them from its environment (`--ks-pass env:NAME`), never from its
/// arguments. The signed APK is written beside under a temporary name and renamed into place only
/// once verified, so a failed signing leaves nothing half-written.
public struct SignAPK: Step {
    public typealias Output = SignedAPK

    public static let definition = StepDefinition(
        id: "sign_apk",
        summary: "Align and sign an APK with zipalign and apksigner, then verify the signature",
        category: .signing,
        examples: [StepExample(swift: #"try await signApk(apkPath: "app-release-unsigned.apk", keystorePath: "release.keystore", alias: "release")"#,
                               commandLine: ["apk_path:app-release-unsigned.apk", "keystore_path:release.keystore", "alias:release"],
                               environment: ["SIGN_APK_STOREPASS"])])

    @StepOption("apk_path", "The APK to sign (default: the lane's last gradle APK)", env: "SIGN_APK_PATH")
    var apkPath: String?
    @StepOption("signed_apk_path", "Where the signed APK goes (default: beside it, -signed.apk)", env: "SIGN_APK_SIGNED_PATH")
    var signedAPKPath: String?
    @StepOption("keystore_path", "The keystore (JKS or PKCS#12)", env: "SIGN_APK_KEYSTORE_PATH")
    var keystorePath: String
    @StepOption("alias", "The key's alias in the keystore", env: "SIGN_APK_ALIAS")
    var alias: String
    @StepOption("storepass", "The keystore's password", env: "SIGN_APK_STOREPASS", secret: true)
    var storepass: Secret
    @StepOption("keypass", "The key's password (default: the keystore's)", env: "SIGN_APK_KEYPASS", secret: true)
    var keypass: Secret?
    @StepOption("zipalign", "Align the APK with zipalign before signing", env: "SIGN_APK_ZIPALIGN", default: true)
    var zipalign: Bool

    public init() {}

    public var banner: String { "Sign \(apkPath ?? "the lane's APK") with \(alias)" }

    static let storePassVariable = "LANES_APKSIGNER_STORE_PASS"
    static let keyPassVariable = "LANES_APKSIGNER_KEY_PASS"

    public func run(in context: StepContext) async throws -> SignedAPK {
        let step = Self.definition.id
        guard let input = apkPath.map(context.resolve) ?? context.values[LaneAndroidBuild.self]?.apkPath else {
            throw LanesError(.usage, "\(step): no apk_path given and no APK built in this lane", hint: "pass apk_path, or run gradle task:assemble first")
        }
        let keystore = context.resolve(keystorePath)
        for (path, option) in [(input, "apk_path"), (keystore, "keystore_path")] where !FilePath.exists(path) {
            throw LanesError(.configuration, "\(step): \(option) \(path) does not exist")
        }
        let output = signedAPKPath.map(context.resolve) ?? Self.signedName(for: input)
        let redactor = context.environment.redactor
        redactor.register(storepass.value)
        if let keypass { redactor.register(keypass.value) }
        let secrets = [Self.storePassVariable: storepass.value, Self.keyPassVariable: keypass?.value ?? storepass.value]

        let aligned = output + ".lanes-aligned", signing = output + ".lanes-signing"
        let leftovers: [String] = [aligned, signing, signing + ".idsig"]
        defer { for path in leftovers { unlink(path) } }
        var toSign = input
        if zipalign {
            try await context.runTool(["zipalign", "-f", "-p", "4", input, aligned], label: "zipalign", tool: "zipalign")
            toSign = aligned
        }
        try await context.runTool(["apksigner", "sign", "--ks", keystore, "--ks-key-alias", alias,
                                   "--ks-pass", "env:\(Self.storePassVariable)", "--key-pass", "env:\(Self.keyPassVariable)",
                                   "--out", signing, toSign],
                                  label: "apksigner", tool: "apksigner sign", environment: secrets)
        let digest = try await Self.verify(signing, context: context)
        guard rename(signing, output) == 0 else {
            throw LanesError(.environment, "\(step): cannot move the signed APK to \(output): \(String(cString: strerror(errno)))")
        }
        if FilePath.exists(signing + ".idsig") { _ = rename(signing + ".idsig", output + ".idsig") }
        context.log.line("signed \(output) (certificate SHA-256 \(digest))")
        return SignedAPK(path: output, certificateSHA256: digest)
    }

    /// `foo-unsigned.apk` -> `foo-signed.apk`, `foo.apk` -> `foo-signed.apk`.
    static func signedName(for input: String) -> String {
        var base = input.hasSuffix(".apk") ? String(input.dropLast(4)) : input
        if base.hasSuffix("-unsigned") { base = String(base.dropLast("-unsigned".count)) }
        return base + "-signed.apk"
    }

    /// `apksigner verify --print-certs`: fails unless the signature verifies; the first signer's certificate digest.
    static func verify(_ path: String, context: StepContext) async throws -> String {
        let lines = Mutex<[String]>([])
        let outcome = try await context.processes.run(ProcessRequest(["apksigner", "verify", "--print-certs", path])) { line in
            lines.withLock { $0.append(line) }
        }
        let output = lines.withLock { $0 }
        guard outcome.succeeded else {
            throw LanesError(.laneFailure, "sign_apk: apksigner verify refused \(path): \(context.environment.redactor.redact(output.suffix(3).joined(separator: " ")))")
        }
        let marker = "certificate SHA-256 digest: "
        guard let line = output.first(where: { $0.contains(marker) }), let range = line.range(of: marker) else {
            throw LanesError(.laneFailure, "sign_apk: apksigner verify printed no certificate digest for \(path)")
        }
        return String(line[range.upperBound...].filter { !$0.isWhitespace })
    }
}

/// The APK `sign_apk` wrote and who signed it.
public struct SignedAPK: Sendable, ReportableResult {
    public let path: String
    public let certificateSHA256: String

    public var report: StepResultReport {
        StepResultReport(lines: ["\(path) (certificate SHA-256 \(certificateSHA256))"],
                         json: .object([("path", .string(path)), ("certificate_sha256", .string(certificateSHA256))]))
    }
}
