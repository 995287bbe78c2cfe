#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LanesCron
import LanesDoctor
import LanesSchedule

/// The HTML pages. Every value is escaped with `HTML.escape`; styles and the one script are
/// files under `/static/`, so the Content-Security-Policy forbids inline code.
enum WebPages {
    static func layout(title: String, current: String, body: String, script: Bool = false) -> String {
        let links = [("/", "Schedules"), ("/history", "History"), ("/signing", "Signing health")].map { href, name in
            "<a href=\"\(href)\"\(name == current ? " aria-current=\"page\"" : "")>\(name)</a>"
        }.joined(separator: " ")
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTML.escape(title)) · lanes</title><link rel="stylesheet" href="/static/site.css">\(script ? "<script src=\"/static/live.js\" defer></script>" : "")</head>
            <body><header><strong>lanes</strong> <nav>\(links)</nav></header><main>
            <h1>\(HTML.escape(title))</h1>
            \(body)
            </main></body></html>
            """
    }

    static func statusBadge(_ status: String) -> String {
        "<span class=\"status status-\(HTML.escape(status))\">\(HTML.escape(status))</span>"
    }

    static func table(_ header: [String], _ rows: [[String]], id: String) -> String {
        "<table id=\"\(id)\"><thead><tr>" + header.map { "<th>\(HTML.escape($0))</th>" }.joined()
            + "</tr></thead><tbody>" + rows.map { "<tr>" + $0.map { "<td>\($0)</td>" }.joined() + "</tr>" }.joined()
            + "</tbody></table>"
    }

    // MARK: Schedules

    /// - Parameter problem: why the schedules could not be read (a Lanefile that does not compile
    ///   and never did while the page ran), shown instead of the table.
    static func schedules(_ lanes: [LaneScheduleView], lastStatus: [String: String], problem: String? = nil) -> String {
        if let problem {
            return layout(title: "Schedules", current: "Schedules",
                          body: "<p>The schedules could not be read: the Lanefile does not compile.</p><pre class=\"error\">\(HTML.escape(problem))</pre>")
        }
        guard !lanes.isEmpty else {
            return layout(title: "Schedules", current: "Schedules", body: "<p>No lane has a schedule.</p>")
        }
        let rows = lanes.flatMap { lane in
            lane.triggers.map { trigger in
                [
                    "<a href=\"/history?lane=\(HTML.escape(HTML.queryComponent(lane.lane)))\">\(HTML.escape(lane.lane))</a>",
                    HTML.escape(trigger.kind),
                    "<code>\(HTML.escape(trigger.spec))</code>",
                    "<code>\(trigger.resolved.map(HTML.escape).joined(separator: "<br>"))</code>",
                    HTML.escape(trigger.timeZone),
                    "<ol class=\"next\">" + trigger.next.prefix(5).map { "<li><time>\(HTML.escape($0))</time></li>" }.joined() + "</ol>",
                    lastStatus[lane.lane].map(statusBadge) ?? "<span class=\"muted\">never ran</span>",
                ]
            }
        }
        return layout(title: "Schedules", current: "Schedules",
                      body: table(["Lane", "Trigger", "Spec", "Resolved", "Zone", "Next 5 runs", "Last status"], rows, id: "schedules"))
    }

    // MARK: History

    static func history(_ runs: [RunRecord], filter: RunFilter, lanes: [String], trends: [String: [RunRecord]]) -> String {
        let laneOptions = (["" ] + lanes).map { lane in
            "<option value=\"\(HTML.escape(lane))\"\(lane == (filter.lane ?? "") ? " selected" : "")>\(lane.isEmpty ? "all lanes" : HTML.escape(lane))</option>"
        }.joined()
        let statusOptions = ([""] + RunStatus.allCases.map(\.rawValue)).map { status in
            "<option value=\"\(status)\"\(status == (filter.status?.rawValue ?? "") ? " selected" : "")>\(status.isEmpty ? "any status" : status)</option>"
        }.joined()
        let form = """
            <form method="get" action="/history" class="filter"><label>Lane <select name="lane">\(laneOptions)</select></label>
            <label>Status <select name="status">\(statusOptions)</select></label> <button type="submit">Filter</button></form>
            """
        let trendRows = trends.keys.sorted().map { lane in
            ["<a href=\"/history?lane=\(HTML.escape(HTML.queryComponent(lane)))\">\(HTML.escape(lane))</a>", TrendChart.svg(trends[lane] ?? [], lane: lane)]
        }
        let trendTable = trendRows.isEmpty ? "" : "<h2>Trend (last 30 runs)</h2>" + table(["Lane", "Durations and outcomes"], trendRows, id: "trends")
        let rows = runs.map { run in
            [
                "<a href=\"/runs/\(run.id)\">#\(run.id)</a>",
                HTML.escape(run.lane),
                HTML.escape(run.trigger.rawValue),
                time(run.scheduled),
                time(run.started),
                run.started != nil && run.ended != nil ? HTML.escape(TrendChart.format(TrendChart.duration(run))) : "-",
                statusBadge(run.status.rawValue),
                run.commit.map { "<code>\(HTML.escape(String($0.prefix(10))))</code>" } ?? "-",
            ]
        }
        let list = runs.isEmpty ? "<p>No runs match.</p>"
            : table(["Run", "Lane", "Trigger", "Scheduled", "Started", "Duration", "Status", "Commit"], rows, id: "runs")
        return layout(title: "History", current: "History", body: form + trendTable + "<h2>Runs</h2>" + list)
    }

    static func time(_ instant: CronInstant?) -> String {
        instant.map { "<time datetime=\"\(HTML.escape($0.description))\">\(HTML.escape($0.description))</time>" } ?? "-"
    }

    // MARK: One run

    /// - Parameters:
    ///   - log: the end of the run's log (`omittedBytes` before it are left to the plain-text log).
    ///   - logSize: where a live reader goes on from.
    static func run(_ run: RunRecord, log: String?, logSize: Int, omittedBytes: Int = 0) -> String {
        var body = "<dl class=\"facts\">"
        let artifacts = run.artifacts.isEmpty ? "-" : run.artifacts.map { "<code>\(HTML.escape($0))</code>" }.joined(separator: "<br>")
        let facts: [(String, String)] = [("Lane", HTML.escape(run.lane)), ("Status", statusBadge(run.status.rawValue)),
                              ("Trigger", HTML.escape(run.trigger.rawValue)), ("Scheduled", time(run.scheduled)),
                              ("Started", time(run.started)), ("Ended", time(run.ended)),
                              ("Exit status", run.exitStatus.map { String($0) } ?? "-"),
                              ("Commit", run.commit.map { "<code>\(HTML.escape($0))</code>" } ?? "-"),
                              ("Version", run.version.map(HTML.escape) ?? "-"), ("Build number", run.buildNumber.map(HTML.escape) ?? "-"),
                              ("Artifacts", artifacts),
                              ("Note", run.note.map(HTML.escape) ?? "-")]
        for (name, value) in facts {
            body += "<dt>\(name)</dt><dd>\(value)</dd>"
        }
        body += "</dl>"
        if !run.steps.isEmpty {
            body += "<h2>Steps</h2>" + table(["#", "Step", "What", "Duration", "Result"], run.steps.map { step in
                [String(step.index), HTML.escape(step.id), "<code class=\"banner\">\(HTML.escape(step.banner))</code>",
                 step.durationMilliseconds.map { duration(milliseconds: $0) } ?? "-",
                 step.succeeded.map { statusBadge($0 ? "ok" : "failed") } ?? statusBadge("unfinished")]
            }, id: "steps")
        }
        if let error = run.error {
            body += "<h2>Error</h2>"
            if let step = run.steps.last(where: { $0.succeeded == false }) {
                body += "<p>Failing step: <code>\(HTML.escape("\(step.index). \(step.id): \(step.banner)"))</code></p>"
            }
            body += "<pre class=\"error\" id=\"error\">\(HTML.escape(error))</pre>"
        }
        body += "<h2>Log</h2>"
        if let log {
            let live = run.status.isActive
                ? " data-live=\"/runs/\(run.id)/events?offset=\(logSize)\"" : ""
            body += "<p><a href=\"/runs/\(run.id)/log\">plain text</a>\(run.status.isActive ? " · <span id=\"live-state\">live</span>" : "")</p>"
            if omittedBytes > 0 {
                body += "<p class=\"muted\">The first \(omittedBytes >> 10) KiB are left out here; the plain text has the whole log.</p>"
            }
            body += "<pre id=\"log\"\(live)>\(HTML.escape(log))</pre>"
        } else {
            body += "<p class=\"muted\">No log.</p>"
        }
        // The script shows the times in the reader's zone (and follows a live log).
        return layout(title: "Run #\(run.id): \(run.lane)", current: "History", body: body, script: true)
    }

    /// `1.234 s`, as the terminal's summary shows durations.
    static func duration(milliseconds: Int64) -> String {
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) s"
    }

    // MARK: Signing

    static func signing(_ health: [SigningHealth], checkedAt: String, watch: SigningWatch.Record?) -> String {
        var watchNote = ""
        if let watch {
            var problems: [DoctorFinding] = []
            for finding in watch.health.flatMap(\.findings) where finding.severity != .ok
                && !problems.contains(where: { $0.subject == finding.subject && $0.severity == finding.severity }) {
                problems.append(finding)
            }
            let checked = CronInstant(secondsSince1970: watch.checked.timeIntervalSince1970).description
            watchNote = "<p id=\"watch\">The daemon’s daily expiry check ran at \(HTML.escape(checked)): "
                + (problems.isEmpty ? "no problems." : "\(problems.count) problem(s): "
                    + problems.map { HTML.escape("\($0.subject) (\($0.severity.rawValue))") }.joined(separator: ", ") + ".")
                + "</p>"
        }
        guard !health.isEmpty else {
            return layout(title: "Signing health", current: "Signing health",
                          body: watchNote + "<p>The Lanefile declares no signing configurations (see <code>CodeSigning</code> in docs/doctor.md).</p>")
        }
        func cell(_ countdown: ExpiryCountdown?) -> String {
            guard let countdown else { return "<span class=\"muted\">unreadable</span>" }
            let left = countdown.daysLeft < 0 ? "expired \(-countdown.daysLeft) day(s) ago" : "\(countdown.daysLeft) day(s) left"
            return "\(HTML.escape(countdown.name))<br>\(statusBadge(countdown.severity.rawValue)) \(HTML.escape(left))"
                + "<br><small>\(HTML.escape(CronInstant(secondsSince1970: countdown.expires.timeIntervalSince1970).description))</small>"
        }
        let rows = health.map { entry in
            [HTML.escape(entry.configuration), HTML.escape(entry.appIdentifier), cell(entry.certificate), cell(entry.profile),
             statusBadge(entry.severity.rawValue)]
        }
        let problems = health.flatMap(\.findings).filter { $0.severity != .ok }
        let problemList = problems.isEmpty ? "<p>No problems.</p>" : "<ul id=\"problems\">" + problems.map { finding in
            "<li>\(statusBadge(finding.severity.rawValue)) <strong>\(HTML.escape(finding.subject))</strong>: \(HTML.escape(finding.message))"
                + (finding.fix.map { "<br><em>Fix:</em> \(HTML.escape($0))" } ?? "") + "</li>"
        }.joined() + "</ul>"
        return layout(title: "Signing health", current: "Signing health",
                      body: watchNote + "<p class=\"muted\">Checked \(HTML.escape(checkedAt)).</p>"
                        + table(["Configuration", "App identifier", "Certificate", "Profile", "Health"], rows, id: "signing")
                        + "<h2>Problems</h2>" + problemList)
    }

    /// The answer to a request without the token: how to sign in, never the token itself.
    static func signIn() -> String {
        layout(title: "Sign in", current: "", body: """
            <p>This page shows the run history of the user who runs lanes, so it asks who you are.
            Sign in by opening the address <code>lanes serve</code> printed when it started
            (<code>/login?token=…</code>): it leaves a cookie in this browser.
            The token is kept in the <code>web-token</code> file of the project’s state folder (readable by that user only);
            scripts send it as <code>Authorization: Bearer TOKEN</code>.</p>
            """)
    }

    static func notFound(_ what: String) -> String {
        layout(title: "Not found", current: "", body: "<p>\(HTML.escape(what))</p>")
    }
}
