#!/bin/sh
# Imports every Fastfile under DIR (one project per subfolder, its fastlane files either directly in
# it or in its fastlane/ folder), compiles each Lanefile through `lanes`, and prints:
#   - the share of Lanefiles that compile as written,
#   - the share of action calls that became a lanes step or are done by lanes itself (implicit),
#   - the share kept through `fastlane run` and the share left as TODO(import).
# Usage: Tools/import-corpus.sh DIR [JOBS]   (make bench-import CORPUS=DIR)
# The corpus is only read: each project is copied into a temporary folder first. Compiles run JOBS
# at a time (default 2) and share lanes' compiled modules, so 50 Lanefiles take a few minutes.
set -eu
corpus=${1:?usage: Tools/import-corpus.sh DIR [JOBS]}
jobs=${2:-2}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${LANES_BIN:-$root/.build/debug}
[ -x "$bin/lanes-tool" ] && [ -x "$bin/lanes" ] || { echo "build first: swift build --product lanes-tool && swift build --product lanes" >&2; exit 69; }
work=$(mktemp -d "${TMPDIR:-/tmp}/import-corpus.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
# One compile cache for the whole run, so nothing of the user's cache is touched or reused.
export XDG_CACHE_HOME="$work/cache"

count=0
for project in "$corpus"/*/; do
    name=$(basename "$project")
    source=$project
    [ -d "$project/fastlane" ] && source=$project/fastlane
    if [ ! -f "$source/Fastfile" ] && [ ! -f "$source/Fastfile.swift" ]; then continue; fi
    mkdir -p "$work/projects/$name/fastlane"
    for file in Fastfile Fastfile.swift Appfile Matchfile Gymfile Scanfile Deliverfile Pluginfile; do
        [ -f "$source/$file" ] && cp "$source/$file" "$work/projects/$name/fastlane/$file"
    done
    count=$((count + 1))
done
echo "importing $count projects from $corpus ($jobs at a time)" >&2
start=$(date +%s)
ls "$work/projects" | xargs -P "$jobs" -I{} sh -c '
    "$1/lanes-tool" import fastlane "$2/projects/$3" --json --report "$2/projects/$3/report.json" --force >/dev/null 2>"$2/projects/$3/stderr.txt"
    echo $? > "$2/projects/$3/status"
' sh "$bin" "$work" {}
end=$(date +%s)
python3 - "$work/projects" "$((end - start))" <<'PY'
import json, os, sys
folder, seconds = sys.argv[1], sys.argv[2]
projects = sorted(os.listdir(folder))
compiled = 0; crashed = []; outcomes = {"step": 0, "step with dropped options": 0, "implicit": 0, "fastlane": 0, "todo": 0}
rows = []
for name in projects:
    path = os.path.join(folder, name, "report.json")
    status = open(os.path.join(folder, name, "status")).read().strip()
    if not os.path.exists(path):
        crashed.append(name); rows.append((name, "no report (exit %s)" % status)); continue
    report = json.load(open(path))
    ok = report.get("compiled") is True
    compiled += ok
    counts = {k: 0 for k in outcomes}
    for action in report["actions"]:
        counts[action["outcome"]] += 1
    for k in outcomes: outcomes[k] += counts[k]
    total = sum(counts.values()) or 1
    rows.append((name, "%s  %3d actions  mapped %3.0f%%  fastlane %d  todo %d" % ("compiles" if ok else "FAILS   ", sum(counts.values()),
                 100.0 * (counts["step"] + counts["implicit"]) / total, counts["fastlane"], counts["todo"])))
for name, line in rows: print("%-55s %s" % (name, line))
total = sum(outcomes.values()) or 1
n = len(projects) or 1
print()
print("projects: %d (no report: %d)  time: %ss" % (len(projects), len(crashed), seconds))
print("compile as written: %d/%d = %.1f%%" % (compiled, len(projects), 100.0 * compiled / n))
print("action calls: %d; step or implicit: %.1f%% (step %d, implicit %d); kept through fastlane: %.1f%%; TODO: %.1f%%" % (
    total, 100.0 * (outcomes["step"] + outcomes["implicit"]) / total, outcomes["step"], outcomes["implicit"],
    100.0 * outcomes["fastlane"] / total, 100.0 * outcomes["todo"] / total))
PY
