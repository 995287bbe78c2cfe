import Foundation
import LanesTestSupport
import Testing

/// Issue 31: `lanes asc` outside a lane printed a JWT a server echoed back in an error (a lane
/// masked it), and App Store Connect's `errors[].detail` reached the terminal with its escape
/// sequences raw.
extension LocalAppStoreConnectTests {
    @Suite struct AscOutputAuditTests {
        let server: LocalAppStoreConnect
        let lanes = LanesProcess()

        init() throws { server = try LocalAppStoreConnect.shared.get() }

        var environment: [String: String] {
            ["APP_STORE_CONNECT_API_KEY_KEY_ID": LocalAppStoreConnect.keyID, "APP_STORE_CONNECT_API_KEY_ISSUER_ID": LocalAppStoreConnect.issuer,
             "APP_STORE_CONNECT_API_KEY_KEY": Data(server.keyPEM.utf8).base64EncodedString(),
             "APP_STORE_CONNECT_API_KEY_IS_KEY_CONTENT_BASE64": "true", "LANES_ASC_API_URL": server.base]
        }

        @Test func lanesAscMasksATokenTheServerEchoesBack() throws {
            try server.reset(["apps": [LocalAppStoreConnect.app],
                              "failure": ["path": "/v1/apps", "status": 403, "detail": "This key may not list apps", "echoToken": true]])
            let result = try lanes.run(["asc", "apps"], in: LanesProcess.temporaryDirectory("asc-echo"), extraEnvironment: environment)
            #expect(result.status != 0, "\(result.output)")
            #expect(result.standardError.contains("This key may not list apps"), "\(result.output)")
            #expect(result.standardError.contains("request token: ********"), "\(result.output)")
            #expect(!result.output.contains("eyJ"), "the JWT was printed: \(result.output)")
        }

        @Test(arguments: [["asc", "apps"], ["run", "latest_testflight_build_number", "app_identifier:com.example.brewer"]])
        func serverErrorTextShowsItsControlCharactersVisibly(arguments: [String]) throws {
            try server.reset(["apps": [LocalAppStoreConnect.app],
                              "failure": ["path": "/v1/apps", "status": 403, "detail": "denied \u{1B}]0;pwned\u{07}\u{1B}[2J\rfine"]])
            let result = try lanes.run(arguments, in: LanesProcess.temporaryDirectory("asc-escape"), extraEnvironment: environment)
            #expect(result.status != 0, "\(result.output)")
            #expect(result.standardError.contains("denied ^[]0;pwned^G^[[2J^Mfine"), "\(result.output)")
            #expect(!result.output.contains("\u{1B}") && !result.output.contains("\u{07}") && !result.output.contains("\r"),
                    "a raw control character reached the terminal: \(result.output.debugDescription)")
        }
    }
}
