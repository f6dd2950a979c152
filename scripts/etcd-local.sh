#!/usr/bin/env bash
# A throw-away local etcd (Debian's etcd-server 3.4) on 127.0.0.1 for FleetKit's etcd integration tests (Debian 12,
# run as root to install):
#
#   scripts/etcd-local.sh start    install etcd-server and etcd-client if missing, start one member, wait until healthy
#   scripts/etcd-local.sh stop     stop what start started, by pid (never by process name)
#   scripts/etcd-local.sh status   print whether the member answers; exit 1 when it does not
#   scripts/etcd-local.sh env      print the settings the tests need (FLEETKIT_ETCD_ENDPOINTS)
#
# Everything lives under $FLEETKIT_ETCD_DIR (default /tmp/fleetkit-etcd): the pid file and the log; the data
# directory (wiped at every start, since a reused one skips the --initial-* flags) is $FLEETKIT_ETCD_DATA, by default
# in /dev/shm when there is one: etcd syncs its log to disk at every write, and on a shared CI disk that makes each
# write take milliseconds. A test etcd needs no durability beyond its own restarts. Ports: client $FLEETKIT_ETCD_CLIENT_PORT
# (default 23790) and peer $FLEETKIT_ETCD_PEER_PORT (default 23800), away from etcd's usual 2379/2380. A member
# starts in well under a second.
set -euo pipefail

BASE=${FLEETKIT_ETCD_DIR:-/tmp/fleetkit-etcd}
CLIENT_PORT=${FLEETKIT_ETCD_CLIENT_PORT:-23790}
PEER_PORT=${FLEETKIT_ETCD_PEER_PORT:-23800}
if [ -z "${FLEETKIT_ETCD_DATA:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
  FLEETKIT_ETCD_DATA=/dev/shm/fleetkit-etcd-$CLIENT_PORT
fi
DATA=${FLEETKIT_ETCD_DATA:-$BASE/data}
ENDPOINT="http://127.0.0.1:$CLIENT_PORT"
PACKAGES=(etcd-server etcd-client)

log() { echo "etcd-local: $*" >&2; }

pid_if_ours() {  # the pid in our pid file, only if /proc says it is an etcd
  local f="$BASE/etcd.pid" pid
  [ -f "$f" ] || return 0
  pid=$(tr -dc '0-9' < "$f")
  [ -n "$pid" ] || return 0
  [ -r "/proc/$pid/comm" ] && [ "$(cat "/proc/$pid/comm")" = etcd ] && echo "$pid"
  return 0
}

install_packages() {
  local missing=() p
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  [ "$(id -u)" = 0 ] || { log "must run as root to install ${missing[*]}"; exit 1; }
  log "installing ${missing[*]}"
  # The package's postinst would start a system etcd on 2379; a policy-rc.d that exits 101 stops that. Create it
  # only if there is none, and remove only the one we created.
  local made_policy=0 rc=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    made_policy=1
  fi
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${missing[@]}"; } > "${TMPDIR:-/tmp}/fleetkit-etcd-apt.log" 2>&1 || rc=$?
  [ $made_policy = 1 ] && rm -f /usr/sbin/policy-rc.d
  if [ $rc != 0 ]; then log "apt-get failed ($rc):"; tail -30 "${TMPDIR:-/tmp}/fleetkit-etcd-apt.log" >&2; exit 1; fi
}

healthy() {
  ETCDCTL_API=3 etcdctl --endpoints="$ENDPOINT" --command-timeout=2s endpoint health >/dev/null 2>&1
}

stop() {
  local pid
  pid=$(pid_if_ours)
  [ -n "$pid" ] || return 0
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || { rm -f "$BASE/etcd.pid"; rm -rf "$DATA"; return 0; }; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$BASE/etcd.pid"
  rm -rf "$DATA"
}

start() {
  install_packages
  stop
  mkdir -p "$BASE"
  rm -rf "$DATA"
  etcd --name fleetkit --data-dir "$DATA" \
    --listen-client-urls "$ENDPOINT" --advertise-client-urls "$ENDPOINT" \
    --listen-peer-urls "http://127.0.0.1:$PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$PEER_PORT" \
    --initial-cluster "fleetkit=http://127.0.0.1:$PEER_PORT" --initial-cluster-state new \
    --initial-cluster-token "fleetkit-$$" > "$BASE/etcd.log" 2>&1 &
  echo $! > "$BASE/etcd.pid"
  for _ in $(seq 100); do
    if healthy; then log "etcd ready on $ENDPOINT"; return 0; fi
    kill -0 "$(cat "$BASE/etcd.pid")" 2>/dev/null || break
    sleep 0.1
  done
  log "etcd did not become healthy; its log:"
  tail -30 "$BASE/etcd.log" >&2
  stop
  exit 1
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) if healthy; then echo "etcd healthy on $ENDPOINT"; else echo "etcd not answering on $ENDPOINT"; exit 1; fi ;;
  env) echo "FLEETKIT_ETCD_ENDPOINTS=$ENDPOINT" ;;
  *) echo "usage: $0 start|stop|status|env" >&2; exit 2 ;;
esac
