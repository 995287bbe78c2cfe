import Foundation
import LanesDoctor
import LanesTestSupport
import Testing

/// Issue 21: signing files that lie. A FIFO among them never hangs the checkup (`lanes doctor`,
/// `cert info`, the /signing page), and a .p12 cut short or of another kind gets advice about the
/// file, not about its password.
@Suite(.timeLimit(.minutes(10))) struct SigningFilesLieTests {
    static let root = LanesCommandLine.repositoryRoot.path

    static func material(certificate: String) -> SigningMaterial {
        SigningMaterial(configuration: "Staging", certificatePath: certificate, passwordVariable: "PASS",
                        profilePath: root + "/Example/codesigning/Brewer_Staging.mobileprovision",
                        trustPath: root + "/Example/codesigning/test-root.crt", appIdentifier: "works.sth.brewer.staging")
    }

    static func certificateFinding(_ health: SigningHealth) -> DoctorFinding? {
        health.findings.first { $0.subject.hasSuffix("certificate") }
    }

    @Test func aFIFOAmongTheSigningFilesNeverHangs() async throws {
        let folder = LanesCommandLine.temporaryDirectory("fifo").path
        let fifo = folder + "/ios_distribution.p12"
        try #require(mkfifo(fifo, 0o600) == 0)
        let done = LockedBox(false)
        let result = LockedBox<SigningHealth?>(nil)
        startThread {
            result.set(SigningCheckup(warningDays: 30).check(Self.material(certificate: fifo), variables: ["PASS": "x"], at: Date()))
            done.set(true)
        }
        let finished = await eventually(within: .seconds(20)) { done.get() }
        if !finished {
            // Unblock the reader so the test ends (and fails) instead of hanging.
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            _ = await eventually(within: .seconds(5)) { done.get() }
        }
        #expect(finished, "the checkup hung on a FIFO")
        let finding = try #require(result.get().flatMap(Self.certificateFinding))
        #expect(finding.severity == .error)
        #expect(finding.message.contains("FIFO"), "\(finding.message)")
    }

    @Test func aTruncatedP12IsToldToBeCopiedAgain() throws {
        let folder = LanesCommandLine.temporaryDirectory("p12-cut").path
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.root + "/Example/codesigning/ios_distribution.p12"))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: folder + "/cut.p12"))
        let health = SigningCheckup(warningDays: 30).check(Self.material(certificate: folder + "/cut.p12"),
                                                            variables: ["PASS": "brewer-3des-pass"], at: Date())
        let finding = try #require(Self.certificateFinding(health))
        #expect(finding.fix?.contains("cut short") == true, "\(String(describing: finding.fix))")
        #expect(finding.fix?.contains("PASS") == false)
    }

    @Test func aFileThatIsNotPKCS12IsToldToBeExportedAsOne() throws {
        let health = SigningCheckup(warningDays: 30).check(Self.material(certificate: Self.root + "/Example/codesigning/test-root.crt"),
                                                            variables: ["PASS": "brewer-3des-pass"], at: Date())
        let finding = try #require(Self.certificateFinding(health))
        #expect(finding.fix?.contains("is not a .p12") == true, "\(String(describing: finding.fix))")
    }
}

/// A value set on one thread and read on another.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func set(_ new: Value) { lock.withLock { value = new } }
    func get() -> Value { lock.withLock { value } }
}
