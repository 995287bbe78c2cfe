import LanesHTTP
extension S3Client {
    /// The keys under `prefix` (ListObjectsV2, every page), for stores that read a whole prefix
    /// (a fastlane match bucket).
    public func listObjects(bucket: String, prefix: String) throws(UploadError) -> [String] {
        var keys: [String] = []
        var continuation: String?
        // Bounded: 1,000 keys a page, 10,000 pages.
        for _ in 0..<10_000 {
            var query = "list-type=2&prefix=\(Self.queryEncoded(prefix))"
            if let continuation { query += "&continuation-token=\(Self.queryEncoded(continuation))" }
            let response = try send("GET", bucket: bucket, key: "", query: query)
            guard response.isSuccess else { throw failure(response, bucket: bucket, key: prefix, action: "list the objects") }
            let body = Substring(response.text)
            keys += XMLFields.blocks("Contents", in: body).compactMap { XMLFields.value("Key", in: $0).map(XMLFields.unescape) }
            guard XMLFields.value("IsTruncated", in: body) == "true", let next = XMLFields.value("NextContinuationToken", in: body) else {
                return keys
            }
            continuation = XMLFields.unescape(next)
        }
        return keys
    }

    /// RFC 3986 percent-encoding of a query value, as SigV4 signs it.
    static func queryEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                result.append(Character(UnicodeScalar(byte)))
            default:
                let hex = Array("0123456789ABCDEF")
                result += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 0x0F)])"
            }
        }
        return result
    }

    /// PUTs bytes held in memory as `key`.
    public func putObject(bucket: String, key: String, bytes: [UInt8], contentType: String = "application/octet-stream") throws(UploadError) {
        let response = try send("PUT", bucket: bucket, key: key, headers: [("Content-Type", contentType)], body: .bytes(bytes))
        guard response.isSuccess else { throw failure(response, bucket: bucket, key: key, action: "upload the object") }
    }
}
