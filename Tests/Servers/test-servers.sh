#!/usr/bin/env bash
# Starts the upload tests' real servers on 127.0.0.1, on free ports, under a private base folder:
#   nginx WebDAV  (PUT target, like Artifactory/Nexus raw)
#   Ceph RGW      (a real S3: SigV4, multipart, Content-MD5, ListParts) on a one-OSD throw-away cluster
#
#   test-servers.sh start BASE OWNER_PID   starts both, writes BASE/env (KEY=VALUE lines), prints it;
#                                          a watchdog stops everything once OWNER_PID exits
#   test-servers.sh stop BASE              stops everything started under BASE
#   TEST_SERVERS=nginx test-servers.sh start ...   starts nginx only (the script's own test)
#
# Every server runs in the foreground of its own session (setsid), so its PID is its process group
# and stop ends the whole group (nginx's workers too): SIGTERM, then SIGKILL after a grace period.
# Every process the script starts carries LANES_TEST_SERVERS=BASE in its environment, and stop
# then ends any process still carrying it (a daemon that forked away, a hung ceph or radosgw-admin
# client; nginx overwrites its environment with its process title, but its group ends it). The watchdog runs in a session of its own, so killing the test's process group leaves
# it to clean up; it knows the owner by PID and start time, so a reused PID does not keep it waiting.
# Each run has its own BASE, ports and Ceph fsid, so several test runs can share a machine.
set -Eeuo pipefail
# The daemons started here live as long as the test process: they must not inherit a pipe another
# test is reading to its end (a git fixture's output), or that read never ends.
for fd in $(ls /dev/fd 2>/dev/null); do
  if [ "$fd" -gt 2 ] 2>/dev/null; then eval "exec $fd>&-" 2>/dev/null || true; fi
done

cmd=${1:?usage: test-servers.sh start BASE OWNER_PID | stop BASE}
BASE=${2:?BASE folder}
PIDS=$BASE/pids
S3_ACCESS_KEY=LANESTESTACCESSKEY01
S3_SECRET_KEY=lanes-test-secret-key-0123456789abcdefghij
export LANES_TEST_SERVERS=$BASE

log() { printf '[test-servers %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
wait_http() { # url seconds
  local deadline=$(( $(date +%s) + $2 ))
  until curl -s -o /dev/null --max-time 2 "$1"; do
    [ "$(date +%s)" -lt "$deadline" ] || { log "timed out waiting for $1"; return 1; }
    sleep 0.2
  done
}
# The start time of a process (field 22 of /proc/PID/stat, after the command's parentheses).
start_time() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20; }

# True while PID runs; a zombie (ended, not yet reaped by init) counts as ended.
alive() { local state; state=$(sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1); [ -n "$state" ] && [ "$state" != Z ]; }

# Starts a server in the foreground of a new session, its output in a log; records its PID as NAME.
run_server() { # NAME LOG COMMAND...
  local name=$1 out=$2; shift 2
  setsid "$@" </dev/null >>"$out" 2>&1 &
  echo $! > "$PIDS/$name"
}

# The PIDs of live processes (other than this script, its watchdog and its own helpers) that
# carry this BASE's marker. One grep, run without the marker, reads every environment.
marked() {
  env -u LANES_TEST_SERVERS grep -lzxF "LANES_TEST_SERVERS=$BASE" /proc/[0-9]*/environ 2>/dev/null |
    while IFS=/ read -r _ _ pid _; do
      [ "$pid" != $$ ] && [ "$pid" != "$BASHPID" ] && [ "$pid" != "${WATCHDOG_SELF:-}" ] && alive "$pid" && echo "$pid"
    done
  return 0
}

stop_all() {
  # Gateway first, then the OSD (it tells the monitor it goes down), then the monitor; each by
  # its process group, so what it forked goes with it.
  local f p i
  for f in "$PIDS"/watchdog "$PIDS"/nginx "$PIDS"/radosgw "$PIDS"/osd "$PIDS"/mon; do
    [ -s "$f" ] || continue
    p=$(cat "$f")
    if [ "$(basename "$f")" != watchdog ] || [ "$p" != "${WATCHDOG_SELF:-}" ]; then
      kill -TERM -- "-$p" 2>/dev/null || kill -TERM "$p" 2>/dev/null || true
      for i in $(seq 1 50); do alive "$p" || break; sleep 0.1; done
      kill -KILL -- "-$p" 2>/dev/null || true
      kill -KILL "$p" 2>/dev/null || true
    fi
    rm -f "$f"
  done
  # Whatever else this BASE started and is still there.
  local left
  left=$(marked)
  [ -z "$left" ] && return 0
  kill -TERM $left 2>/dev/null || true
  for i in $(seq 1 30); do left=$(marked); [ -z "$left" ] && return 0; sleep 0.1; done
  kill -KILL $left 2>/dev/null || true
  for i in $(seq 1 30); do [ -z "$(marked)" ] && return 0; sleep 0.1; done
  log "processes still running after SIGKILL: $(marked)"
}

start_nginx() {
  local d=$BASE/nginx port; port=$(free_port)
  mkdir -p "$d"/{data,tmp,logs}
  local user=""; [ "$(id -u)" = 0 ] && { user="user root;"; }
  cat > "$d/nginx.conf" <<CONF
load_module /usr/lib/nginx/modules/ngx_http_dav_ext_module.so;
$user
daemon off;
worker_processes 2;
pid $d/nginx.pid;
error_log $d/logs/error.log warn;
events { worker_connections 256; }
http {
  access_log $d/logs/access.log;
  client_body_temp_path $d/tmp;
  client_max_body_size 0;
  client_body_timeout 120s;
  server {
    listen 127.0.0.1:$port;
    root $d/data;
    location /private/ {
      auth_basic "lanes tests";
      auth_basic_user_file $d/htpasswd;
      dav_methods PUT;
      create_full_put_path on;
    }
    location / {
      dav_methods PUT DELETE MKCOL;
      dav_ext_methods PROPFIND OPTIONS;
      create_full_put_path on;
      dav_access user:rw group:r all:r;
    }
  }
}
CONF
  printf 'ci:%s\n' "$(openssl passwd -apr1 lanes-webdav-password)" > "$d/htpasswd"
  run_server nginx "$d/logs/nginx.out" nginx -e "$d/logs/error.log" -p "$d" -c "$d/nginx.conf"
  wait_http "http://127.0.0.1:$port/" 20
  echo "WEBDAV_URL=http://127.0.0.1:$port" >> "$BASE/env"
  echo "WEBDAV_USER=ci" >> "$BASE/env"
  echo "WEBDAV_PASSWORD=lanes-webdav-password" >> "$BASE/env"
}

start_rgw() {
  local d=$BASE/ceph mon_port rgw_port fsid osd
  mon_port=$(free_port); rgw_port=$(free_port)
  mkdir -p "$d"/{mon,osd,log,run}
  export CEPH_CONF=$d/ceph.conf
  fsid=$(cat /proc/sys/kernel/random/uuid)
  cat > "$CEPH_CONF" <<CONF
[global]
fsid = $fsid
mon host = v2:127.0.0.1:$mon_port
public addr = 127.0.0.1
cluster addr = 127.0.0.1
ms bind ipv6 = false
auth cluster required = none
auth service required = none
auth client required = none
run dir = $d/run
pid file = $d/run/\$name.pid
admin socket = $d/run/\$name.asok
log file = $d/log/\$name.log
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon allow pool size one = true
mon max pg per osd = 1000
mon warn on pool no redundancy = false
mon data avail warn = 1
mon data avail crit = 0
osd crush chooseleaf type = 0
[mon.a]
mon data = $d/mon
[osd.0]
osd data = $d/osd
osd objectstore = bluestore
bluestore block path = $d/osd-block.img
bluestore block create = true
bluestore block size = 24G
bluestore fsck on mkfs = false
osd memory target = 939524096
[client.rgw.lanes]
rgw frontends = beast endpoint=127.0.0.1:$rgw_port
rgw dns name = localhost
ms mon client mode = crc
CONF
  # An explicit monitor map: without one the monitor binds the default ports 3300/6789.
  monmaptool --create --fsid "$fsid" --addv a "[v2:127.0.0.1:$mon_port]" "$d/monmap" >"$d/log/mon-mkfs.out" 2>&1
  ceph-mon -i a --mkfs --monmap "$d/monmap" >>"$d/log/mon-mkfs.out" 2>&1
  run_server mon "$d/log/mon-start.out" ceph-mon -f -i a
  osd=$(ceph --connect-timeout 20 osd create 2>>"$d/log/osd-create.out")
  ceph-osd -i "$osd" --mkfs >"$d/log/osd-mkfs.out" 2>&1
  run_server osd "$d/log/osd-start.out" ceph-osd -f -i "$osd"
  run_server radosgw "$d/log/rgw-start.out" radosgw -f -n client.rgw.lanes
  local i
  wait_http "http://127.0.0.1:$rgw_port/" 90
  for i in $(seq 1 30); do
    radosgw-admin -n client.rgw.lanes user create --uid lanes --display-name "lanes tests" \
      --access-key "$S3_ACCESS_KEY" --secret-key "$S3_SECRET_KEY" >>"$d/log/user-create.out" 2>&1 && break
    [ "$i" = 30 ] && { log "radosgw-admin user create failed: see $d/log/user-create.out"; return 1; }
    sleep 1
  done
  {
    echo "S3_ENDPOINT=http://127.0.0.1:$rgw_port"
    echo "S3_ACCESS_KEY=$S3_ACCESS_KEY"
    echo "S3_SECRET_KEY=$S3_SECRET_KEY"
  } >> "$BASE/env"
}

case "$cmd" in
  start)
    OWNER=${3:?OWNER_PID}
    owner_start=$(start_time "$OWNER")
    [ -n "$owner_start" ] || { log "owner process $OWNER is not running"; exit 1; }
    mkdir -p "$PIDS"; : > "$BASE/env"
    trap 'log "start failed; stopping what started"; stop_all; exit 1' ERR
    start_nginx
    [ "${TEST_SERVERS:-all}" = nginx ] || start_rgw
    trap - ERR
    # The watchdog: when the test process is gone (passed, failed or crashed), stop the servers.
    setsid "$0" watch "$BASE" "$OWNER" "$owner_start" </dev/null >/dev/null 2>&1 &
    echo $! > "$PIDS/watchdog"
    cat "$BASE/env" ;;
  watch)
    OWNER=${3:?OWNER_PID}; owner_start=${4:?start time}
    while [ "$(start_time "$OWNER")" = "$owner_start" ]; do sleep 0.5; done
    WATCHDOG_SELF=$$ stop_all
    rm -rf "$BASE" ;;
  stop) stop_all ;;
  *) echo "usage: test-servers.sh start BASE OWNER_PID | stop BASE" >&2; exit 64 ;;
esac
