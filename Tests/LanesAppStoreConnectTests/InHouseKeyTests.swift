import Foundation
import LanesAppStoreConnect
import LanesUpload
import Testing
import LanesHTTP

/// fastlane's `in_house`: an enterprise key's tokens and requests go to Apple's enterprise API.
struct InHouseKeyTests {
    @Test func theHostFollowsTheKeyUnlessLANES_ASC_API_URLSaysOtherwise() throws {
        #expect(try AppStoreConnectClient.baseURL(environment: [:], inHouse: true).host == "api.enterprise.developer.apple.com")
        #expect(try AppStoreConnectClient.baseURL(environment: [:], inHouse: false).host == "api.appstoreconnect.apple.com")
        #expect(try AppStoreConnectClient.baseURL(environment: ["LANES_ASC_API_URL": "http://127.0.0.1:9"], inHouse: true).host == "127.0.0.1")
    }

    @Test func theTokensAudienceFollowsTheKey() throws {
        let pem = try LocalAppStoreConnect.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"])
        for inHouse in [true, false] {
            let key = try AppStoreConnectKey(keyID: "K", issuerID: "I", keyContent: pem, inHouse: inHouse)
            let payload = try #require(try key.token(now: 1_800_000_000).split(separator: ".").dropFirst().first)
            var base64 = payload.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            let data = try #require(Data(base64Encoded: base64))
            let claims = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(claims["aud"] as? String == (inHouse ? "apple-developer-enterprise-v1" : "appstoreconnect-v1"))
        }
    }
}
