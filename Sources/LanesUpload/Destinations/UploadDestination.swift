import LanesHTTP
/// Where `lanes upload FILE --to DESTINATION` sends a file, parsed from the DESTINATION text:
///
/// - a directory path, or `file:///dir`: the local content-addressed store;
/// - `http://...` or `https://...`: a PUT to that URL (a URL ending in "/" gets the file name appended);
/// - `s3://BUCKET/KEY` (a KEY ending in "/" or empty gets the file name appended);
/// - `firebase://APP_ID`: Firebase App Distribution, APP_ID like `1:1234567890:ios:0a1b2c3d4e5f`;
/// - `testflight://APP_ID`: App Store Connect / TestFlight, APP_ID the numeric Apple ID of the app.
public enum UploadDestination: Sendable, Hashable, CustomStringConvertible {
    case directory(path: String)
    case http(HTTPURL)
    case s3(bucket: String, key: String)
    case firebase(appID: String)
    case testFlight(appID: String)

    public init(parsing text: String) throws(UploadError) {
        let lower = text.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            guard let url = HTTPURL(text) else {
                throw .usage("--to \(HTTPURL.withoutUserInfo(text)): not a valid http(s) URL", hint: "use https://host[:port]/path; credentials go in LANES_HTTP_TOKEN or LANES_HTTP_USER/LANES_HTTP_PASSWORD, never in the URL")
            }
            self = .http(url)
        } else if lower.hasPrefix("s3://") {
            let rest = text.dropFirst(5)
            let bucket = String(rest.prefix { $0 != "/" })
            let key = String(rest.dropFirst(bucket.count + 1))
            guard Self.isBucketName(bucket) else {
                throw .usage("--to \(text): \"\(bucket)\" is not a valid S3 bucket name", hint: "use s3://BUCKET/KEY; BUCKET is 3-63 lowercase letters, digits, dots or hyphens")
            }
            self = .s3(bucket: bucket, key: key)
        } else if lower.hasPrefix("firebase://") {
            let appID = String(text.dropFirst(11))
            guard Self.firebaseProjectNumber(appID) != nil else {
                throw .usage("--to \(text): \"\(appID)\" is not a Firebase app ID", hint: "use firebase://1:PROJECT_NUMBER:ios:HEX, the app ID shown in the Firebase console's project settings")
            }
            self = .firebase(appID: appID)
        } else if lower.hasPrefix("testflight://") {
            let appID = String(text.dropFirst(13))
            guard !appID.isEmpty, appID.allSatisfy(\.isNumber) else {
                throw .usage("--to \(text): \"\(appID)\" is not an App Store Connect app ID", hint: "use testflight://APPLE_ID, the numeric Apple ID in App Store Connect's App Information")
            }
            self = .testFlight(appID: appID)
        } else if lower.hasPrefix("file://") {
            let path = String(text.dropFirst(7))
            guard path.hasPrefix("/") else { throw .usage("--to \(text): a file:// URL needs an absolute path (file:///dir)") }
            self = .directory(path: path)
        } else if let scheme = text.firstRange(of: "://") {
            throw .usage("--to \(text): unknown scheme \"\(text[..<scheme.lowerBound])\"",
                         hint: "use a directory, file://, http(s)://, s3://, firebase:// or testflight://")
        } else {
            guard !text.isEmpty else { throw .usage("--to: the destination is empty") }
            self = .directory(path: text)
        }
    }


    /// The project number inside an app ID `1:NUMBER:platform:hex`.
    static func firebaseProjectNumber(_ appID: String) -> String? {
        let parts = appID.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].allSatisfy(\.isNumber), !parts[1].isEmpty, parts[1].allSatisfy(\.isNumber),
              ["ios", "android", "web"].contains(parts[2]), !parts[3].isEmpty, parts[3].allSatisfy(\.isHexDigit) else { return nil }
        return String(parts[1])
    }

    static func isBucketName(_ name: String) -> Bool {
        let allowed = name.allSatisfy { ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == "." || $0 == "-" }
        guard allowed, (3...63).contains(name.count), let first = name.first, let last = name.last else { return false }
        return (first.isLetter || first.isNumber) && (last.isLetter || last.isNumber)
    }

    public var description: String {
        switch self {
        case .directory(let path): path
        case .http(let url): url.description
        case .s3(let bucket, let key): "s3://\(bucket)/\(key)"
        case .firebase(let appID): "firebase://\(appID)"
        case .testFlight(let appID): "testflight://\(appID)"
        }
    }
}
