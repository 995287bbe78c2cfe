#!/usr/bin/env bash
# unfinished-tests.sh LOG: after a `swift test` run that died (a crash, a kill), names the tests that
# started and never finished, and prints the backtracer's crashed thread, so that the end of a long
# log (all a CI page may keep) says which test took the process down.
log=${1:?usage: unfinished-tests.sh LOG}
[ -f "$log" ] || exit 0
awk '
  /^◇ Test [^ ]+\(.*\) started\.$/ { name = $3; open[name]++ }
  /^(✔|✘) Test [^ ]+\(.*\) .*(passed|failed) after/ { name = $3; if (open[name] > 0) open[name]-- }
  END { for (name in open) if (open[name] > 0) print "  started, never finished: " name }
' "$log"
grep -n -A 25 -E "crashed:|Fatal error|💣" "$log" | head -60
