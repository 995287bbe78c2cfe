import LanesHTTP
/// Options that only some destinations read. Every field has the default the command uses.
public struct UploadSettings: Sendable {
    /// S3: `--endpoint` (else `AWS_ENDPOINT_URL`, else AWS), `--region`, `--profile`, addressing style.
    public var s3Endpoint: String?
    public var s3Region: String?
    public var s3Profile: String?
    public var s3Addressing: S3Endpoint.Addressing?
    public var s3: S3UploadOptions
    public var firebase: FirebaseReleaseOptions

    public init(s3Endpoint: String? = nil, s3Region: String? = nil, s3Profile: String? = nil, s3Addressing: S3Endpoint.Addressing? = nil,
                s3: S3UploadOptions = S3UploadOptions(), firebase: FirebaseReleaseOptions = FirebaseReleaseOptions()) {
        self.s3Endpoint = s3Endpoint
        self.s3Region = s3Region
        self.s3Profile = s3Profile
        self.s3Addressing = s3Addressing
        self.s3 = s3
        self.firebase = firebase
    }
}

/// The entry point steps and the command use: turns a parsed destination plus the environment
/// into an `ArtifactDestination`, registering every secret it reads with `registerSecret` before
/// anything can print it.
public struct Uploads: Sendable {
    public let environment: [String: String]
    public let http: HTTPClient
    private let registerSecret: @Sendable (String) -> Void
    private let now: @Sendable () -> Int
    private let sleeper: any Sleeper

    public init(environment: [String: String], registerSecret: @escaping @Sendable (String) -> Void, http: HTTPClient = HTTPClient(),
                sleeper: (any Sleeper)? = nil, now: @escaping @Sendable () -> Int = systemSeconds) {
        self.environment = environment
        self.registerSecret = registerSecret
        self.http = http
        http.proxies.secrets.forEach(registerSecret)
        // Polls wait as the client's retries do: cut short when the transfer is cancelled.
        self.sleeper = sleeper ?? ThreadSleeper(cancellation: http.cancellation)
        self.now = now
    }

    public func destination(_ destination: UploadDestination, settings: UploadSettings = UploadSettings()) throws(UploadError) -> any ArtifactDestination {
        switch destination {
        case .directory(let path):
            return LocalStore(root: path, now: now)
        case .http(let url):
            let authorization = HTTPPutDestination.Authorization.from(environment: environment)
            authorization.secrets.forEach(registerSecret)
            return HTTPPutDestination(url: url, authorization: authorization, http: http)
        case .s3(let bucket, let key):
            let chain = S3CredentialChain(environment: environment, http: http, registerSecret: registerSecret, now: now)
            let profile = settings.s3Profile
            // Temporary credentials are found again when they near expiry, as the AWS SDKs do.
            let credentials = S3CredentialProvider(initial: try chain.resolve(profile: profile), registerSecret: registerSecret, now: now,
                                                   renew: { () throws(UploadError) in try chain.resolve(profile: profile) })
            let endpoint = try S3Endpoint.resolve(endpoint: settings.s3Endpoint, region: settings.s3Region,
                                                  addressing: settings.s3Addressing, environment: environment)
            let client = S3Client(endpoint: endpoint, credentialProvider: credentials, http: http, now: now)
            return S3Destination(bucket: bucket, key: key, uploader: S3Uploader(client: client, options: settings.s3))
        case .firebase(let appID):
            let account = try GoogleServiceAccount.resolve(environment: environment)
            account.secrets.forEach(registerSecret)
            return FirebaseAppDistribution(appID: appID, account: account, options: settings.firebase, http: http,
                                           apiBase: try apiBase("LANES_FIREBASE_API_URL", default: "https://firebaseappdistribution.googleapis.com"),
                                           tokenURL: try environment["LANES_GOOGLE_TOKEN_URL"].map { text throws(UploadError) in try url(text, variable: "LANES_GOOGLE_TOKEN_URL") },
                                           registerSecret: registerSecret, sleeper: sleeper, now: now)
        case .testFlight:
            // App Store Connect's build upload is LanesAppStoreConnect's client (async, cancellable polling).
            throw UploadError(.usage, "TestFlight uploads go through the upload_to_testflight step", hint: "lanes upload FILE --to testflight://APPLE_ID runs it")
        }
    }

    /// Parses `destination`, builds it and uploads `file` there.
    public func upload(file path: String, to destination: UploadDestination, settings: UploadSettings = UploadSettings(),
                       metadata: ArtifactMetadata = ArtifactMetadata(), progress: any ProgressReporter = SilentProgress()) throws(UploadError) -> UploadReceipt {
        try self.destination(destination, settings: settings).upload(file: path, metadata: metadata, progress: progress)
    }

    private func apiBase(_ variable: String, default fallback: String) throws(UploadError) -> HTTPURL {
        try url(environment[variable] ?? fallback, variable: variable)
    }

    private func url(_ text: String, variable: String) throws(UploadError) -> HTTPURL {
        guard let url = HTTPURL(text) else { throw UploadError(.configuration, "\(variable)=\(text) is not an http(s) URL", hint: "check \(variable)") }
        return url
    }
}
