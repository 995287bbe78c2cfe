internal import LanesPlatform
import LanesHTTP

/// AWS Signature Version 4 (for S3, and for STS when assuming a role), on OpenSSL's HMAC-SHA256 and SHA-256.
struct SigV4Signer: Sendable {
    let credentials: S3Credentials
    let region: String
    var service = "s3"
    /// Seconds since the epoch; injected so tests sign at a fixed instant.
    let now: @Sendable () -> Int

    /// `value` trimmed, with every run of spaces and tabs made one space.
    static func collapsingSpaces(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// The payload hash S3 accepts when the body is protected by Content-MD5 instead: hashing a
    /// 2 GB body twice (once to sign, once to check) would cost seconds for nothing.
    static let unsignedPayload = "UNSIGNED-PAYLOAD"

    /// Adds `x-amz-date`, `x-amz-content-sha256`, the session token and `Authorization` to `request`.
    func sign(_ request: inout HTTPRequest, payloadHash: String) {
        let (date, stamp) = Self.timestamps(now())
        request.headers.removeAll { ["authorization", "x-amz-date", "x-amz-content-sha256", "x-amz-security-token"].contains($0.name.lowercased()) }
        request.headers.append(("x-amz-date", stamp))
        // S3 wants the payload hash as a header too; other services (STS) sign it without one, as botocore does.
        if service == "s3" { request.headers.append(("x-amz-content-sha256", payloadHash)) }
        if let token = credentials.sessionToken { request.headers.append(("x-amz-security-token", token)) }

        var signed: [(String, String)] = [("host", request.url.authority)]
        for index in request.headers.indices {
            let name = request.headers[index].name.lowercased()
            if name.hasPrefix("x-amz-") || name == "content-md5" || name == "content-type" {
                // The canonical value trims the ends and collapses each run of spaces to one
                // (SigV4's rule); the header is sent in that form too, so servers that apply the
                // rule and servers that do not compute the same signature.
                let value = Self.collapsingSpaces(request.headers[index].value)
                request.headers[index].value = value
                signed.append((name, value))
            }
        }
        signed.sort { $0.0 < $1.0 }
        let signedHeaders = signed.map(\.0).joined(separator: ";")
        let canonical = [
            request.method,
            request.url.path,
            Self.canonicalQuery(request.url.query),
            signed.map { "\($0.0):\($0.1)\n" }.joined(),
            signedHeaders,
            payloadHash,
        ].joined(separator: "\n")
        let scope = "\(date)/\(region)/\(service)/aws4_request"
        let stringToSign = "AWS4-HMAC-SHA256\n\(stamp)\n\(scope)\n\(Digest.hash(.sha256, canonical).hex)"
        var key = HMAC.sha256(key: Array("AWS4\(credentials.secretAccessKey)".utf8), message: Array(date.utf8))
        for part in [region, service, "aws4_request"] { key = HMAC.sha256(key: key, message: Array(part.utf8)) }
        let signature = HMAC.sha256(key: key, message: Array(stringToSign.utf8)).hex
        request.headers.append(("Authorization",
                                "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(signedHeaders), Signature=\(signature)"))
    }

    /// Query parameters sorted by name then value; they are already percent-encoded by their builder.
    static func canonicalQuery(_ query: String?) -> String {
        guard let query, !query.isEmpty else { return "" }
        var pairs: [(name: String, value: String)] = []
        for item in query.split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            pairs.append((String(pair[0]), pair.count > 1 ? String(pair[1]) : ""))
        }
        pairs.sort { left, right in left.name == right.name ? left.value < right.value : left.name < right.name }
        return pairs.map { $0.name + "=" + $0.value }.joined(separator: "&")
    }

    /// `YYYYMMDD` and `YYYYMMDDTHHMMSSZ` in UTC.
    static func timestamps(_ seconds: Int) -> (date: String, stamp: String) {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0" + String(value) : String(value) }
        let year = String(parts.tm_year + 1900)
        let date: String = year + two(parts.tm_mon + 1) + two(parts.tm_mday)
        let clock: String = two(parts.tm_hour) + two(parts.tm_min) + two(parts.tm_sec)
        return (date, date + "T" + clock + "Z")
    }
}

/// Seconds since the epoch from the system clock.
@Sendable public func systemSeconds() -> Int { Int(time(nil)) }
