import Foundation
import LanesDoctor
import LanesTestSupport
import Testing

/// `lanes doctor` on the web fixture: one configuration with good material, one with the signing
/// tests' expired profile; secrets and certificate passwords from the environment or `--env` files.
@Suite(.timeLimit(.minutes(10)), .tags(.live), .serialized) struct DoctorTests {
    static func json(_ result: ProgramResult) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        return try #require(object["findings"] as? [[String: Any]])
    }

    static func finding(_ findings: [[String: Any]], _ subject: String) -> [String: Any]? {
        findings.first { $0["subject"] as? String == subject }
    }

    @Test func anExpiredProfileIsAnErrorWithAFixAndTheExitStatusSaysSo() async throws {
        let project = try WebProject()
        let result = try await project.lanes(["doctor"], extraEnvironment: ["CERTIFICATE_PASSWORD": "brewer-3des-pass"])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.standardOutput.contains("ERROR   Lapsed profile: profile 'Brewer_Staging_Expired' expired on"))
        #expect(result.standardOutput.contains("fix: renew the profile"))
        #expect(result.standardOutput.contains("ok      Staging profile: profile 'Brewer_Staging' valid for"))
        #expect(result.standardOutput.contains("ok      Staging certificate:"))
        #expect(!result.output.contains("brewer-3des-pass"))
        #expect(!result.output.contains(WebProject.canary))
        #expect(result.standardOutput.contains("ok      CANARY: secret is set"))
    }

    @Test func theWarningWindowIsConfigurable() async throws {
        let project = try WebProject()
        let findings = try Self.json(try await project.lanes(["doctor", "--json", "--warning-days", "20000"],
                                                       extraEnvironment: ["CERTIFICATE_PASSWORD": "brewer-3des-pass"]))
        #expect(Self.finding(findings, "Staging certificate")?["severity"] as? String == "warning")
        #expect((Self.finding(findings, "Staging certificate")?["message"] as? String)?.contains("expires in") == true)
        let relaxed = try Self.json(try await project.lanes(["doctor", "--json"], extraEnvironment: ["CERTIFICATE_PASSWORD": "brewer-3des-pass"]))
        #expect(Self.finding(relaxed, "Staging certificate")?["severity"] as? String == "ok")
    }

    @Test func missingAndWrongPasswordsAndSecretsAreNamedNeverShown() async throws {
        let project = try WebProject()
        var lanes = project.lanes
        lanes.environment["CANARY"] = nil
        let missing = try await lanes.run(["doctor", "--json"], in: project.directory)
        #expect(missing.status == 1)
        let findings = try Self.json(missing)
        #expect((Self.finding(findings, "Staging certificate")?["message"] as? String)?.contains("CERTIFICATE_PASSWORD") == true)
        #expect(Self.finding(findings, "CANARY")?["severity"] as? String == "error")

        let wrong = try await project.lanes(["doctor", "--json"], extraEnvironment: ["CERTIFICATE_PASSWORD": "not-the-password-31337"])
        let wrongFindings = try Self.json(wrong)
        #expect(Self.finding(wrongFindings, "Staging certificate")?["severity"] as? String == "error")
        #expect(!wrong.output.contains("not-the-password-31337"))

        // The password from `--env ci` (.env.ci), as `lanes LANE --env ci` would read it.
        try "CERTIFICATE_PASSWORD=brewer-3des-pass\n".write(to: project.directory.appendingPathComponent(".env.ci"), atomically: true, encoding: .utf8)
        let fromFile = try Self.json(try await project.lanes(["doctor", "--json", "--env", "ci"]))
        #expect(Self.finding(fromFile, "Staging certificate")?["severity"] as? String == "ok")
        #expect(try await project.lanes(["doctor", "--env", "nope"]).status == 78)
    }

    @Test func toolchainAndSchedulesAreChecked() async throws {
        let project = try WebProject()
        let findings = try Self.json(try await project.lanes(["doctor", "--json", "--state-dir", project.state],
                                                       extraEnvironment: ["CERTIFICATE_PASSWORD": "brewer-3des-pass"]))
        #expect(Self.finding(findings, "OpenSSL")?["severity"] as? String == "ok")
        #expect(Self.finding(findings, "swiftc")?["severity"] as? String != "error")
        #expect(Self.finding(findings, "libgit2") != nil)
        #expect(Self.finding(findings, "build")?["area"] as? String == "schedules")
        #expect(Self.finding(findings, "state folder")?["severity"] as? String == "ok")

        // A state folder nobody may write to is an error (root ignores permissions: use a file as the parent).
        let blocker = project.directory.appendingPathComponent("not-a-folder")
        try "x".write(to: blocker, atomically: true, encoding: .utf8)
        let blocked = try Self.json(try await project.lanes(["doctor", "--json", "--state-dir", blocker.path + "/state"],
                                                      extraEnvironment: ["CERTIFICATE_PASSWORD": "brewer-3des-pass"]))
        #expect(Self.finding(blocked, "state folder")?["severity"] as? String == "error")
    }

    @Test func signingCheckupCountsDownOnAGivenDay() throws {
        let root = LanesCommandLine.repositoryRoot.path
        let material = SigningMaterial(configuration: "Staging", certificatePath: root + "/Example/codesigning/ios_distribution.p12",
                                       passwordVariable: "PASS", profilePath: root + "/Example/codesigning/Brewer_Staging.mobileprovision",
                                       trustPath: root + "/Example/codesigning/test-root.crt", appIdentifier: "works.sth.brewer.staging")
        let checkup = SigningCheckup(warningDays: 30)
        let variables = ["PASS": "brewer-3des-pass"]
        let now = checkup.check(material, variables: variables, at: Date())
        let expiry = try #require(now.profile?.expires)
        let soon = checkup.check(material, variables: variables, at: expiry.addingTimeInterval(-10 * 86_400))
        #expect(soon.profile?.severity == .warning)
        #expect(soon.profile?.daysLeft == 10)
        let after = checkup.check(material, variables: variables, at: expiry.addingTimeInterval(86_400))
        #expect(after.profile?.severity == .error)
        #expect(after.severity == .error)
        #expect(SigningWatch.expiredMaterial(in: [after]) != nil)
        #expect(SigningWatch.expiredMaterial(in: [now]) == nil)
    }
}
