import Foundation
import Testing
@testable import LanesUpload
@testable import LanesHTTP

/// Issue 21: SigV4 collapses runs of spaces in signed header values, as the specification says.
@Suite struct SigV4SpacesTests {
    static func signed(_ value: String) throws -> HTTPRequest {
        let signer = SigV4Signer(credentials: S3Credentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
                                 region: "us-east-1", now: { 1_440_938_160 })
        var request = HTTPRequest(method: "PUT", url: try #require(HTTPURL("https://bucket.s3.amazonaws.com/key")),
                                  headers: [("x-amz-meta-note", value), ("Content-Type", "text/plain;   charset=utf-8")])
        signer.sign(&request, payloadHash: SigV4Signer.unsignedPayload)
        return request
    }

    @Test func runsOfSpacesSignAsOneSpace() throws {
        let spaced = try Self.signed("  a   b \t c  ")
        let single = try Self.signed("a b c")
        #expect(spaced.header("Authorization") == single.header("Authorization"))
        #expect(spaced.header("x-amz-meta-note") == "a b c", "the header is sent as it was signed")
        #expect(spaced.header("Content-Type") == "text/plain; charset=utf-8")
    }
}
