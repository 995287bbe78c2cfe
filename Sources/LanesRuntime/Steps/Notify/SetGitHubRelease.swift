import LanesBuild
import LanesUpload
internal import Foundation
internal import LanesPlatform
import LanesHTTP

/// A release `set_github_release` created.
public struct GitHubRelease: Sendable, Hashable, CustomStringConvertible {
    public let id: Int
    /// The release's page.
    public let htmlURL: String
    public let tagName: String
    /// The download URL of each uploaded asset.
    public let assetURLs: [String]

    public var description: String { "release \(tagName): \(htmlURL)" }
}

/// `set_github_release`: creates a GitHub release through the REST API and uploads assets to it.
public struct SetGitHubRelease: Step {
    public typealias Output = GitHubRelease

    public static let definition = StepDefinition(
        id: "set_github_release",
        summary: "Create a GitHub release (REST API; GitHub Enterprise through server_url) and upload assets (folders are zipped)",
        category: .upload,
        examples: [StepExample(swift: """
                    try await setGithubRelease(repositoryName: "sth/brewer", tagName: "v1.4.0", name: "Brewer 1.4.0",
                                               description: "Release notes", uploadAssets: ["build/Brewer.ipa"])
                    """,
                               commandLine: ["repository_name:sth/brewer", "tag_name:v1.4.0", "name:Brewer 1.4.0", "upload_assets:build/Brewer.ipa"],
                               environment: ["GITHUB_TOKEN"])]
    )

    @StepOption("repository_name", "owner/repository", env: "GITHUB_REPOSITORY")
    var repositoryName: String
    @StepOption("tag_name", "The tag (created by GitHub from commitish when it does not exist)")
    var tagName: String
    @StepOption("name", "The release's title (default: the tag)")
    var name: String?
    @StepOption("description", "The release notes (Markdown)")
    var description: String?
    @StepOption("commitish", "Branch or commit the tag is created from when it does not exist")
    var commitish: String?
    @StepOption("is_draft", "Create a draft", default: false)
    var isDraft: Bool
    @StepOption("is_prerelease", "Mark as a pre-release", default: false)
    var isPrerelease: Bool
    @StepOption("upload_assets", "Files (or folders, zipped) to attach", default: [])
    var uploadAssets: [String]
    @StepOption("api_token", "A token allowed to write releases", env: "GITHUB_TOKEN", fastlaneEnv: ["GITHUB_API_TOKEN"], secret: true)
    var apiToken: Secret
    @StepOption("server_url", "The API's base URL (GitHub Enterprise: https://HOST/api/v3)", env: "GITHUB_API_URL", default: "https://api.github.com")
    var serverURL: String

    public init() {}

    public var banner: String { "Create GitHub release \(tagName) in \(repositoryName)" }

    public func run(in context: StepContext) async throws -> GitHubRelease {
        let parts = repositoryName.split(separator: "/")
        guard parts.count == 2 else {
            throw LanesError(.usage, "set_github_release: repository_name must be owner/repository, not '\(repositoryName)'")
        }
        // Every asset is checked (and folders zipped) before the release exists: no half-made release.
        let assets = try uploadAssets.map { try asset(context.resolve($0), context: context) }
        let base = serverURL.hasSuffix("/") ? String(serverURL.dropLast()) : serverURL
        guard let endpoint = HTTPURL("\(base)/repos/\(parts[0])/\(parts[1])/releases") else {
            throw LanesError(.configuration, "set_github_release: server_url '\(serverURL)' is not an http(s) URL")
        }
        var fields: [(String, JSONValue)] = [("tag_name", .string(tagName)), ("name", .string(name ?? tagName)),
                                             ("draft", .bool(isDraft)), ("prerelease", .bool(isPrerelease))]
        if let description { fields.append(("body", .string(description))) }
        if let commitish { fields.append(("target_commitish", .string(commitish))) }
        let log = context.log
        let client = HTTPClient(retry: RetryPolicy(attempts: 3, baseDelay: 0.5, maximumDelay: 4), onRetry: { log.line("retrying: \($0)") })
        let created = try send(client, "POST", endpoint, body: Array(JSONValue.object(fields).serialized.utf8), contentType: "application/json",
                               what: "creating release \(tagName)", context: context)
        guard let release = try? JSONSerialization.jsonObject(with: Data(created.body)) as? [String: Any],
              let id = release["id"] as? Int, let page = release["html_url"] as? String, let uploadTemplate = release["upload_url"] as? String else {
            throw LanesError(.laneFailure, "set_github_release: GitHub's answer (HTTP \(created.status)) is not a release")
        }
        context.log.line("created release \(tagName): \(page)")
        let uploadBase = uploadTemplate.split(separator: "{").first.map(String.init) ?? uploadTemplate
        var urls: [String] = []
        for asset in assets {
            let fileName = FilePath.name(of: asset.path)
            guard let url = HTTPURL("\(uploadBase)?name=\(Self.queryEncoded(fileName))") else {
                throw LanesError(.laneFailure, "set_github_release: GitHub gave an upload URL that is not http(s): \(uploadBase)")
            }
            let uploaded = try send(client, "POST", url, body: nil, file: asset, contentType: "application/octet-stream",
                                    what: "uploading \(fileName)", context: context)
            let download = (try? JSONSerialization.jsonObject(with: Data(uploaded.body)) as? [String: Any])?["browser_download_url"] as? String
            urls.append(download ?? fileName)
            context.log.line("uploaded \(fileName) (\(asset.size) bytes)")
        }
        return GitHubRelease(id: id, htmlURL: page, tagName: tagName, assetURLs: urls)
    }

    private struct Asset { let path: String; let size: Int64 }

    private func asset(_ path: String, context: StepContext) throws -> Asset {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw LanesError(.configuration, "set_github_release: asset \(path) does not exist")
        }
        var file = path
        if isDirectory.boolValue {
            file = LanesBuildFolders.build(root: context.projectDirectory) + "/" + FilePath.name(of: path) + ".zip"
            try FilePath.makeDirectories(FilePath.directory(of: file))
            try ZipWriter.zip(folder: path, rootName: FilePath.name(of: path), to: file)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int64) ?? nil
        return Asset(path: file, size: size ?? 0)
    }

    private func send(_ client: HTTPClient, _ method: String, _ url: HTTPURL, body: [UInt8]?, file: Asset? = nil, contentType: String,
                      what: String, context: StepContext) throws -> HTTPResponse {
        let payload: RequestBody = file.map { .file(path: $0.path, offset: 0, length: $0.size) } ?? .bytes(body ?? [])
        let request = HTTPRequest(method: method, url: url, headers: [
            ("Authorization", "Bearer \(apiToken.value)"), ("Accept", "application/vnd.github+json"), ("User-Agent", "lanes"),
            ("X-GitHub-Api-Version", "2022-11-28"), ("Content-Type", contentType), ("Content-Length", String(payload.length)),
        ], body: payload)
        let response: HTTPResponse
        do { response = try client.send(request) } catch {
            throw LanesError(.laneFailure, "set_github_release: \(what): \(error)")
        }
        guard (200..<300).contains(response.status) else {
            let detail = (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])?["message"] as? String
            throw LanesError(.laneFailure, "set_github_release: \(what): GitHub answered HTTP \(response.status)" + (detail.map { ": \($0)" } ?? ""),
                             hint: response.status == 401 || response.status == 403 ? "check GITHUB_TOKEN's scope (contents: write)" : nil)
        }
        return response
    }

    static func queryEncoded(_ text: String) -> String {
        text.utf8.map { byte in
            let character = Character(Unicode.Scalar(byte))
            return character.isASCII && (character.isLetter || character.isNumber || "-._~".contains(character))
                ? String(character) : "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
        }.joined()
    }
}

extension GitHubRelease: ReportableResult {
    public var report: StepResultReport {
        StepResultReport(lines: [description] + assetURLs.map { "asset: \($0)" },
                         json: .object([("id", .number(Double(id))), ("url", .string(htmlURL)), ("tag", .string(tagName)),
                                        ("assets", .array(assetURLs.map(JSONValue.string)))]))
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
