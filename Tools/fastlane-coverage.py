#!/usr/bin/env python3
"""Usage-weighted coverage of a fastlane action census by lanes.

    lanes actions --fastlane --json | Tools/fastlane-coverage.py ACTION-USAGE.md

ACTION-USAGE.md is a Markdown table whose rows read `| # | `action` | files | ... |` (one row may
name two actions, `xcversion` / `xcodes`). Each action is looked up in the map by name or alias;
a row counts as covered when lanes has a step for it, Lanefile code does it, or it is implicit.
"""
import json, re, sys

census = open(sys.argv[1], encoding="utf-8").read()
actions = json.load(sys.stdin)
by_name = {}
for action in actions:
    for name in [action["action"]] + action["aliases"]:
        by_name[name] = action

rows = []
for line in census.splitlines():
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    if len(cells) < 3 or not cells[0].isdigit():
        continue
    names = re.findall(r"`([a-z_*]+)`", cells[1])
    uses = int(cells[2])
    found = next((by_name[n] for n in names if n in by_name), None)
    if found is None and any(n.startswith("sentry") for n in names):
        found = by_name.get("sentry")
    rows.append((cells[1], uses, found))

total = sum(uses for _, uses, _ in rows)
covered = sum(uses for _, uses, found in rows if found and found["covered"])
print("| fastlane action | files of 57 | lanes | status |")
print("|---|---|---|---|")
for label, uses, found in rows:
    if found is None:
        print(f"| {label} | {uses} | (not in the map) | not covered |")
        continue
    lanes = found.get("function") or found.get("reason", "")[:60]
    status = {"step": "covered", "lanefile": "covered", "implicit": "covered (implicit)",
              "not_supported": "not supported"}.get(found["status"], found["status"])
    print(f"| {label} | {uses} | `{lanes}` | {status} |")
print()
print(f"covered: {covered} of {total} uses = {100 * covered / total:.1f}%")
