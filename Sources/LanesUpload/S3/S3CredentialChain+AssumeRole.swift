internal import LanesPlatform
import LanesHTTP

/// The shared credentials and config files, read once per resolution.
struct ProfileFiles {
    let credentialsFile: String
    let configFile: String
    private let credentialsText: String?
    private let configText: String?

    init(environment: [String: String]) {
        let home = environment["HOME"] ?? ""
        credentialsFile = environment["AWS_SHARED_CREDENTIALS_FILE"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.aws/credentials"
        configFile = environment["AWS_CONFIG_FILE"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.aws/config"
        credentialsText = try? FilePath.read(credentialsFile)
        configText = try? FilePath.read(configFile)
    }

    func credentials(_ name: String) -> [String: String]? {
        credentialsText.flatMap { S3Credentials.parseProfile(name, in: $0) }
    }

    /// The config file names profiles `[profile NAME]`, except `[default]`.
    func config(_ name: String) -> [String: String]? {
        configText.flatMap { S3Credentials.parseProfile(name == "default" ? "default" : "profile \(name)", in: $0) }
    }
}

extension S3CredentialChain {
    /// STS `AssumeRole` with the credentials of `source_profile` or `credential_source`, as the AWS CLI
    /// does for a profile with `role_arn`: a SigV4-signed POST of the query API, answered in XML.
    func assumeRole(_ role: String, profile name: String, config: [String: String], files: ProfileFiles,
                    sourceOf: [String]) throws(UploadError) -> S3Credentials {
        let place = "profile \(name) in \(files.configFile)"
        if config["mfa_serial"] != nil {
            throw UploadError(.configuration, "s3: \(place) assumes the role \(role) with mfa_serial, which needs a code typed at a prompt",
                              hint: "a lane has nobody to type it: use a role without MFA for CI, or credential_process")
        }
        let source = try sourceCredentials(profile: name, config: config, files: files, sourceOf: sourceOf, place: place)
        source.secrets.forEach(registerSecret)
        var form = [("Action", "AssumeRole"), ("Version", "2011-06-15"), ("RoleArn", role),
                    ("RoleSessionName", config["role_session_name"] ?? "lanes-\(now())")]
        if let external = config["external_id"] { form.append(("ExternalId", external)) }
        if let text = config["duration_seconds"] {
            guard let seconds = Int(text), (900...43_200).contains(seconds) else {
                throw UploadError(.configuration, "s3: duration_seconds of \(place) is '\(text.prefix(20))', not a number of seconds from 900 to 43200")
            }
            form.append(("DurationSeconds", String(seconds)))
        }
        // STS is reached and signed in the region (the profile's, as botocore's STS client takes it);
        // the global endpoint signs as us-east-1.
        let region = value("AWS_REGION") ?? value("AWS_DEFAULT_REGION") ?? config["region"]
        let endpoint = try stsEndpoint(region: region)
        let body = Array(form.map { "\($0.0)=\(PercentEncoding.encode($0.1))" }.joined(separator: "&").utf8)
        var request = HTTPRequest(method: "POST", url: endpoint, headers: [("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")],
                                  body: .bytes(body), idempotent: true)
        SigV4Signer(credentials: source, region: region ?? "us-east-1", service: "sts", now: now).sign(&request, payloadHash: Digest.hash(.sha256, body).hex)
        let response: HTTPResponse
        do { response = try http.send(request) } catch {
            throw UploadError.transfer("s3", "cannot reach STS at \(endpoint) to assume the role \(role) of \(place): \(error.detail)")
        }
        let xml = Substring(response.text)
        guard response.isSuccess, let credentials = XMLFields.blocks("Credentials", in: xml).first,
              let key = XMLFields.value("AccessKeyId", in: credentials), let secret = XMLFields.value("SecretAccessKey", in: credentials) else {
            let code = XMLFields.value("Code", in: xml) ?? "HTTP \(response.status)"
            var message = XMLFields.value("Message", in: xml) ?? ""
            for secret in source.secrets { message = message.replacing(secret, with: "********") }
            throw UploadError(.configuration, "s3: STS refused to let \(source.description) assume the role \(role) of \(place): \(code) \(message)",
                              hint: "check the role's trust policy, external_id, and the source credentials' permission to sts:AssumeRole")
        }
        let sessionToken = XMLFields.value("SessionToken", in: credentials)
        let what = "role \(role) of \(place)"
        return S3Credentials(accessKeyID: key, secretAccessKey: secret, sessionToken: sessionToken, source: what,
                             keyVariable: "role_arn of \(place)", secretVariable: "role_arn of \(place)",
                             expiration: try Self.expiration(XMLFields.value("Expiration", in: credentials), from: "STS for the \(what)"))
    }

    /// The credentials that assume the role: `source_profile`'s (itself possibly an assumed role), or
    /// `credential_source`'s (Environment, Ec2InstanceMetadata, EcsContainer).
    private func sourceCredentials(profile name: String, config: [String: String], files: ProfileFiles, sourceOf: [String],
                                   place: String) throws(UploadError) -> S3Credentials {
        switch (config["source_profile"], config["credential_source"]) {
        case (.some, .some):
            throw UploadError(.configuration, "s3: \(place) has both source_profile and credential_source", hint: "keep one of them")
        case (.some(let sourceName), nil):
            // A profile may name itself to assume a role with its own keys; any other loop never ends.
            if sourceName == name, let own = files.credentials(name) ?? (config["aws_access_key_id"] != nil ? config : nil) {
                return try S3Credentials.fromProfile(own, place: files.credentials(name) != nil ? "profile \(name) in \(files.credentialsFile)" : place)
            }
            let chain = sourceOf + [name]
            if chain.contains(sourceName) {
                throw UploadError(.configuration, "s3: the source_profile of \(place) loops: \((chain + [sourceName]).joined(separator: " -> "))",
                                  hint: "end the chain at a profile with keys, credential_process or credential_source")
            }
            guard files.credentials(sourceName) != nil || files.config(sourceName) != nil else {
                throw UploadError(.configuration, "s3: the source_profile \(sourceName) of \(place) is in neither \(files.credentialsFile) nor \(files.configFile)",
                                  hint: "check source_profile in \(files.configFile)")
            }
            // As botocore: a source profile with keys of its own gives them, even if it names a role too.
            let hasKeys = files.credentials(sourceName)?["aws_access_key_id"] != nil || files.config(sourceName)?["aws_access_key_id"] != nil
            guard let found = try profileCredentials(sourceName, files: files, sourceOf: chain, assumingRoles: !hasKeys) else {
                throw UploadError(.configuration, "s3: the source_profile \(sourceName) of \(place) has no credentials",
                                  hint: "give it aws_access_key_id and aws_secret_access_key, credential_process, or a role of its own")
            }
            return found
        case (nil, .some(let kind)):
            switch kind {
            case "Environment":
                guard let key = value("AWS_ACCESS_KEY_ID"), let secret = value("AWS_SECRET_ACCESS_KEY") else {
                    throw .missingVariable("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY", for: "s3",
                                           detail: "\(place) takes its source credentials from the environment (credential_source = Environment), which has none")
                }
                return S3Credentials(accessKeyID: key, secretAccessKey: secret, sessionToken: value("AWS_SESSION_TOKEN"))
            case "EcsContainer":
                guard let found = try containerCredentials() else {
                    throw .missingVariable("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI or AWS_CONTAINER_CREDENTIALS_FULL_URI", for: "s3",
                                           detail: "\(place) takes its source credentials from the container (credential_source = EcsContainer), which has none")
                }
                return found
            case "Ec2InstanceMetadata":
                guard value("AWS_EC2_METADATA_DISABLED")?.lowercased() != "true" else {
                    throw UploadError(.configuration, "s3: \(place) takes its source credentials from the instance metadata service (credential_source = Ec2InstanceMetadata), which AWS_EC2_METADATA_DISABLED=true turns off",
                                      hint: "unset AWS_EC2_METADATA_DISABLED, or choose another credential_source")
                }
                guard let found = try instanceMetadataCredentials() else {
                    throw UploadError(.environment, "s3: \(place) takes its source credentials from the instance metadata service (credential_source = Ec2InstanceMetadata), which did not answer",
                                      hint: "run on EC2 with an instance profile, or set AWS_EC2_METADATA_SERVICE_ENDPOINT")
                }
                return found
            default:
                throw UploadError(.configuration, "s3: credential_source of \(place) is '\(kind.prefix(40))'",
                                  hint: "use Environment, Ec2InstanceMetadata or EcsContainer")
            }
        case (nil, nil):
            throw UploadError(.internal, "s3: \(place) has neither source_profile nor credential_source")
        }
    }
}
