internal import LanesPlatform
/// `slack`: a message to a Slack incoming webhook about the lane.
public struct Slack: Step {
    public static let definition = StepDefinition(
        id: "slack",
        summary: "Post the lane's result (lane, result, duration, version, failing step) to a Slack incoming webhook; never fails the lane unless fail_on_error",
        category: .notify,
        examples: [StepExample(swift: ##"try await slack(message: "Brewer 1.4 is on TestFlight", channel: "#releases")"##,
                               commandLine: ["message:Brewer 1.4 is on TestFlight", "channel:#releases"], environment: ["SLACK_URL"])]
    )

    @StepOption("message", "The text (default: Lane NAME succeeded/failed in step STEP)")
    var message: String?
    @StepOption("slack_url", "The incoming webhook URL (a secret: it is the credential)", env: "SLACK_URL", secret: true)
    var slackURL: Secret
    @StepOption("channel", "Post to this channel instead of the webhook's own")
    var channel: String?
    @StepOption("username", "The name the message shows", default: "lanes")
    var username: String
    @StepOption("success", "Report success or failure (default: how the lane is going)")
    var success: Bool?
    @StepOption("version", "The version to report (default: what build_app built)")
    var version: String?
    @StepOption("fail_on_error", "Fail the lane when the message cannot be sent", default: false)
    var failOnError: Bool

    public init() {}

    public var banner: String { "Notify Slack" + (channel.map { " \($0)" } ?? "") }

    public func run(in context: StepContext) async throws {
        let note = LaneNotification(context: context, success: success, version: version, message: message)
        var fields: [JSONValue] = [field("Lane", note.lane), field("Result", note.result)]
        if let duration = note.durationText { fields.append(field("Duration", duration)) }
        if let version = note.version { fields.append(field("Version", version)) }
        if let step = note.failingStep { fields.append(field("Failing step", step)) }
        if let error = note.error { fields.append(.object([("title", "Error"), ("value", .string(String(error.prefix(1000)))), ("short", .bool(false))])) }
        var body: [(String, JSONValue)] = [("text", .string(note.headline)), ("username", .string(username))]
        if let channel { body.append(("channel", .string(channel))) }
        body.append(("attachments", .array([.object([("color", .string(note.succeeded ? "good" : "danger")),
                                                     ("fallback", .string(note.headline)), ("fields", .array(fields))])])))
        try context.postNotification(.object(body), to: slackURL.value, what: "the Slack message", failOnError: failOnError)
    }

    private func field(_ title: String, _ value: String) -> JSONValue {
        .object([("title", .string(title)), ("value", .string(value)), ("short", .bool(true))])
    }
}

/// `notify_webhook`: the lane's result as JSON to any URL (Teams, Discord bridges, a chat bot, a dashboard).
public struct NotifyWebhook: Step {
    public static let definition = StepDefinition(
        id: "notify_webhook",
        summary: "POST the lane's result as JSON (lane, result, message, duration_seconds, version, failing_step, error) to a URL",
        category: .notify,
        examples: [StepExample(swift: #"try await notifyWebhook(message: "Nightly build is ready")"#,
                               commandLine: ["message:Nightly build is ready"], environment: ["LANES_WEBHOOK_URL"])]
    )

    @StepOption("url", "Where to POST (a secret when it holds a token)", env: "LANES_WEBHOOK_URL", secret: true)
    var url: Secret
    @StepOption("message", "The message (default: Lane NAME succeeded/failed in step STEP)")
    var message: String?
    @StepOption("success", "Report success or failure (default: how the lane is going)")
    var success: Bool?
    @StepOption("version", "The version to report (default: what build_app built)")
    var version: String?
    @StepOption("bearer_token", "Sent as Authorization: Bearer", env: "LANES_WEBHOOK_TOKEN", secret: true)
    var bearerToken: Secret?
    @StepOption("fail_on_error", "Fail the lane when the notification cannot be sent", default: false)
    var failOnError: Bool

    public init() {}

    public var banner: String { "Notify a webhook" }

    public func run(in context: StepContext) async throws {
        let note = LaneNotification(context: context, success: success, version: version, message: message)
        try context.postNotification(note.json, to: url.value, what: "the webhook notification", failOnError: failOnError,
                                     headers: bearerToken.map { [("Authorization", "Bearer \($0.value)")] } ?? [])
    }
}
