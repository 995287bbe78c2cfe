"""An independent reading of launchd's StartCalendarInterval (launchd.plist(5)): prints, one per
line in UTC, every instant in [START, START + DAYS) at which the plist's job would fire on a Mac
whose local zone is ZONE.

Each dictionary names the calendar fields the local wall clock must match (Minute, Hour, Day,
Weekday, Month); a missing field matches anything; Weekday 0 and 7 are Sunday; as in crontab(5),
a dictionary with both Day and Weekday fires when either matches. Walking UTC minutes and reading
each in ZONE means a wall time skipped by daylight saving never fires and none is invented.

usage: launchd_fires.py PLIST ZONE START DAYS
"""
import plistlib
import sys
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo


def matches(entry, local):
    weekday = local.isoweekday() % 7  # Sunday 0
    if "Minute" in entry and entry["Minute"] != local.minute:
        return False
    if "Hour" in entry and entry["Hour"] != local.hour:
        return False
    if "Month" in entry and entry["Month"] != local.month:
        return False
    day_given, weekday_given = "Day" in entry, "Weekday" in entry
    day_ok = day_given and entry["Day"] == local.day
    weekday_ok = weekday_given and entry["Weekday"] % 7 == weekday
    if day_given and weekday_given:
        return day_ok or weekday_ok
    if day_given:
        return day_ok
    if weekday_given:
        return weekday_ok
    return True


def main():
    path, zone_name, start_text, days = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    with open(path, "rb") as handle:
        plist = plistlib.load(handle)
    entries = plist["StartCalendarInterval"]
    if isinstance(entries, dict):
        entries = [entries]
    zone = ZoneInfo(zone_name)
    start = datetime.fromisoformat(start_text.replace("Z", "+00:00")).astimezone(timezone.utc)
    instant = start
    end = start + timedelta(days=days)
    while instant < end:
        local = instant.astimezone(zone)
        if any(matches(entry, local) for entry in entries):
            print(instant.strftime("%Y-%m-%dT%H:%M:%SZ"))
        instant += timedelta(minutes=1)


main()
