"""croniter's get_next rate on schedules given on stdin as JSON: [{"name", "lines": [...]}].

Each line is plain five-field cron (lanes already resolved H). A multi-line schedule runs one
croniter per line and takes the earliest, as lanes does. day_or=False gives Jenkins' AND of
day-of-month and day-of-week (croniter defaults to Vixie cron's OR)."""
import json
import sys
import time
from datetime import datetime, timedelta, timezone

from croniter import croniter

START = datetime(2026, 1, 1, tzinfo=timezone.utc)
STRIDE = timedelta(seconds=7919)
ZONES = ["UTC", "America/New_York"]


def rate(lines, zone_name, seconds=1.0):
    """Returns (get_next calls per second, how many starts croniter gave up on)."""
    from zoneinfo import ZoneInfo

    zone = ZoneInfo(zone_name)
    count = 0
    failures = 0
    start = START.astimezone(zone)
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        earliest = None
        for line in lines:
            try:
                value = croniter(line, start, day_or=False).get_next(datetime)
            except Exception:  # croniter can give up on rare dates; counted and reported
                value = None
                failures += 1
            if value is not None and (earliest is None or value < earliest):
                earliest = value
        count += 1
        start += STRIDE
    return count / (time.perf_counter() - began), failures


def formatted(value):
    if value >= 1e6:
        return "%.1f million/s" % (value / 1e6)
    if value >= 1e3:
        return "%.1f thousand/s" % (value / 1e3)
    return "%.0f/s" % value


for case in json.load(sys.stdin):
    for zone in ZONES:
        label = ("%s [%s]" % (case["name"], zone)).ljust(38)
        shown = case["lines"][0] + (" (+%d lines)" % (len(case["lines"]) - 1) if len(case["lines"]) > 1 else "")
        per_second, failures = rate(case["lines"], zone)
        note = " (gave up %d times)" % failures if failures else ""
        print("croniter  %s %s as %s%s" % (label, formatted(per_second).ljust(16), shown, note))
    sys.stdout.flush()
