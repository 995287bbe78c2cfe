#!/bin/sh
# Runs one lane of each imported project, as imported (no edit), against the recording stand-ins,
# and prints how each run ended: green, stopped at a TODO(import), stopped for a missing variable or
# secret, or failed in a step. The effects (stand-in records, changed files, commits) stay in the
# run's folder, printed at the end, to read beside what fastlane would have done.
#   Tools/import-behaviour.sh CORPUS PLAN
# CORPUS holds one folder per project (fastlane files in its fastlane/). PLAN has one line per run,
# tab-separated: project, the lane and its options (`build version:1.0`), NAME=value pairs
# (space-separated) for the environment, and the Xcode projects the corpus lacks (space-separated
# paths, each a copy of the test fixture Brewer.xcodeproj). Nothing of CORPUS is written; runs happen
# in a copy, a git repository where the import is committed as a team would. An empty field is `-`.
set -u
corpus=$1
plan=$2
root=$(cd "$(dirname "$0")/.." && pwd)
lanes=${LANES:-$root/.build/debug/lanes}
standin=$root/Tests/LanesCLITests/Fixtures/xcodebuild-standin
ipa=$root/Tests/LanesBuildTests/Fixtures/ipa/Brewer-Staging.ipa
brewer=$root/Tests/LanesXcodeTests/Fixtures/Brewer.xcodeproj
swift_dir=$(dirname "$(command -v swiftc)")
work=$(mktemp -d "${TMPDIR:-/tmp}/lanes-import-behaviour.XXXXXX")
echo "runs in $work"
green=0
total=0
tab=$(printf '\t')
while IFS="$tab" read -r project lane environment projects; do
    case "$project" in ''|'#'*) continue ;; esac
    # A tab is white space to `read`: an empty field is written `-`.
    [ "$environment" = "-" ] && environment=""
    [ "${projects:-}" = "-" ] && projects=""
    total=$((total + 1))
    run=$work/$total-$project
    stand=$work/$total-stand-ins
    cp -R "$corpus/$project" "$run"
    mkdir -p "$stand"
    # Recording stand-ins for the tools the lanes call that cannot run here.
    printf '#!/bin/sh\necho "$PWD $*" >> "%s/calls.txt"\n' "$stand" > "$stand/pod"
    cp "$stand/pod" "$stand/gradlew"
    chmod +x "$stand/pod" "$stand/gradlew"
    [ -e "$run/gradlew" ] || cp "$stand/gradlew" "$run/gradlew"
    for xcodeproj in ${projects:-}; do
        mkdir -p "$run/$(dirname "$xcodeproj")" && cp -R "$brewer" "$run/$xcodeproj"
        # agvtool's versioning, as a project fastlane's increment_build_number works on has it.
        sed -i 's/buildSettings = {/buildSettings = {\n\t\t\t\tCURRENT_PROJECT_VERSION = 1;\n\t\t\t\tVERSIONING_SYSTEM = "apple-generic";/' "$run/$xcodeproj/project.pbxproj"
    done
    (cd "$run" && git init -q && git add -A && git -c user.name=t -c user.email=t@example.com commit -qm corpus)
    (cd "$run" && "$lanes" import fastlane --force > "$stand/import.log" 2>&1)
    imported=$?
    (cd "$run" && git add -A && git -c user.name=t -c user.email=t@example.com commit -qm "lanes import fastlane")
    # shellcheck disable=SC2086
    (cd "$run" && env PATH="$stand:$standin:$swift_dir:/usr/bin:/bin" XCODEBUILD_RECORD="$stand/xcodebuild.txt" \
        XCODEBUILD_IPA="$ipa" HOME="$stand/home" $environment "$lanes" $lane > "$stand/run.log" 2>&1)
    status=$?
    if [ "$status" -eq 0 ]; then
        outcome="green"
        green=$((green + 1))
    elif grep -q "was not imported" "$stand/run.log"; then
        outcome="stopped at a TODO: $(grep -o 'Fastfile line [0-9]* was not imported[^:]*' "$stand/run.log" | head -1)"
    elif grep -qi "not set\|missing variable\|missing secret" "$stand/run.log"; then
        outcome="stopped for the environment: $(grep -i 'not set\|missing' "$stand/run.log" | head -1 | cut -c1-120)"
    else
        outcome="failed: $(grep -iE 'error|failed' "$stand/run.log" | grep -v '^\[' | tail -1 | cut -c1-160)"
    fi
    printf '%s\t%s\timport %s\texit %s\t%s\n' "$project" "$lane" "$imported" "$status" "$outcome"
done < "$plan"
echo "$green of $total lanes ran green as imported (effects in $work/*-stand-ins and each run's git log)"
