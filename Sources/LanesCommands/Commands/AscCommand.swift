import ArgumentParser
import Foundation
import Lanes
import LanesAppStoreConnect
import LanesUpload
import LanesPlatform

/// `lanes asc`: App Store Connect from the shell, with the key from the environment
/// (APP_STORE_CONNECT_API_KEY_* or ASC_*), through the same client the steps use.
struct AscCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "asc",
        abstract: "Look at App Store Connect: the key, the apps, an app's builds.",
        discussion: "The key comes from APP_STORE_CONNECT_API_KEY_KEY_ID, _ISSUER_ID and _KEY (or _KEY_FILEPATH); ASC_KEY_ID, ASC_ISSUER_ID and ASC_PRIVATE_KEY work too.",
        subcommands: [Whoami.self, Apps.self, Builds.self]
    )

    /// A client on the process environment; every secret it meets goes to `redactor`.
    static func client(_ redactor: Redactor) throws -> AppStoreConnectClient {
        let environment = ProcessInfo.processInfo.environment
        // The key app_store_connect_api_key's declared options read from the environment.
        let key = try AppStoreConnectAPIKeyStep.key(from: Environment(variables: environment, redactor: redactor))
        return AppStoreConnectClient(key: key, baseURL: try AppStoreConnectClient.baseURL(environment: environment, inHouse: key.inHouse),
                                     registerSecret: { redactor.register($0) },
                                     log: { TextOutput.standardError(redactor).writeLine($0) })
    }

    static func printJSON(_ value: JSONValue, _ redactor: Redactor) {
        TextOutput.standardOutput(redactor).writeLine(value.serialized)
    }

    /// A line of what App Store Connect answered (an app's name, a state): its control characters
    /// are shown, not obeyed.
    static func printLine(_ text: String, _ redactor: Redactor) {
        TextOutput.standardOutput(redactor).writeLine(TerminalText.visible(text))
    }

    /// Runs a subcommand with `redactor` as its last gate for errors too: the client registers each
    /// token it makes there, and a server may echo one back in its error text (as a lane masks it,
    /// so does the shell command, whose errors `lanes-tool` would otherwise print through a
    /// redactor that never heard of the token).
    static func run(_ body: (Redactor) async throws -> Void) async throws {
        let redactor = Redactor()
        do {
            try await body(redactor)
        } catch let error as any ClassifiedError {
            throw LanesError(error.lanesKind, redactor.redact(error.message), hint: error.hint.map(redactor.redact))
        } catch {
            throw LanesError(.environment, redactor.redact("\(error)"))
        }
    }

    struct Whoami: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Which key lanes uses, and whether App Store Connect accepts it.")
        @Flag(help: "Print JSON.") var json = false

        func run() async throws { try await AscCommand.run(run) }

        private func run(_ redactor: Redactor) async throws {
            let client = try AscCommand.client(redactor)
            // One small request proves the key: App Store Connect has no "who am I" resource.
            let page = try await client.get("/v1/apps", query: [("fields[apps]", "bundleId"), ("limit", "1")], as: Page<App>.self)
            let expiry = Date().addingTimeInterval(Double(AppStoreConnectKey.lifetime))
            let fields: [(String, JSONValue)] = [
                ("key_id", .string(client.key.keyID)), ("issuer_id", .string(client.key.issuerID)), ("in_house", .bool(client.key.inHouse)),
                ("api", .string(client.baseURL.description)), ("token_lifetime_seconds", .number(Double(AppStoreConnectKey.lifetime))),
                ("token_expires", .string(expiry.ISO8601Format())), ("accepted", .bool(true)), ("sees_apps", .bool(!page.data.isEmpty)),
            ]
            if json { AscCommand.printJSON(.object(fields), redactor); return }
            let output = TextOutput.standardOutput(redactor)
            output.writeLine("key \(client.key.keyID) (issuer \(client.key.issuerID))\(client.key.inHouse ? ", in-house" : "")")
            output.writeLine("accepted by \(client.baseURL); tokens last \(AppStoreConnectKey.lifetime / 60) minutes (this one until \(expiry.ISO8601Format()))")
        }
    }

    struct Apps: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "apps", abstract: "The apps the key's team has.")
        @Flag(help: "Print JSON.") var json = false

        func run() async throws { try await AscCommand.run(run) }

        private func run(_ redactor: Redactor) async throws {
            let apps = try await AscCommand.client(redactor).getAll("/v1/apps", query: [("fields[apps]", "name,bundleId,sku,primaryLocale"), ("limit", "200")],
                                                                    as: App.self)
            if json {
                AscCommand.printJSON(.array(apps.map { app in
                    .object([("id", .string(app.id)), ("bundle_id", app.attributes?.bundleId.map(JSONValue.string) ?? .null),
                             ("name", app.attributes?.name.map(JSONValue.string) ?? .null), ("sku", app.attributes?.sku.map(JSONValue.string) ?? .null)])
                }), redactor)
                return
            }
            for app in apps.sorted(by: { ($0.attributes?.bundleId ?? "") < ($1.attributes?.bundleId ?? "") }) {
                AscCommand.printLine("\(app.id)  \(app.attributes?.bundleId ?? "?")  \(app.attributes?.name ?? "")", redactor)
            }
        }
    }

    struct Builds: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "builds", abstract: "An app's builds, highest build number first.")
        @Argument(help: "The app's bundle id, or its numeric Apple id.") var app: String
        @Option(help: ArgumentHelp("Only builds of this version (CFBundleShortVersionString).", valueName: "V")) var version: String?
        @Flag(help: "Print JSON.") var json = false

        func run() async throws { try await AscCommand.run(run) }

        private func run(_ redactor: Redactor) async throws {
            let client = try AscCommand.client(redactor)
            let appID = app.allSatisfy(\.isNumber) ? app : try await client.app(bundleID: app).id
            let builds = try await client.builds(appID: appID, version: version)
                .sorted { BuildNumber.isOrderedBefore($1.attributes?.version ?? "", $0.attributes?.version ?? "") }
            if json {
                AscCommand.printJSON(.array(builds.map { build in
                    .object([("id", .string(build.id)), ("build_number", build.attributes?.version.map(JSONValue.string) ?? .null),
                             ("processing_state", build.attributes?.processingState.map(JSONValue.string) ?? .null),
                             ("uploaded", build.attributes?.uploadedDate.map(JSONValue.string) ?? .null),
                             ("expired", build.attributes?.expired.map(JSONValue.bool) ?? .null)])
                }), redactor)
                return
            }
            for build in builds {
                let attributes = build.attributes
                AscCommand.printLine("\(attributes?.version ?? "?")  \(attributes?.processingState ?? "?")  \(attributes?.uploadedDate ?? "")\(attributes?.expired == true ? "  expired" : "")", redactor)
            }
            if builds.isEmpty { AscCommand.printLine("no builds\(version.map { " of version \($0)" } ?? "")", redactor) }
        }
    }
}
