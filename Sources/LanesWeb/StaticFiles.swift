/// The site's stylesheet and its one script, served from `/static/` (the CSP allows no inline code).
enum StaticFiles {
    static let stylesheet = """
        body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: #1d232b; background: #f7f8fa; }
        header { background: #1d232b; color: #fff; padding: .6em 1.2em; }
        header a { color: #cfe3ff; margin-left: 1em; text-decoration: none; }
        header a[aria-current] { color: #fff; font-weight: 600; border-bottom: 2px solid #fff; }
        main { padding: 1em 1.2em; }
        table { border-collapse: collapse; background: #fff; margin: .5em 0 1.2em; }
        th, td { border: 1px solid #d9dee5; padding: .35em .6em; text-align: left; vertical-align: top; }
        th { background: #eef1f5; }
        code, pre { font: 13px/1.4 ui-monospace, monospace; }
        pre { background: #10151b; color: #e6edf3; padding: .8em; overflow: auto; max-height: 40em; white-space: pre-wrap; }
        pre.error { background: #fff0f0; color: #8a1111; border: 1px solid #f3b5b5; }
        ol.next { margin: 0; padding-left: 1.2em; }
        .status { display: inline-block; padding: 0 .45em; border-radius: .6em; font-size: 90%; background: #e4e7eb; }
        .status-succeeded, .status-ok { background: #d5f5dd; color: #0d5a22; }
        .status-failed, .status-error, .status-interrupted { background: #fbd9d9; color: #8a1111; }
        .status-running, .status-starting, .status-warning { background: #fff1c7; color: #6b4d00; }
        .muted { color: #6a737d; }
        .filter label { margin-right: 1em; }
        dl.facts { display: grid; grid-template-columns: max-content auto; gap: .2em 1em; }
        dl.facts dt { font-weight: 600; }
        svg.trend .bar.ok { fill: #2da44e; }
        svg.trend .bar.bad { fill: #cf222e; }
        svg.trend .bar.active { fill: #d4a72c; }
        svg.trend .bar.other { fill: #8c959f; }
        """

    /// Shows a run's times in the reader's time zone (UTC stays in the tooltip) and appends the log
    /// as it grows: the only JavaScript on the site.
    static let liveScript = """
        "use strict";
        (function () {
          var times = document.querySelectorAll("time[datetime]");
          for (var i = 0; i < times.length; i++) {
            var when = new Date(times[i].getAttribute("datetime"));
            if (!isNaN(when.getTime())) {
              times[i].title = times[i].getAttribute("datetime");
              times[i].textContent = when.toLocaleString();
            }
          }
        })();
        (function () {
          var log = document.getElementById("log");
          if (!log || !log.dataset.live || !window.EventSource) { return; }
          var state = document.getElementById("live-state");
          var source = new EventSource(log.dataset.live);
          source.addEventListener("log", function (event) {
            log.appendChild(document.createTextNode(event.data + "\\n"));
            log.scrollTop = log.scrollHeight;
          });
          source.addEventListener("end", function (event) {
            source.close();
            if (state) { state.textContent = "finished: " + event.data; }
          });
        })();
        """
}
