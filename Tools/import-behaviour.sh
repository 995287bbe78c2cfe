#!/bin/sh
# Runs one lane of each imported project, as imported (no edit), against the recording stand-ins,
# and prints how each run ended: green, stopped at a TODO(import), stopped for a missing variable or
# secret, or failed in a step. The effects (stand-in records, changed files, commits) stay in the
# run's folder, printed at the end, to read beside what fastlane would have done.
#   Tools/import-behaviour.sh CORPUS PLAN
# CORPUS holds one folder per project (fastlane files in its fastlane/). PLAN has one line per run,
# tab-separated: project, the lane and its options (`build version:1.0`), NAME=value pairs
# (space-separated) for the environment a team's CI would give (`$RUN` is the project's folder,
# `$ROOT` this repository, `$ASC_KEY_JSON` an App Store Connect key file as fastlane's api_key_path reads it), the
# files the corpus lacks (space-separated paths: an .xcodeproj is a copy of the test fixture
# Brewer.xcodeproj, `X.xcodeproj=Name` one whose app target is Name, an .xcworkspace holds the
# planned projects, a path ending in `*` a recording stand-in for a tool the project vendors,
# anything else an empty file such as a Podfile), the bundle identifiers of the apps on App Store
# Connect (the lane's first; `team:ID` the portal's team): when given, the run talks to the local
# App Store Connect of the tests (Tests/Servers/fake_app_store_connect.py, every request checked
# against Apple's description; the apps, their bundle IDs and one device registered), with an API
# key in APP_STORE_CONNECT_API_KEY_*, as a team's CI gives one; and the URLs of the team's other
# repositories the lane reaches (a match storage), each an empty bare repository reached through
# url.insteadOf in the CI's git configuration. In the environment, `$ASC_KEY_P8`, `$ASC_KEY_ID`
# and `$ASC_ISSUER_ID` are that key, and NAME=@FILE gives NAME the file's contents. Every run has
# a bare `origin` (what the lane pushes lands there); `pod`, `gradlew` and `bundle exec` are
# recording stand-ins. xcodebuild's test action replays a recorded test log.
# Nothing of CORPUS is written; runs happen in a copy, a git repository where the import is
# committed as a team would. An empty field is `-`.
# Build everything first (`swift build`: the lanes binary and the Lanes library Lanefiles link).
# FASTLANE_ENV=WORK/env.sh (../shared/fastlane-linux) puts the real fastlane on the runs' PATH, so
# actions a Lanefile keeps through `fastlane run` run; without it those lanes stop, naming fastlane.
set -u -f
corpus=$1
plan=$2
root=$(cd "$(dirname "$0")/.." && pwd)
lanes=${LANES:-$root/.build/debug/lanes}
standin=$root/Tests/LanesCLITests/Fixtures/xcodebuild-standin
ipa=$root/Tests/LanesBuildTests/Fixtures/ipa/Brewer-Staging.ipa
brewer=$root/Tests/LanesXcodeTests/Fixtures/Brewer.xcodeproj
swift_dir=$(dirname "$(command -v swiftc)")
python=$root/.build/venv/bin/python3
[ -x "$python" ] || python=python3
work=$(mktemp -d "${TMPDIR:-/tmp}/lanes-import-behaviour.XXXXXX")
echo "runs in $work"
# xcodebuild's test action: a passing run, in the format of the recorded log of the tests' fixtures.
test_log=$work/xcodebuild-test.log
cat > "$test_log" <<'LOG'
Test Suite 'All tests' started at 2026-11-22 10:20:01.114.
Test Suite 'AppTests.xctest' started at 2026-11-22 10:20:01.115.
Test Case '-[AppTests.AppTests testOne]' started.
Test Case '-[AppTests.AppTests testOne]' passed (0.002 seconds).
Test Case '-[AppTests.AppTests testTwo]' started.
Test Case '-[AppTests.AppTests testTwo]' passed (0.001 seconds).
Test Suite 'All tests' passed at 2026-11-22 10:20:01.121.
	 Executed 2 tests, with 0 failures (0 unexpected) in 0.003 (0.004) seconds
** TEST SUCCEEDED **
LOG
asc_pid=""
stop_asc() { [ -n "$asc_pid" ] && kill "$asc_pid" 2>/dev/null; }
trap stop_asc EXIT
trap 'stop_asc; exit 130' INT TERM
# The local App Store Connect, started on the first run that needs it.
start_asc() {
    [ -n "$asc_pid" ] && return 0
    spec=${LANES_SHARED_DIR:-$root/../shared}/appstoreconnect/app_store_connect_api.json
    [ -f "$spec" ] || spec=/work/shared/appstoreconnect/app_store_connect_api.json
    (cd "$root/Tests/Servers" && exec "$python" fake_app_store_connect.py "$work/asc" "$spec" $$ 2> "$work/asc.log") &
    asc_pid=$!
    i=0
    while [ ! -s "$work/asc/port" ] && [ $i -lt 1200 ] && kill -0 "$asc_pid" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
    [ -s "$work/asc/port" ] || { echo "the local App Store Connect did not start: $(tail -3 "$work/asc.log")" >&2; return 1; }
}
green=0
total=0
tab=$(printf '\t')
while IFS="$tab" read -r project lane environment projects app remotes; do
    case "$project" in ''|'#'*) continue ;; esac
    # A tab is white space to `read`: an empty field is written `-`.
    [ "$environment" = "-" ] && environment=""
    [ "${projects:-}" = "-" ] && projects=""
    [ "${app:-}" = "-" ] && app=""
    [ "${remotes:-}" = "-" ] && remotes=""
    total=$((total + 1))
    run=$work/$total-$project
    stand=$work/$total-stand-ins
    cp -R "$corpus/$project" "$run"
    mkdir -p "$stand/home"
    # A CI machine's git identity (git_commit, add_git_tag need one, with fastlane as with lanes).
    git config --file "$stand/home/.gitconfig" user.name CI && git config --file "$stand/home/.gitconfig" user.email ci@example.com
    # Recording stand-ins for the tools the lanes call that cannot run here.
    printf '#!/bin/sh\necho "$PWD $*" >> "%s/calls.txt"\n' "$stand" > "$stand/pod"
    cp "$stand/pod" "$stand/gradlew"
    # Bundler, as a CI with the project's Gemfile has it: `bundle exec TOOL` recorded, then TOOL.
    printf '#!/bin/sh\necho "$PWD bundle $*" >> "%s/calls.txt"\n[ "$1" = exec ] && shift && exec "$@"\nexit 0\n' "$stand" > "$stand/bundle"
    chmod +x "$stand/pod" "$stand/gradlew" "$stand/bundle"
    if [ -n "${FASTLANE_ENV:-}" ]; then
        printf '#!/bin/sh\n. "%s"\nexport FL_RECORD="%s/fastlane-calls.tsv"\nexec fastlane-linux "$@"\n' "$FASTLANE_ENV" "$stand" > "$stand/fastlane"
        chmod +x "$stand/fastlane"
    fi
    [ -e "$run/gradlew" ] || cp "$stand/gradlew" "$run/gradlew"
    for file in ${projects:-}; do
        mkdir -p "$run/$(dirname "$file")"
        case "$file" in
            *.xcodeproj=*) # a project whose app target (and scheme) has the name after `=`, as the Fastfile names it
                target=${file#*=}
                file=${file%%=*}
                mkdir -p "$run/$(dirname "$file")"
                cp -R "$brewer" "$run/$file"
                sed -i "s/Brewer/$target/g" "$run/$file/project.pbxproj"
                sed -i 's/buildSettings = {/buildSettings = {\n\t\t\t\tCURRENT_PROJECT_VERSION = 1;\n\t\t\t\tMARKETING_VERSION = 1.0;\n\t\t\t\tVERSIONING_SYSTEM = "apple-generic";/' "$run/$file/project.pbxproj" ;;
            *.xcodeproj)
                cp -R "$brewer" "$run/$file"
                # agvtool's versioning, as a project fastlane's increment_build_number works on has it.
                sed -i 's/buildSettings = {/buildSettings = {\n\t\t\t\tCURRENT_PROJECT_VERSION = 1;\n\t\t\t\tMARKETING_VERSION = 1.0;\n\t\t\t\tVERSIONING_SYSTEM = "apple-generic";/' "$run/$file/project.pbxproj" ;;
            *.xcworkspace)
                # A workspace holding the planned projects, as CocoaPods writes one.
                mkdir -p "$run/$file"
                { printf '<?xml version="1.0" encoding="UTF-8"?>\n<Workspace version = "1.0">\n'
                  for member in $projects; do case "$member" in *.xcodeproj) printf '   <FileRef location = "group:%s">\n   </FileRef>\n' "$member" ;; esac; done
                  printf '</Workspace>\n'; } > "$run/$file/contents.xcworkspacedata" ;;
            *'*') # a tool the project vendors (Pods/SwiftLint/swiftlint*): a recording stand-in
                file=${file%'*'}
                printf '#!/bin/sh\necho "$PWD $0 $*" >> "%s/calls.txt"\n[ "$1" = version ] && echo 0.57.0\nexit 0\n' "$stand" > "$run/$file" && chmod +x "$run/$file" ;;
            *) : > "$run/$file" ;; # a file the lane expects (a Podfile), empty
        esac
    done
    (cd "$run" && git init -q && git add -A && git -c user.name=t -c user.email=t@example.com commit -qm corpus)
    # A CI checkout's origin (a bare repository beside the run, which records what the lane pushes).
    git init -q --bare "$stand/origin.git" && git -C "$run" remote add origin "$stand/origin.git" \
        && git -C "$run" push -q -u origin HEAD 2> /dev/null
    # The team's other repositories the lane reaches (a match storage): each an empty bare repository,
    # reached through git's url.insteadOf in the CI's git configuration, as fastlane's git would too.
    i=0
    for url in ${remotes:-}; do
        i=$((i + 1))
        git init -q --bare "$stand/remote-$i.git"
        git config --file "$stand/home/.gitconfig" --add "url.$stand/remote-$i.git.insteadOf" "$url"
    done
    (cd "$run" && "$lanes" import fastlane --force > "$stand/import.log" 2>&1)
    imported=$?
    (cd "$run" && git add -A && git -c user.name=t -c user.email=t@example.com commit -qm "lanes import fastlane")
    environment=$(printf '%s' "$environment" | sed "s|\$RUN|$run|g; s|\$ROOT|$root|g; s|\$ASC_KEY_JSON|$work/asc/key.json|g; s|\$ASC_KEY_P8|$work/asc/asc.p8|g; s|\$ASC_KEY_ID|D383SF739A|g; s|\$ASC_ISSUER_ID|6053b7fe-68a8-4acb-89be-165aa6465141|g")
    # NAME=@FILE gives the variable the file's contents (a key a CI keeps as a multi-line secret).
    from_files=""
    plain=""
    for pair in $environment; do
        case "$pair" in *=@*) from_files="$from_files $pair" ;; *) plain="$plain $pair" ;; esac
    done
    asc=""
    if [ -n "${app:-}" ] && start_asc; then
        # The key as fastlane's api_key_path reads it (a JSON file), for lanes that name one.
        "$python" -c 'import json, sys; print(json.dumps({"key_id": "D383SF739A", "issuer_id": "6053b7fe-68a8-4acb-89be-165aa6465141", "key": open(sys.argv[1]).read()}))' \
            "$work/asc/asc.p8" > "$work/asc/key.json"
        base=http://127.0.0.1:$(cat "$work/asc/port")
        # The apps (the first one is the lane's), their bundle identifiers on the signing portal and one
        # registered device, as the team's account has them; `team:ID` is the portal's team.
        body=$("$python" -c '
import json, sys
ids = [a for a in sys.argv[1:] if not a.startswith("team:")]
team = ([a[5:] for a in sys.argv[1:] if a.startswith("team:")] or ["ABCDE12345"])[0]
print(json.dumps({
    "apps": [{"id": str(1234567890 + n), "attributes": {"name": "App", "bundleId": b, "sku": "APP%d" % n, "primaryLocale": "en-US"}}
             for n, b in enumerate(ids)],
    "bundleIds": [{"id": "BUNDLE%d" % n, "attributes": {"identifier": b, "name": "App %d" % n, "platform": "IOS"}} for n, b in enumerate(ids)],
    "devices": [{"id": "DEV1", "attributes": {"name": "CI iPhone", "udid": "00008030-001A2B3C4D5E6F70", "platform": "IOS", "status": "ENABLED"}}],
    "signingPortal": {"team": team, "teamName": "Example Corp"},
    "processingPolls": 1}))' $app)
        curl -s -o /dev/null -X POST --data "$body" "$base/_reset"
        asc="LANES_ASC_API_URL=$base APP_STORE_CONNECT_API_KEY_KEY_ID=D383SF739A APP_STORE_CONNECT_API_KEY_ISSUER_ID=6053b7fe-68a8-4acb-89be-165aa6465141"
    fi
    # shellcheck disable=SC2086
    (cd "$run" && for pair in $from_files; do export "${pair%%=@*}=$(cat "${pair#*=@}")"; done
     env PATH="$stand:$standin:$swift_dir:/usr/bin:/bin" XCODEBUILD_RECORD="$stand/xcodebuild.txt" \
        XCODEBUILD_IPA="$ipa" XCODEBUILD_TEST_LOG="$test_log" HOME="$stand/home" $asc $plain \
        sh -c '[ -n "$1" ] && APP_STORE_CONNECT_API_KEY_KEY=$(cat "$1") && export APP_STORE_CONNECT_API_KEY_KEY; shift; exec "$@"' \
        key "${asc:+$work/asc/asc.p8}" "$lanes" $lane > "$stand/run.log" 2>&1)
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
    [ -n "$asc" ] && curl -s "$base/_log" > "$stand/app-store-connect.json"
    printf '%s\t%s\timport %s\texit %s\t%s\n' "$project" "$lane" "$imported" "$status" "$outcome"
done < "$plan"
echo "$green of $total lanes ran green as imported (effects in $work/*-stand-ins and each run's git log)"
