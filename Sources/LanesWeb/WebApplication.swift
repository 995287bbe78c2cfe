import LanesCron
import LanesSchedule
import LanesPlatform

/// The read-only site: routes a request to a page, the JSON API, a log or its live stream.
/// Only GET and HEAD exist; everything else is 405.
public struct WebApplication: Sendable {
    let data: any WebDataSource
    let access: AccessPolicy
    let clock: any CronClock & Sendable
    /// How often the live stream looks for new log lines and the run's end.
    var pollMilliseconds: UInt32 = 200

    public init(data: any WebDataSource, access: AccessPolicy, clock: any CronClock & Sendable = SystemCronClock()) {
        self.data = data
        self.access = access
        self.clock = clock
    }

    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = HTTPResponse.text("read-only: only GET and HEAD\n", status: 405)
            response.headers.append(("Allow", "GET, HEAD"))
            return response
        }
        let isAPI = request.path.hasPrefix("/api/")
        if request.path == AccessPolicy.loginPath, let signedIn = access.login(request) {
            return signedIn
        }
        guard access.allows(request) else {
            var response = isAPI
                ? HTTPResponse.json("{\"error\":\"a token is required (Authorization: Bearer, or the lanes_token cookie)\"}\n", status: 401)
                : HTTPResponse.html(WebPages.signIn(), status: 401)
            response.headers.append(("WWW-Authenticate", "Bearer"))
            return response
        }
        do {
            return try route(request)
        } catch let error as WebRequestError {
            if isAPI { return .json(WebJSON.error(error.description), status: 400) }
            return .html(WebPages.layout(title: "Bad request", current: "", body: "<p>\(HTML.escape(error.description))</p>"), status: 400)
        } catch {
            // JSON stays JSON: a script reading the API never gets an HTML page.
            if isAPI { return .json(WebJSON.error("\(error)"), status: 500) }
            return .html(WebPages.layout(title: "Error", current: "", body: "<pre class=\"error\">\(HTML.escape("\(error)"))</pre>"), status: 500)
        }
    }

    private func route(_ request: HTTPRequest) throws -> HTTPResponse {
        let parts = request.path.split(separator: "/").map(String.init)
        switch parts.count {
        case 0: return try schedulesPage()
        case 1:
            switch parts[0] {
            case "schedules": return try schedulesPage()
            case "history": return try historyPage(request)
            case "signing":
                return .html(WebPages.signing(try data.signingHealth(), checkedAt: clock.now().description, watch: data.lastSigningWatch()))
            default: break
            }
        case 2:
            switch (parts[0], parts[1]) {
            case ("static", "site.css"):
                return HTTPResponse(status: 200, contentType: "text/css; charset=utf-8", body: Array(StaticFiles.stylesheet.utf8))
            case ("static", "live.js"):
                return HTTPResponse(status: 200, contentType: "text/javascript; charset=utf-8", body: Array(StaticFiles.liveScript.utf8))
            case ("runs", let id): return try runPage(id)
            case ("api", "schedules"): return .json(JSONValue.array(try data.schedules().map(WebJSON.schedule)).serialized + "\n")
            case ("api", "runs"):
                let filter = try runFilter(request)
                return .json(JSONValue.array(try data.history().runs(filter).map(WebJSON.run)).serialized + "\n")
            case ("api", "signing"): return .json(JSONValue.array(try data.signingHealth().map(WebJSON.signing)).serialized + "\n")
            default: break
            }
        case 3:
            switch (parts[0], parts[1], parts[2]) {
            case ("runs", let id, "log"): return try plainLog(id)
            case ("runs", let id, "events"): return try liveLog(id, offset: Int(request.query["offset"] ?? "0") ?? 0)
            case ("api", "runs", let id):
                guard let run = try run(id) else { return .json("{\"error\":\"no such run\"}\n", status: 404) }
                return .json(WebJSON.runDetail(run).serialized + "\n")
            default: break
            }
        default: break
        }
        return .html(WebPages.notFound("There is no page at this address."), status: 404)
    }

    private func schedulesPage() throws -> HTTPResponse {
        let lanes: [LaneScheduleView]
        do {
            lanes = try data.schedules()
        } catch {
            // Nothing known yet (the Lanefile never compiled while the page ran): say why, in the page.
            return .html(WebPages.schedules([], lastStatus: [:], problem: "\(error)"))
        }
        let history = try data.history()
        var last: [String: String] = [:]
        for lane in lanes {
            last[lane.lane] = try history.runs(RunFilter(lane: lane.lane, limit: 1, runsOnly: true)).first?.status.rawValue
        }
        return .html(WebPages.schedules(lanes, lastStatus: last))
    }

    private func runFilter(_ request: HTTPRequest) throws -> RunFilter {
        var filter = RunFilter()
        if let lane = request.query["lane"], !lane.isEmpty { filter.lane = lane }
        if let status = request.query["status"], !status.isEmpty {
            guard let parsed = RunStatus(rawValue: status) else {
                throw WebRequestError("unknown status '\(status)'; one of \(RunStatus.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            filter.status = parsed
        }
        if let limit = request.query["limit"].flatMap({ Int($0) }) { filter.limit = min(max(limit, 1), 1000) }
        return filter
    }

    private func historyPage(_ request: HTTPRequest) throws -> HTTPResponse {
        let filter = try runFilter(request)
        let history = try data.history()
        let lanes = try history.laneNames()
        var trends: [String: [RunRecord]] = [:]
        for lane in filter.lane.map({ [$0] }) ?? lanes {
            trends[lane] = try history.runs(RunFilter(lane: lane, limit: 30, runsOnly: true))
        }
        return .html(WebPages.history(try history.runs(filter), filter: filter, lanes: lanes, trends: trends))
    }

    private func run(_ id: String) throws -> RunRecord? {
        guard let number = Int64(id), number > 0 else { return nil }
        return try data.history().run(id: number)
    }

    /// How much of a log the run's page embeds: the end of it (the rest is a link away).
    static let pageLogBytes = 256 << 10
    /// How much of a run's events a page or the plain log reads, for a run started outside the daemon.
    static let eventLogBytes = 16 << 20
    /// The piece of a log sent at a time: what a connection holds, however long the log.
    static let logChunkBytes = 64 << 10

    /// For a run started elsewhere (which has only its events), the lines its events hold.
    private func eventLines(of run: RunRecord) -> String? {
        guard let path = run.eventsPath, let bytes = LogFolder(directory: data.logDirectory).read(path, maximum: Self.eventLogBytes)
        else { return nil }
        let lines = RunEventLog(bytes: bytes).lines
        return lines.isEmpty ? nil : lines.joined(separator: "\n") + "\n"
    }

    private func runPage(_ id: String) throws -> HTTPResponse {
        guard let run = try run(id) else { return .html(WebPages.notFound("There is no run \(id)."), status: 404) }
        let folder = LogFolder(directory: data.logDirectory)
        if let path = run.logPath, let size = folder.size(path) {
            // The end of the daemon's log, from a line's start; a live reader goes on from its end.
            let start = max(0, size - Self.pageLogBytes)
            var tail = folder.read(path, from: start, maximum: size - start) ?? []
            var omitted = start
            if start > 0, let newline = tail.firstIndex(of: 10) {
                omitted += newline + 1
                tail.removeFirst(newline + 1)
            }
            return .html(WebPages.run(run, log: String(decoding: tail, as: UTF8.self), logSize: start + (size - start), omittedBytes: omitted))
        }
        let log = eventLines(of: run)
        return .html(WebPages.run(run, log: log, logSize: log?.utf8.count ?? 0, omittedBytes: 0))
    }

    /// The whole log as plain text, sent from the file a piece at a time: a client that reads
    /// slowly (or not at all, until the send timeout drops it) holds one piece, not the log.
    private func plainLog(_ id: String) throws -> HTTPResponse {
        guard let run = try run(id) else { return .text("no such log\n", status: 404) }
        let folder = LogFolder(directory: data.logDirectory)
        guard let path = run.logPath, folder.size(path) != nil else {
            guard let log = eventLines(of: run) else { return .text("no such log\n", status: 404) }
            return .text(log, status: 200)
        }
        return HTTPResponse(status: 200, contentType: "text/plain; charset=utf-8") { write in
            var offset = 0
            while let chunk = folder.read(path, from: offset, maximum: Self.logChunkBytes), !chunk.isEmpty {
                // Whole characters only: a piece never ends inside a UTF-8 sequence.
                var end = chunk.count
                if chunk.count == Self.logChunkBytes {
                    while end > 0, chunk[end - 1] & 0xC0 == 0x80 { end -= 1 }
                    if end > 0, chunk[end - 1] >= 0xC0 { end -= 1 }
                    if end == 0 { end = chunk.count }
                }
                guard write(String(decoding: chunk[..<end], as: UTF8.self)) else { return }
                offset += end
            }
        }
    }

    /// Server-sent events: `log` events with whole new lines from `offset` on, then one `end` event
    /// with the run's final status.
    private func liveLog(_ id: String, offset start: Int) throws -> HTTPResponse {
        guard let run = try run(id), let path = run.logPath, LogFolder(directory: data.logDirectory).contained(path) != nil else {
            return .text("no such log\n", status: 404)
        }
        let data = data
        let pause = pollMilliseconds
        return HTTPResponse(status: 200, contentType: "text/event-stream; charset=utf-8") { write in
            let folder = LogFolder(directory: data.logDirectory)
            var offset = max(0, start)
            var quietPolls = 0
            while true {
                let status = (try? data.history().run(id: run.id))?.status ?? .interrupted
                let fresh = folder.read(path, from: offset, maximum: 1 << 20) ?? []
                // Whole lines only while the run goes on; the rest once it has ended.
                let end = status.isActive ? (fresh.lastIndex(of: 10).map { $0 + 1 } ?? 0) : fresh.count
                if end > 0 {
                    guard write(Self.logEvent(String(decoding: fresh[..<end], as: UTF8.self))) else { return }
                    offset += end
                    quietPolls = 0
                } else {
                    quietPolls += 1
                }
                if !status.isActive && end == fresh.count {
                    _ = write("event: end\ndata: \(status.rawValue)\n\n")
                    return
                }
                // A comment now and then finds out when the reader has gone.
                if quietPolls % 50 == 49, !write(": waiting\n\n") { return }
                usleep(pause * 1000)
            }
        }
    }
}

extension WebApplication {
    /// One `log` event carrying the lines of `text`. A carriage return ends a line in an event
    /// stream as a line feed does, so a log line's CRs (progress bars, or a forged `event: end`)
    /// are sent as U+240D: no character of a log line can end its `data:` line or the event.
    /// (Split on scalars: Swift sees "\r\n" as one Character, which a split on "\n" would miss.)
    static func logEvent(_ text: String) -> String {
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        if text.unicodeScalars.last == "\n" { lines.removeLast() }
        var event = "event: log\n"
        for line in lines {
            var encoded = String.UnicodeScalarView()
            for scalar in line { encoded.append(scalar == "\r" ? "\u{240D}" : scalar) }
            event += "data: " + String(encoded) + "\n"
        }
        return event + "\n"
    }
}

struct WebRequestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
