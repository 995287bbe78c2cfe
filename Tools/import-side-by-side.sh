#!/bin/sh
# Runs each planned lane twice from the same starting point: with the real fastlane
# (../shared/fastlane-linux, FASTLANE_ENV=WORK/env.sh from its setup.sh) on the project as it was, and
# with lanes as imported (Tools/import-behaviour.sh, same plan, same stand-ins), then prints, per
# project, what each did side by side: the actions/steps in the order they ran with their results,
# the tool calls (xcodebuild, agvtool, gradlew, pod; run folders written `.`), the files each changed
# and the commits and tags each made. Judging each call same/changed/dropped/wrong is then a reading
# of these lines, written down in the import docs. Swift Fastfiles do not run here (fastlane builds
# their runner with Xcode): their side says so.
#   FASTLANE_ENV=WORK/env.sh Tools/import-side-by-side.sh CORPUS PLAN
# fastlane's code never enters the project; this script only runs it where a session set it up.
set -u -f
corpus=$1
plan=$2
: "${FASTLANE_ENV:?FASTLANE_ENV=WORK/env.sh of ../shared/fastlane-linux/setup.sh}"
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d "${TMPDIR:-/tmp}/lanes-side-by-side.XXXXXX")
# The lanes side: the behaviour run (its folders hold the project before the import as their first commit).
sh "$root/Tools/import-behaviour.sh" "$corpus" "$plan" > "$out/lanes.txt" 2>&1
work=$(sed -n 's/^runs in //p' "$out/lanes.txt")
tab=$(printf '\t')
n=0
# fastlane's cocoapods action asks for the cocoapods gem before it calls `pod`: a gem of that name,
# empty, so it goes on to the recording `pod`.
mkdir -p "$out/gems/specifications"
printf 'Gem::Specification.new do |s|\n  s.name = "cocoapods"\n  s.version = "1.16.2"\n  s.summary = "stand-in"\n  s.files = []\nend\n' \
    > "$out/gems/specifications/cocoapods-1.16.2.gemspec"
# The rows of a summary table (fastlane's `| 1 | gym | 12 |`, lanes' `| 1 | build_app | What | 1 s | ok |`).
fastlane_steps() { sed -n '/fastlane summary/,$p' "$1" | grep -E '^\| *(💥|[0-9])' | awk -F'|' '{gsub(/ /,"",$2); gsub(/ /,"",$3); print ($2 ~ /💥/ ? "FAILED " : "ok ") $3}'; }
lanes_steps() { grep -E '^\| [0-9]+ \|' "$1" | awk -F'|' '{gsub(/ /,"",$3); gsub(/ /,"",$6); print $6 " " $3}'; }
while IFS="$tab" read -r project lane environment projects app; do
    case "$project" in ''|'#'*) continue ;; esac
    n=$((n + 1))
    run=$work/$n-$project
    stand=$work/$n-stand-ins
    fl=$out/$n-$project-fastlane
    # The same project as lanes started from: the first commit of the lanes run's repository.
    git clone -q "$run" "$fl" && git -C "$fl" checkout -q HEAD~1 2>/dev/null
    [ "$(git -C "$fl" log --format=%s -1)" = "corpus" ] || git -C "$fl" checkout -q "$(git -C "$run" rev-list --max-parents=0 HEAD)"
    git -C "$fl" tag | while read -r tag; do git -C "$fl" tag -d "$tag" > /dev/null; done
    mkdir -p "$out/$n-home" "$out/$n-tools"
    git config --file "$out/$n-home/.gitconfig" user.name CI && git config --file "$out/$n-home/.gitconfig" user.email ci@example.com
    printf '#!/bin/sh\nprintf "%%s\\t%%s\\t%%s\\n" "$(basename "$0")" "$PWD" "$*" >> "%s-fastlane-calls.tsv"\n[ "$1" = --version ] && echo 1.16.2\nexit 0\n' "$out/$n" > "$out/$n-tools/pod"
    printf '#!/bin/sh\nprintf "%%s\\t%%s\\t%%s\\n" bundle "$PWD" "$*" >> "%s-fastlane-calls.tsv"\n[ "$1" = exec ] && shift && exec "$@"\nexit 0\n' "$out/$n" > "$out/$n-tools/bundle"
    chmod +x "$out/$n-tools/pod" "$out/$n-tools/bundle"
    [ "$environment" = "-" ] && environment=""
    environment=$(printf '%s' "$environment" | sed "s|\$RUN|$fl|g; s|\$ROOT|$root|g; s|\$ASC_KEY_JSON|/nonexistent/key.json|g")
    # shellcheck disable=SC1090,SC2086
    cp "$out/$n-tools/pod" "$out/$n-tools/gradlew"
    (. "$FASTLANE_ENV"; cd "$fl" && [ -e gradlew ] && cp "$out/$n-tools/pod" gradlew && git update-index --assume-unchanged gradlew
     export GEM_PATH="$out/gems:$(ruby -e 'print Gem.path.join(":")')"
     env PATH="$out/$n-tools:$PATH" HOME="$out/$n-home" FL_RECORD="$out/$n-fastlane-calls.tsv" $environment \
        timeout 600 fastlane-linux $lane > "$out/$n-fastlane.log" 2>&1; status=$?
     # A Fastfile without default_platform: fastlane wants the platform before the lane (lanes does not).
     if grep -q "Available lanes: ios " "$out/$n-fastlane.log"; then
         env PATH="$out/$n-tools:$PATH" HOME="$out/$n-home" FL_RECORD="$out/$n-fastlane-calls.tsv" $environment \
            timeout 600 fastlane-linux ios $lane > "$out/$n-fastlane.log" 2>&1; status=$?
     fi
     echo $status > "$out/$n-fastlane.status")
    echo "== $project: $lane"
    printf 'fastlane exit %s | lanes %s\n' "$(cat "$out/$n-fastlane.status")" "$(grep "^$project$tab" "$out/lanes.txt" | cut -f4)"
    echo "-- steps (fastlane)"; fastlane_steps "$out/$n-fastlane.log" | sed 's/^/   /'
    echo "-- steps (lanes)"; lanes_steps "$stand/run.log" | sed 's/^/   /'
    echo "-- tool calls (fastlane)"
    grep -vE '^(xcode-select|xcrun)' "$out/$n-fastlane-calls.tsv" 2>/dev/null | grep -v -- ' -version$\| -showBuildSettings\| -list' \
        | awk -F'\t' '{print "   " $1 " " $3}' | sed "s|$fl/*|./|g; s|$out/$n-home|~|g"
    echo "-- tool calls (lanes)"
    { awk 'BEGIN{RS=""; FS="\n"} {line="xcodebuild"; for (i=1;i<=NF;i++) line=line " " $i; print line}' "$stand/xcodebuild.txt" 2>/dev/null
      cut -d' ' -f2- "$stand/calls.txt" 2>/dev/null | sed 's/^/gradlew|pod /'; } | sed "s|$run/*|./|g; s|$stand/home|~|g; s/^/   /"
    echo "-- files changed, commits and tags (fastlane)"
    git -C "$fl" status --short | grep -v ' fastlane/README.md\| fastlane/report.xml' | sed 's/^/   /'
    git -C "$fl" log --format='   commit: %s' HEAD@{1}..HEAD 2>/dev/null; git -C "$fl" tag | sed 's/^/   tag: /'
    echo "-- files changed, commits and tags (lanes; after the import's commit)"
    git -C "$run" status --short | grep -v ' \.lanes/' | sed 's/^/   /'
    git -C "$run" log --format='   commit: %s' "$(git -C "$run" log --format=%H --grep='^lanes import fastlane$' -1)..HEAD"
    git -C "$run" tag | sed 's/^/   tag: /'
done < "$plan"
echo "logs in $out (fastlane) and $work (lanes)"
