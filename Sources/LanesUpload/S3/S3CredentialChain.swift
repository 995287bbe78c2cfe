#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import LanesPlatform
import Synchronization
import LanesHTTP

/// Finds S3 credentials the way the AWS CLI does, first match wins:
///
/// 1. `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` / `AWS_SESSION_TOKEN` (unless a profile was named);
/// 2. web identity: the profile's `role_arn` + `web_identity_token_file`, or `AWS_ROLE_ARN` +
///    `AWS_WEB_IDENTITY_TOKEN_FILE`, exchanged with STS `AssumeRoleWithWebIdentity`;
/// 3. the profile in the shared credentials file (`AWS_SHARED_CREDENTIALS_FILE`, `~/.aws/credentials`);
/// 4. the profile's `credential_process` in the config file (`AWS_CONFIG_FILE`, `~/.aws/config`);
/// 5. the profile's keys in the config file;
/// 6. container credentials (`AWS_CONTAINER_CREDENTIALS_RELATIVE_URI` or `_FULL_URI`, with
///    `AWS_CONTAINER_AUTHORIZATION_TOKEN[_FILE]`), as ECS and EKS Pod Identity serve them;
/// 7. the EC2 instance metadata service, IMDSv2 (a token PUT, then GETs), unless
///    `AWS_EC2_METADATA_DISABLED=true`.
///
/// The profile is the one named, else `AWS_PROFILE`, else `default`. Every secret it reads (a web
/// identity token, a container token, the keys it gets) goes to `registerSecret` before any use.
public struct S3CredentialChain: Sendable {
    let environment: [String: String]
    let http: HTTPClient
    /// For the metadata services on link-local addresses: never through a proxy, short limits.
    let metadataHTTP: HTTPClient
    let registerSecret: @Sendable (String) -> Void
    let now: @Sendable () -> Int
    /// Seconds a `credential_process` may run before its process group is killed.
    let processDeadline: Double

    public init(environment: [String: String], http: HTTPClient? = nil, registerSecret: @escaping @Sendable (String) -> Void = { _ in },
                now: @escaping @Sendable () -> Int = systemSeconds, processDeadline: Double = 60) {
        self.environment = environment
        self.processDeadline = processDeadline
        self.http = http ?? HTTPClient(timeouts: RequestTimeouts(connect: 5, idle: 30), retry: RetryPolicy(attempts: 3),
                                       proxies: ProxySettings(environment: environment))
        let timeout = environment["AWS_METADATA_SERVICE_TIMEOUT"].flatMap(Double.init) ?? 1
        let attempts = environment["AWS_METADATA_SERVICE_NUM_ATTEMPTS"].flatMap(Int.init) ?? 1
        metadataHTTP = HTTPClient(timeouts: RequestTimeouts(connect: timeout, idle: timeout, resolve: timeout),
                                  retry: RetryPolicy(attempts: max(1, attempts), baseDelay: 0.1), cancellation: self.http.cancellation,
                                  proxies: .direct)
        self.registerSecret = registerSecret
        self.now = now
    }

    public func resolve(profile named: String? = nil) throws(UploadError) -> S3Credentials {
        if named == nil, let key = value("AWS_ACCESS_KEY_ID") {
            guard let secret = value("AWS_SECRET_ACCESS_KEY") else {
                throw .missingVariable("AWS_SECRET_ACCESS_KEY", for: "s3", detail: "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not")
            }
            return S3Credentials(accessKeyID: key, secretAccessKey: secret, sessionToken: value("AWS_SESSION_TOKEN"))
        }
        let name = named ?? value("AWS_PROFILE") ?? "default"
        let files = ProfileFiles(environment: environment)
        let profileWasNamed = named != nil || value("AWS_PROFILE") != nil
        if profileWasNamed, name != "default", files.credentials(name) == nil, files.config(name) == nil {
            throw UploadError(.configuration, "s3: profile \(name) is in neither \(files.credentialsFile) nor \(files.configFile)",
                              hint: "check the profile option (AWS_PROFILE), AWS_SHARED_CREDENTIALS_FILE and AWS_CONFIG_FILE")
        }
        if let found = try profileCredentials(name, files: files, sourceOf: []) { return found }
        if let found = try containerCredentials() { return found }
        if value("AWS_EC2_METADATA_DISABLED")?.lowercased() != "true", let found = try instanceMetadataCredentials() { return found }
        throw .missingVariable("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or the profile option, AWS_PROFILE)", for: "s3",
                               detail: "no credentials: not in the environment, no profile \(name) in \(files.credentialsFile) or \(files.configFile), no web identity or container credentials, and no instance metadata service answered")
    }

    /// What profile `name` gives, in botocore's order: an assumed role (`role_arn` with
    /// `source_profile` or `credential_source`), a web identity role, the credentials file, the config
    /// file's `credential_process`, the config file's keys. `sourceOf` lists the profiles that named
    /// this one as their `source_profile`, outermost first. Nil when the profile has none of them.
    func profileCredentials(_ name: String, files: ProfileFiles, sourceOf: [String], assumingRoles: Bool = true) throws(UploadError) -> S3Credentials? {
        let config = files.config(name) ?? [:]
        let configPlace = "profile \(name) in \(files.configFile)"
        if assumingRoles, let role = config["role_arn"], config["source_profile"] != nil || config["credential_source"] != nil {
            return try assumeRole(role, profile: name, config: config, files: files, sourceOf: sourceOf)
        }
        if let role = config["role_arn"], let tokenFile = config["web_identity_token_file"] {
            return try webIdentity(role: role, tokenFile: tokenFile, session: config["role_session_name"], place: configPlace)
        }
        if sourceOf.isEmpty, let role = value("AWS_ROLE_ARN"), let tokenFile = value("AWS_WEB_IDENTITY_TOKEN_FILE") {
            return try webIdentity(role: role, tokenFile: tokenFile, session: value("AWS_ROLE_SESSION_NAME"), place: "AWS_WEB_IDENTITY_TOKEN_FILE")
        }
        if let values = files.credentials(name) {
            return try S3Credentials.fromProfile(values, place: "profile \(name) in \(files.credentialsFile)")
        }
        if let command = config["credential_process"] {
            return try CredentialProcess(command: command, place: configPlace, environment: environment, deadline: processDeadline,
                                         cancellation: http.cancellation).run()
        }
        if config["aws_access_key_id"] != nil {
            return try S3Credentials.fromProfile(config, place: configPlace)
        }
        return nil
    }

    func value(_ name: String) -> String? {
        environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    // MARK: - Web identity (STS AssumeRoleWithWebIdentity)

    func webIdentity(role: String, tokenFile: String, session: String?, place: String) throws(UploadError) -> S3Credentials {
        guard let token = (try? FilePath.read(tokenFile))?.trimmingSpacesAndNewlines, !token.isEmpty else {
            throw UploadError(.environment, "s3: the web identity token file \(tokenFile) (from \(place)) cannot be read or is empty",
                              hint: "check the file the OIDC provider (EKS, GitHub Actions) writes")
        }
        registerSecret(token)
        let endpoint = try stsEndpoint()
        let form = [("Action", "AssumeRoleWithWebIdentity"), ("Version", "2011-06-15"), ("RoleArn", role),
                    ("RoleSessionName", session ?? "lanes-\(now())"), ("WebIdentityToken", token)]
        let body = form.map { "\($0.0)=\(PercentEncoding.encode($0.1))" }.joined(separator: "&")
        // The token goes in the body, never in the URL (which logs and errors may show).
        let request = HTTPRequest(method: "POST", url: endpoint, headers: [("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")],
                                  body: .bytes(Array(body.utf8)), idempotent: true)
        let response: HTTPResponse
        do { response = try http.send(request) } catch {
            throw UploadError.transfer("s3", "cannot reach STS at \(endpoint) for the web identity role \(role): \(error.detail)")
        }
        let xml = Substring(response.text)
        guard response.isSuccess, let credentials = XMLFields.blocks("Credentials", in: xml).first,
              let key = XMLFields.value("AccessKeyId", in: credentials), let secret = XMLFields.value("SecretAccessKey", in: credentials) else {
            let code = XMLFields.value("Code", in: xml) ?? "HTTP \(response.status)"
            let message = (XMLFields.value("Message", in: xml) ?? "").replacing(token, with: "********")
            throw UploadError(.configuration, "s3: STS refused the web identity token from \(place) for \(role): \(code) \(message)",
                              hint: "check the role's trust policy for this OIDC provider and audience, and AWS_ROLE_ARN")
        }
        let sessionToken = XMLFields.value("SessionToken", in: credentials)
        let source = "web identity role \(role)"
        return S3Credentials(accessKeyID: key, secretAccessKey: secret, sessionToken: sessionToken,
                             source: source, keyVariable: "AWS_ROLE_ARN", secretVariable: "AWS_ROLE_ARN",
                             expiration: try Self.expiration(XMLFields.value("Expiration", in: credentials), from: "STS for the \(source)"))
    }

    /// `AWS_ENDPOINT_URL_STS`, else `AWS_ENDPOINT_URL`, else STS in the region (the SDKs' regional
    /// default), else the global endpoint.
    func stsEndpoint(region: String? = nil) throws(UploadError) -> HTTPURL {
        if let text = value("AWS_ENDPOINT_URL_STS") ?? value("AWS_ENDPOINT_URL") {
            guard let url = HTTPURL(text) else { throw UploadError(.configuration, "s3: \(text) is not an http(s) URL for STS", hint: "check AWS_ENDPOINT_URL_STS") }
            return url
        }
        guard let region = region ?? value("AWS_REGION") ?? value("AWS_DEFAULT_REGION") else {
            return HTTPURL(isTLS: true, host: "sts.amazonaws.com", path: "/")
        }
        return HTTPURL(isTLS: true, host: "sts.\(region).amazonaws.com", path: "/")
    }

    // MARK: - Container credentials (ECS, EKS Pod Identity)

    func containerCredentials() throws(UploadError) -> S3Credentials? {
        let url: HTTPURL
        let variable: String
        if let relative = value("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") {
            variable = "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"
            guard let parsed = HTTPURL("http://169.254.170.2" + (relative.hasPrefix("/") ? relative : "/" + relative)) else {
                throw UploadError(.configuration, "s3: \(variable) is not a path", hint: "check \(variable)")
            }
            url = parsed
        } else if let full = value("AWS_CONTAINER_CREDENTIALS_FULL_URI") {
            variable = "AWS_CONTAINER_CREDENTIALS_FULL_URI"
            guard let parsed = HTTPURL(full) else { throw UploadError(.configuration, "s3: \(variable) is not an http(s) URL", hint: "check \(variable)") }
            // Plain http only to the container agent's own addresses, as the SDKs allow.
            guard parsed.isTLS || Self.isContainerHost(parsed.host) else {
                throw UploadError(.configuration, "s3: \(variable) is plain http to \(parsed.host), which is not a loopback or container agent address",
                                  hint: "use https, or the agent's address (169.254.170.2, 169.254.170.23, a loopback address)")
            }
            url = parsed
        } else {
            return nil
        }
        var headers: [(name: String, value: String)] = []
        var token = value("AWS_CONTAINER_AUTHORIZATION_TOKEN")
        if let file = value("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE") {
            guard let text = try? FilePath.read(file) else {
                throw UploadError(.environment, "s3: AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE \(file) cannot be read", hint: "check the file the agent mounts")
            }
            token = text.trimmingSpacesAndNewlines
        }
        if let token {
            registerSecret(token)
            headers.append(("Authorization", token))
        }
        let response: HTTPResponse
        do { response = try metadataHTTP.send(HTTPRequest(method: "GET", url: url, headers: headers)) } catch {
            throw UploadError.transfer("s3", "cannot reach the container credentials at \(url) (\(variable)): \(error.detail)")
        }
        guard response.isSuccess else {
            throw UploadError(.configuration, "s3: the container credentials at \(url) answered HTTP \(response.status)",
                              hint: "check \(variable) and the authorization token (AWS_CONTAINER_AUTHORIZATION_TOKEN[_FILE])")
        }
        return try decodeTemporary(response, from: "container credentials at \(url)", variable: variable)
    }

    static func isContainerHost(_ host: String) -> Bool {
        if ["169.254.170.2", "169.254.170.23", "fd00:ec2::23", "localhost", "::1"].contains(host) { return true }
        return NoProxyRule("127.0.0.0/8")?.matches(host: host, port: 0) == true
    }

    // MARK: - Instance metadata (IMDSv2)

    func instanceMetadataCredentials() throws(UploadError) -> S3Credentials? {
        let base = value("AWS_EC2_METADATA_SERVICE_ENDPOINT").flatMap(HTTPURL.init) ?? HTTPURL(isTLS: false, host: "169.254.169.254", path: "/")
        let tokenResponse: HTTPResponse
        do {
            tokenResponse = try metadataHTTP.send(HTTPRequest(method: "PUT", url: base.appending(path: "/latest/api/token"),
                                                              headers: [("x-aws-ec2-metadata-token-ttl-seconds", "21600")]))
        } catch {
            return nil  // no metadata service: not on EC2
        }
        var headers: [(name: String, value: String)] = []
        if [403, 404, 405].contains(tokenResponse.status) {
            // An IMDSv1-only service (or a proxy in front that refuses PUT): botocore then asks without
            // a token, unless IMDSv1 is disabled.
            guard value("AWS_EC2_METADATA_V1_DISABLED")?.lowercased() != "true" else {
                throw UploadError(.configuration, "s3: the instance metadata service at \(base.origin) refused a session token (HTTP \(tokenResponse.status)) and AWS_EC2_METADATA_V1_DISABLED=true forbids asking without one",
                                  hint: "enable IMDSv2 on the instance (hop limit 2 in containers), or unset AWS_EC2_METADATA_V1_DISABLED")
            }
        } else {
            guard tokenResponse.isSuccess, !tokenResponse.body.isEmpty else {
                throw UploadError(.configuration, "s3: the instance metadata service at \(base.origin) refused a session token (HTTP \(tokenResponse.status))",
                                  hint: "check the instance's metadata options (hop limit 2 in containers)")
            }
            let token = tokenResponse.text.trimmingSpacesAndNewlines
            registerSecret(token)
            headers.append((name: "x-aws-ec2-metadata-token", value: token))
        }
        let listing = base.appending(path: "/latest/meta-data/iam/security-credentials/")
        let roles: HTTPResponse
        do { roles = try metadataHTTP.send(HTTPRequest(method: "GET", url: listing, headers: headers)) } catch {
            throw UploadError.transfer("s3", "the instance metadata service at \(base.origin) stopped answering: \(error.detail)")
        }
        guard roles.isSuccess, let role = roles.text.split(whereSeparator: \.isNewline).first.map(String.init), !role.isEmpty else {
            throw UploadError(.configuration, "s3: this instance has no IAM role (the metadata service answered HTTP \(roles.status))",
                              hint: "attach an instance profile, or give credentials another way")
        }
        let credentials: HTTPResponse
        do { credentials = try metadataHTTP.send(HTTPRequest(method: "GET", url: listing.appending(path: HTTPURL.encode(role)), headers: headers)) } catch {
            throw UploadError.transfer("s3", "the instance metadata service at \(base.origin) stopped answering: \(error.detail)")
        }
        guard credentials.isSuccess else {
            throw UploadError(.configuration, "s3: the instance metadata service answered HTTP \(credentials.status) for the role \(role)")
        }
        return try decodeTemporary(credentials, from: "instance role \(role)", variable: "the instance's IAM role")
    }

    // MARK: - Temporary credentials in JSON

    /// The JSON that container credentials, IMDS and `credential_process` share (their field names).
    struct TemporaryCredentials: Decodable {
        let AccessKeyId: String?
        let SecretAccessKey: String?
        let Token: String?
        let SessionToken: String?
        let Expiration: String?
        let Version: Int?
        let Code: String?
    }

    private func decodeTemporary(_ response: HTTPResponse, from source: String, variable: String) throws(UploadError) -> S3Credentials {
        guard let decoded = try? JSONDecoder().decode(TemporaryCredentials.self, from: Data(response.body)),
              let key = decoded.AccessKeyId, let secret = decoded.SecretAccessKey else {
            throw UploadError(.configuration, "s3: the \(source) answered without AccessKeyId and SecretAccessKey")
        }
        if let code = decoded.Code, code != "Success" {
            throw UploadError(.configuration, "s3: the \(source) answered \(code)")
        }
        return S3Credentials(accessKeyID: key, secretAccessKey: secret, sessionToken: decoded.Token ?? decoded.SessionToken,
                             source: source, keyVariable: variable, secretVariable: variable,
                             expiration: try Self.expiration(decoded.Expiration, from: "the \(source)"))
    }

    /// An `Expiration` as seconds since the epoch; a time that cannot be read is an error, as it is for
    /// botocore, since keys that expire unnoticed would fail half way through an upload.
    static func expiration(_ text: String?, from source: String) throws(UploadError) -> Int? {
        guard let text else { return nil }
        guard let seconds = S3Credentials.epochSeconds(iso8601: text.trimmingSpacesAndNewlines) else {
            throw UploadError(.configuration, "s3: \(source) gave the Expiration '\(text.prefix(40))', which is not an ISO 8601 time")
        }
        return seconds
    }
}

/// `credential_process`: a program whose standard output is the credentials as JSON
/// (`{"Version": 1, "AccessKeyId": ..., "SecretAccessKey": ..., "SessionToken": ..., "Expiration": ...}`).
/// The command is split as a shell would split words, and run without a shell, in a process group
/// of its own that is killed whole at the deadline, on cancellation, or when it prints too much.
struct CredentialProcess {
    let command: String
    let place: String
    let environment: [String: String]
    /// Seconds the program may take (a prompt nobody answers, a hung SSO login).
    var deadline: Double = 60
    var cancellation: TransferCancellation?
    /// Credentials are a few hundred bytes: more is a program that never stops printing.
    static let outputLimit = 64 << 10

    func run() throws(UploadError) -> S3Credentials {
        let arguments = Self.words(command)
        guard !arguments.isEmpty else { throw UploadError(.configuration, "s3: credential_process of \(place) is empty") }
        let watch = ProcessWatch()
        let ends = monotonicSeconds() + deadline, cancellation = self.cancellation
        let watchdog = try? PlatformThread.start {
            let nap = ThreadSleeper()
            while watch.isRunning {
                if cancellation?.isCancelled == true { watch.stop(.cancelled) } else if monotonicSeconds() >= ends { watch.stop(.deadline) }
                nap.sleep(seconds: 0.02)
            }
        }
        var output: [UInt8] = [], errors: [UInt8] = []
        let status: WaitStatus
        do {
            status = try ChildProcess(arguments, environment: environment).runCapturingOutput(input: nil, started: watch.started) { stream, bytes in
                if stream == .standardOutput {
                    if output.count + bytes.count > Self.outputLimit { watch.stop(.tooMuchOutput) } else { output += bytes }
                } else if errors.count < 4096 {
                    errors += bytes
                }
            }
        } catch {
            _ = watch.finish()
            watchdog?.join()
            throw UploadError(.configuration, "s3: cannot run the credential_process of \(place): \(error)", hint: "check the command in \(place)")
        }
        let stopped = watch.finish()
        watchdog?.join()
        switch stopped {
        case .deadline:
            throw UploadError(.configuration, "s3: the credential_process of \(place) did not finish within \(Self.seconds(deadline)) and was killed",
                              hint: "run it by hand: it may wait for input (a prompt, a browser login) that nobody gives in a lane")
        case .cancelled:
            throw UploadError(.transfer, "s3: the credential_process of \(place) was stopped: the upload was cancelled")
        case .tooMuchOutput:
            throw UploadError(.configuration, "s3: the credential_process of \(place) printed more than \(Self.outputLimit >> 10) KiB and was killed",
                              hint: "it must print only the credentials as JSON")
        case nil:
            break
        }
        guard status == .exited(0) else {
            let said = String(decoding: errors, as: UTF8.self).split(whereSeparator: \.isNewline).last.map { ": \($0.prefix(200))" } ?? ""
            throw UploadError(.configuration, "s3: the credential_process of \(place) failed (status \(status.shellStatus))\(said)", hint: "run it by hand to see why")
        }
        guard let decoded = try? JSONDecoder().decode(S3CredentialChain.TemporaryCredentials.self, from: Data(output)),
              let key = decoded.AccessKeyId, let secret = decoded.SecretAccessKey else {
            throw UploadError(.configuration, "s3: the credential_process of \(place) printed no AccessKeyId and SecretAccessKey as JSON")
        }
        guard decoded.Version == 1 else {
            throw UploadError(.configuration, "s3: the credential_process of \(place) printed Version \(decoded.Version.map(String.init) ?? "none"); lanes reads Version 1")
        }
        return S3Credentials(accessKeyID: key, secretAccessKey: secret, sessionToken: decoded.SessionToken ?? decoded.Token,
                             source: "credential_process of \(place)", keyVariable: "credential_process of \(place)",
                             secretVariable: "credential_process of \(place)",
                             expiration: try S3CredentialChain.expiration(decoded.Expiration, from: "the credential_process of \(place)"))
    }

    /// The running program's process group, ended at most once and never after the run returned
    /// (its id may then belong to someone else).
    final class ProcessWatch: Sendable {
        enum Stop { case deadline, cancelled, tooMuchOutput }
        private let state = Mutex<(group: Int32?, finished: Bool, stop: Stop?)>((nil, false, nil))

        var isRunning: Bool { state.withLock { !$0.finished && $0.stop == nil } }

        func started(_ pid: Int32) { state.withLock { $0.group = pid } }

        func stop(_ reason: Stop) {
            state.withLock { state in
                guard !state.finished, state.stop == nil, let group = state.group else { return }
                state.stop = reason
                ProcessGroup.end(groups: [group], grace: 0)
            }
        }

        /// Marks the run over; why it was stopped, if it was.
        func finish() -> Stop? {
            state.withLock { state in
                state.finished = true
                return state.stop
            }
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// Words as a POSIX shell splits them: blanks separate, quotes group, a backslash escapes.
    static func words(_ text: String) -> [String] {
        var words: [String] = [], current = "", inWord = false
        var quote: Character?, escaped = false
        for character in text {
            if escaped { current.append(character); escaped = false; inWord = true; continue }
            if character == "\\" && quote != "'" { escaped = true; continue }
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
                continue
            }
            if character == "'" || character == "\"" { quote = character; inWord = true; continue }
            if character == " " || character == "\t" || character == "\n" {
                if inWord { words.append(current); current = ""; inWord = false }
                continue
            }
            current.append(character)
            inWord = true
        }
        if inWord { words.append(current) }
        return words
    }
}

extension String {
    var trimmingSpacesAndNewlines: String {
        var view = Substring(self)
        while let first = view.first, first.isWhitespace { view = view.dropFirst() }
        while let last = view.last, last.isWhitespace { view = view.dropLast() }
        return String(view)
    }
}
