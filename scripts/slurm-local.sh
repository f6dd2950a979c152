#!/usr/bin/env bash
# A throw-away local Slurm 22.05 cluster for FleetKit's Slurm integration tests (Debian 12, run as root):
# munged, slurmctld, 4 slurmd (fake nodes n1..n4 on 127.0.0.1 with 2 CPUs, 2000 MB and 2 fake GPUs each)
# and slurmrestd (OpenAPI v0.0.38, JWT auth) on 127.0.0.1:6820.
#
#   scripts/slurm-local.sh start    install the packages if missing, (re)write the config, start, wait until ready
#   scripts/slurm-local.sh stop     stop what start started, by pid (never by process name)
#   scripts/slurm-local.sh status   print what runs and whether the REST API answers; exit 1 when it does not
#   scripts/slurm-local.sh env      print the settings the tests need (FLEETKIT_SLURM_URL, FLEETKIT_SLURM_TOKEN_FILE)
#
# Everything lives under $FLEETKIT_SLURM_DIR (default /tmp/fleetkit-slurm): slurm.conf, gres.conf, the JWT key,
# pid files, logs, state, spool and job output. Nothing is written to /etc/slurm. Tested on Debian bookworm with
# Slurm 22.05.8, without systemd.
#
# start is safe to repeat: daemons left running by an earlier start (or a crashed CI run) are stopped by the pids
# they recorded, and the controller state is wiped, so every start gives a fresh cluster (job ids restart at 1).
set -euo pipefail

BASE=${FLEETKIT_SLURM_DIR:-/tmp/fleetkit-slurm}
NODES=${FLEETKIT_SLURM_NODES:-4}
REST_PORT=${FLEETKIT_SLURM_REST_PORT:-6820}
CTLD_PORT=${FLEETKIT_SLURM_CTLD_PORT:-6817}
URL="http://127.0.0.1:$REST_PORT"
TOKEN_FILE="$BASE/jwt.token"
PACKAGES=(slurmctld slurmd slurm-client slurmrestd munge slurm-wlm-jwt-plugin curl)
export SLURM_CONF="$BASE/slurm.conf"

log() { echo "slurm-local: $*" >&2; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# --- pids -------------------------------------------------------------------------------------------------------
# Only pids read from our own pid files, and only when /proc says the process has the expected name, so that a pid
# recycled by an unrelated process is never signalled.
pid_if_ours() {  # file expected-comm
  local f=$1 comm=$2 pid
  [ -f "$f" ] || return 0
  pid=$(tr -dc '0-9' < "$f")
  [ -n "$pid" ] || return 0
  [ -r "/proc/$pid/comm" ] && [ "$(cat "/proc/$pid/comm")" = "$comm" ] && echo "$pid"
  return 0
}
term_and_wait() {  # TERM the given pids, wait up to 15 s, then KILL the ones left
  [ $# -gt 0 ] || return 0
  kill "$@" 2>/dev/null || true
  local _ p alive
  for _ in $(seq 150); do
    alive=0
    for p in "$@"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && return 0
    sleep 0.1
  done
  log "still alive after 15 s, sending KILL: $*"
  kill -9 "$@" 2>/dev/null || true
}
slurmd_pids() {
  local f
  for f in "$BASE"/run/slurmd-*.pid; do [ -e "$f" ] && pid_if_ours "$f" slurmd; done
  return 0
}

# --- install ----------------------------------------------------------------------------------------------------
install_packages() {
  local missing=() p
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && { log "packages already installed"; return 0; }
  [ "$(id -u)" = 0 ] || { log "must run as root to install ${missing[*]}"; exit 1; }
  log "installing ${missing[*]}"
  # The package postinst scripts try to start the daemons; a policy-rc.d that exits 101 stops them (as in Docker
  # images). Create it only if there is none, and remove only the one we created.
  local made_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    made_policy=1
  fi
  local rc=0
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${PACKAGES[@]}" > "${TMPDIR:-/tmp}/fleetkit-slurm-apt.log" 2>&1; } || rc=$?
  [ $made_policy = 1 ] && rm -f /usr/sbin/policy-rc.d
  if [ $rc != 0 ]; then log "apt-get failed ($rc):"; tail -30 "${TMPDIR:-/tmp}/fleetkit-slurm-apt.log" >&2; exit 1; fi
}

# --- config -----------------------------------------------------------------------------------------------------
write_config() {
  rm -rf "$BASE"/state "$BASE"/spool "$BASE"/log "$BASE"/jobs "$TOKEN_FILE"
  mkdir -p "$BASE"/{state,log,run,fakegpu,jobs}
  chmod 755 "$BASE"
  chmod 1777 "$BASE/jobs"
  local i
  for i in $(seq 1 "$NODES"); do mkdir -p "$BASE/spool/n$i"; done
  # gres/gpu needs File= entries that are character devices: symlinks to /dev/null are fake GPUs without errors.
  ln -sfn /dev/null "$BASE/fakegpu/nvidia0"
  ln -sfn /dev/null "$BASE/fakegpu/nvidia1"
  cat > "$SLURM_CONF" <<CONF
# Written by scripts/slurm-local.sh: a throw-away test cluster, do not edit.
ClusterName=fleetkit
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthAltTypes=auth/jwt
AuthAltParameters=jwt_key=$BASE/jwt_hs256.key
SlurmctldPort=$CTLD_PORT
StateSaveLocation=$BASE/state
SlurmdSpoolDir=$BASE/spool/%n
SlurmctldPidFile=$BASE/run/slurmctld.pid
SlurmdPidFile=$BASE/run/slurmd-%n.pid
SlurmctldLogFile=$BASE/log/slurmctld.log
SlurmdLogFile=$BASE/log/slurmd-%n.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=100
SlurmdParameters=config_overrides
ReturnToService=2
MinJobAge=600
KillWait=5
InactiveLimit=0
MailProg=/bin/true
GresTypes=gpu
NodeName=n[1-$NODES] NodeHostname=localhost NodeAddr=127.0.0.1 Port=[17001-$((17000 + NODES))] CPUs=2 Boards=1 SocketsPerBoard=1 CoresPerSocket=2 ThreadsPerCore=1 RealMemory=2000 Gres=gpu:2 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
  cat > "$BASE/gres.conf" <<CONF
AutoDetect=off
NodeName=n[1-$NODES] Name=gpu File=$BASE/fakegpu/nvidia[0-1]
CONF
  chmod 644 "$SLURM_CONF" "$BASE/gres.conf"
  # HS256 signing key for the JWTs, readable by SlurmUser (root) only.
  if [ ! -s "$BASE/jwt_hs256.key" ]; then
    (umask 077; dd if=/dev/urandom of="$BASE/jwt_hs256.key" bs=32 count=1 2>/dev/null)
  fi
  chmod 600 "$BASE/jwt_hs256.key"
}

# --- start / stop -----------------------------------------------------------------------------------------------
start_munge() {
  if [ ! -f /etc/munge/munge.key ]; then
    mungekey -c -k /etc/munge/munge.key
    chown munge:munge /etc/munge/munge.key
    chmod 400 /etc/munge/munge.key
  fi
  mkdir -p /run/munge && chown munge:munge /run/munge
  if munge -n > /dev/null 2>&1; then
    log "reusing the munged that is already running"
    return 0
  fi
  runuser -u munge -- /usr/sbin/munged   # daemonizes; pid in /run/munge/munged.pid
  touch "$BASE/run/munged.started-by-us"
  local _
  for _ in $(seq 100); do munge -n > /dev/null 2>&1 && return 0; sleep 0.1; done
  log "munged did not come up"; exit 1
}

do_stop() {
  local pids
  # 1. slurmrestd and all slurmd together (each takes ~2 s to exit), 2. slurmctld, 3. munged if we started it.
  pids="$(pid_if_ours "$BASE/run/slurmrestd.pid" slurmrestd) $(slurmd_pids)"
  # shellcheck disable=SC2086
  term_and_wait $pids
  # shellcheck disable=SC2086
  term_and_wait $(pid_if_ours "$BASE/run/slurmctld.pid" slurmctld)
  if [ -f "$BASE/run/munged.started-by-us" ]; then
    # shellcheck disable=SC2046
    term_and_wait $(pid_if_ours /run/munge/munged.pid munged)
  fi
  rm -f "$BASE/run/slurmrestd.pid" "$BASE/run/munged.started-by-us" "$BASE"/run/slurmd-*.pid "$BASE/run/slurmctld.pid"
}

rest_ok() {  # does slurmrestd answer an authenticated ping?
  [ -s "$TOKEN_FILE" ] || return 1
  curl -sf -o /dev/null --max-time 2 -H "X-SLURM-USER-NAME: root" -H "X-SLURM-USER-TOKEN: $(cat "$TOKEN_FILE")" \
    "$URL/slurm/v0.0.38/ping"
}

do_start() {
  local t0 t1 _ i ok
  t0=$(now)
  [ "$(id -u)" = 0 ] || { log "start must run as root (slurmd, munged and slurmrestd -u need it)"; exit 1; }
  install_packages
  log "packages ready after $(elapsed "$t0") s"
  t1=$(now)
  mkdir -p "$BASE/run"
  # Leftovers of an earlier run (also one that crashed): stop them by their pid files before anything else,
  # because a second slurmctld/slurmd with the same pid file silently kills and replaces the first.
  do_stop
  if curl -s -o /dev/null --max-time 2 "$URL/"; then
    log "port $REST_PORT is in use by something this script did not start"; exit 1
  fi
  write_config
  start_munge
  slurmctld -i   # -i: ignore the (missing) state files; daemonizes
  ok=0
  for _ in $(seq 200); do scontrol ping > /dev/null 2>&1 && { ok=1; break; }; sleep 0.1; done
  [ $ok = 1 ] || { log "slurmctld did not answer:"; tail -20 "$BASE/log/slurmctld.log" >&2; exit 1; }
  for i in $(seq 1 "$NODES"); do slurmd -N "n$i"; done   # one slurmd per fake node
  ok=0
  for _ in $(seq 300); do
    [ "$(sinfo -h -t idle -o '%D' 2> /dev/null)" = "$NODES" ] && { ok=1; break; }
    sleep 0.1
  done
  [ $ok = 1 ] || { log "nodes not idle:"; sinfo -R >&2 || true; tail -20 "$BASE/log/slurmctld.log" >&2; exit 1; }
  # slurmrestd refuses root: -u drops to the package's 'slurm' user. SLURM_JWT=daemon makes it pass the client's
  # token to slurmctld. Only the non-db OpenAPI plugins (the db ones are fatal without slurmdbd). It has no daemon
  # mode, so it is backgrounded here and its pid recorded.
  SLURM_JWT=daemon nohup slurmrestd -u slurm -a rest_auth/jwt -s openapi/v0.0.38 "127.0.0.1:$REST_PORT" \
    > "$BASE/log/slurmrestd.log" 2>&1 < /dev/null &
  echo $! > "$BASE/run/slurmrestd.pid"
  # A JWT for root, valid one day, signed by slurmctld with jwt_hs256.key. Readable by root only.
  (umask 077; scontrol token username=root lifespan=86400 | sed 's/^SLURM_JWT=//' > "$TOKEN_FILE")
  ok=0
  for _ in $(seq 200); do rest_ok && { ok=1; break; }; sleep 0.1; done
  [ $ok = 1 ] || { log "slurmrestd did not answer:"; cat "$BASE/log/slurmrestd.log" >&2; exit 1; }
  log "cluster up in $(elapsed "$t1") s (total with install check $(elapsed "$t0") s): $NODES nodes, REST $URL, token in $TOKEN_FILE"
}

do_status() {
  local p rc=0
  echo "dir:        $BASE"
  p=$(pid_if_ours /run/munge/munged.pid munged); echo "munged:     ${p:-not running}"
  p=$(pid_if_ours "$BASE/run/slurmctld.pid" slurmctld); echo "slurmctld:  ${p:-not running}"
  p=$(slurmd_pids | tr '\n' ' '); echo "slurmd:     ${p:-not running}"
  p=$(pid_if_ours "$BASE/run/slurmrestd.pid" slurmrestd); echo "slurmrestd: ${p:-not running}"
  if rest_ok; then echo "rest:       $URL answers (token $TOKEN_FILE)"; else echo "rest:       not answering"; rc=1; fi
  [ -f "$SLURM_CONF" ] && command -v sinfo > /dev/null && sinfo 2> /dev/null || true
  return $rc
}

case "${1:-}" in
  start) do_start ;;
  stop) do_stop; log "stopped" ;;
  status) do_status ;;
  env) echo "FLEETKIT_SLURM_URL=$URL"; echo "FLEETKIT_SLURM_TOKEN_FILE=$TOKEN_FILE"; echo "FLEETKIT_SLURM_DIR=$BASE" ;;
  *) echo "usage: $0 start|stop|status|env" >&2; exit 2 ;;
esac
