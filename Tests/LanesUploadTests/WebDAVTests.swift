import Foundation
import LanesUpload
import Testing
import LanesHTTP

/// HTTP PUT to nginx's WebDAV module, the generic destination (Artifactory, Nexus raw, WebDAV).
@Suite(.enabled(if: TestServers.installed, "needs nginx and libnginx-mod-http-dav-ext: run `make deps-upload-servers`"))
struct WebDAVTests {
    let servers: TestServers
    init() throws { servers = try TestServers.get() }

    @Test func putsTheFileUnderTheURLWithChecksumHeaders() throws {
        let file = try TestFiles.random(size: 2_000_000, name: "App 1.ipa")
        let uploads = Uploads(environment: [:], registerSecret: { _ in })
        let destination = try UploadDestination(parsing: "\(servers.webDAV)/ios/\(UUID().uuidString)/")
        let receipt = try uploads.upload(file: file.path, to: destination)
        #expect(receipt.location.hasSuffix("/App%201.ipa"))
        #expect(receipt.sha256 == (try TestFiles.sha256(of: file)))
        let back = try HTTPClient().send(HTTPRequest(method: "GET", url: try #require(HTTPURL(receipt.location))))
        #expect(back.status == 200)
        #expect(try TestFiles.sha256(back.body) == receipt.sha256)
    }

    @Test func basicAuthenticationFromTheEnvironmentAndAClearErrorWhenItIsWrong() throws {
        let file = try TestFiles.random(size: 10_000)
        let target = try UploadDestination(parsing: "\(servers.webDAV)/private/\(UUID().uuidString).bin")
        let secrets = DeliveryServiceTests.Secrets()
        let good = Uploads(environment: ["LANES_HTTP_USER": "ci", "LANES_HTTP_PASSWORD": servers.values["WEBDAV_PASSWORD"]!],
                           registerSecret: secrets.register)
        #expect(try good.upload(file: file.path, to: target).details["status"] == "201")
        #expect(secrets.all.contains(servers.values["WEBDAV_PASSWORD"]!))
        let bad = Uploads(environment: ["LANES_HTTP_USER": "ci", "LANES_HTTP_PASSWORD": "wrong-password"], registerSecret: { _ in })
        let error = try #require(throws: UploadError.self) { try bad.upload(file: file.path, to: target) }
        #expect(error.kind == .configuration)
        #expect(error.hint == "check LANES_HTTP_USER and LANES_HTTP_PASSWORD")
        #expect(!error.description.contains("wrong-password"))
    }
}
