#!/usr/bin/env bash
# A throw-away local etcd (Debian's etcd-server 3.4) on 127.0.0.1 for FleetKit's etcd integration tests (Debian 12,
# run as root to install):
#
#   scripts/etcd-local.sh start    install etcd-server, etcd-client and openssl if missing, start the two members
#                                  below, wait until healthy
#   scripts/etcd-local.sh stop     stop what start started, by pid (never by process name)
#   scripts/etcd-local.sh status   print whether the members answer; exit 1 when one does not
#   scripts/etcd-local.sh env      print the settings the tests need (FLEETKIT_ETCD_ENDPOINTS, FLEETKIT_ETCD_TLS_*)
#
# Two single-member clusters: a clear one on $FLEETKIT_ETCD_CLIENT_PORT (the contract suite), and a secured one on
# $FLEETKIT_ETCD_TLS_CLIENT_PORT (default client port + 1, peer port + 1) that speaks only TLS, requires a client
# certificate signed by its CA (--client-cert-auth) and has user authentication enabled (user "fleetkit" with
# read-write on "/", plus root). Its certificates (a CA, a server certificate for 127.0.0.1 and localhost, a client
# certificate) are made with openssl at every start, in a fresh temporary directory that stop removes; that
# directory also holds the user name and password (files "user" and "password", mode 600).
#
# Everything lives under $FLEETKIT_ETCD_DIR (default /tmp/fleetkit-etcd-<client port>, so that etcds started on other
# ports keep apart): the pid file and the log; the data
# directory (wiped at every start, since a reused one skips the --initial-* flags) is $FLEETKIT_ETCD_DATA, by default
# in /dev/shm when there is one: etcd syncs its log to disk at every write, and on a shared CI disk that makes each
# write take milliseconds. A test etcd needs no durability beyond its own restarts. Ports: client $FLEETKIT_ETCD_CLIENT_PORT
# (default 23790) and peer $FLEETKIT_ETCD_PEER_PORT (default 23800), away from etcd's usual 2379/2380. A member
# starts in well under a second.
set -euo pipefail

CLIENT_PORT=${FLEETKIT_ETCD_CLIENT_PORT:-23790}
BASE=${FLEETKIT_ETCD_DIR:-/tmp/fleetkit-etcd-$CLIENT_PORT}
PEER_PORT=${FLEETKIT_ETCD_PEER_PORT:-23800}
if [ -z "${FLEETKIT_ETCD_DATA:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
  FLEETKIT_ETCD_DATA=/dev/shm/fleetkit-etcd-$CLIENT_PORT
fi
DATA=${FLEETKIT_ETCD_DATA:-$BASE/data}
ENDPOINT="http://127.0.0.1:$CLIENT_PORT"
TLS_CLIENT_PORT=${FLEETKIT_ETCD_TLS_CLIENT_PORT:-$((CLIENT_PORT + 1))}
TLS_PEER_PORT=${FLEETKIT_ETCD_TLS_PEER_PORT:-$((PEER_PORT + 1))}
TLS_ENDPOINT="https://127.0.0.1:$TLS_CLIENT_PORT"
TLS_DATA="$DATA-tls"
PACKAGES=(etcd-server etcd-client openssl)

log() { echo "etcd-local: $*" >&2; }

pid_if_ours() {  # the pid in pid file $1 (default etcd.pid), only if /proc says it is an etcd
  local f="$BASE/${1:-etcd.pid}" pid
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

tls_dir() {  # the certificate directory of the running secured member, if any
  [ -f "$BASE/tls.dir" ] && cat "$BASE/tls.dir"
  return 0
}

tls_ctl() {  # etcdctl on the secured member, with the client certificate (and $@)
  local dir
  dir=$(tls_dir)
  ETCDCTL_API=3 etcdctl --endpoints="$TLS_ENDPOINT" --cacert="$dir/ca.crt" --cert="$dir/client.crt" \
    --key="$dir/client.key" --command-timeout=2s "$@"
}

tls_healthy() {
  [ -n "$(tls_dir)" ] || return 1
  tls_ctl --user "fleetkit:$(cat "$(tls_dir)/password")" endpoint health >/dev/null 2>&1
}

stop_member() {  # $1 pid file, $2 data directory
  local pid
  pid=$(pid_if_ours "$1")
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$BASE/$1"
  rm -rf "$2"
}

stop() {
  stop_member etcd.pid "$DATA"
  stop_member etcd-tls.pid "$TLS_DATA"
  local dir
  dir=$(tls_dir)
  case "$dir" in */fleetkit-etcd-tls.*) rm -rf "$dir" ;; esac
  rm -f "$BASE/tls.dir"
}

make_certs() {  # $1 directory: ca, server (127.0.0.1, localhost) and client certificates, EC P-256, valid 7 days
  local d=$1
  local ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
  openssl req -x509 "${ec[@]}" -keyout "$d/ca.key" -out "$d/ca.crt" -days 7 -subj "/CN=fleetkit-test-etcd-ca" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
  openssl req "${ec[@]}" -keyout "$d/server.key" -out "$d/server.csr" -subj "/CN=127.0.0.1" 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n' > "$d/server.ext"
  openssl x509 -req -in "$d/server.csr" -CA "$d/ca.crt" -CAkey "$d/ca.key" -CAcreateserial -days 7 \
    -extfile "$d/server.ext" -out "$d/server.crt" 2>/dev/null
  # The client's CN names no etcd user, so the certificate alone grants nothing once auth is on: the password does.
  openssl req "${ec[@]}" -keyout "$d/client.key" -out "$d/client.csr" -subj "/CN=fleetkit-test-client" 2>/dev/null
  printf 'extendedKeyUsage=clientAuth\n' > "$d/client.ext"
  openssl x509 -req -in "$d/client.csr" -CA "$d/ca.crt" -CAkey "$d/ca.key" -CAcreateserial -days 7 \
    -extfile "$d/client.ext" -out "$d/client.crt" 2>/dev/null
  rm -f "$d"/*.csr "$d"/*.ext "$d/ca.key" "$d/ca.srl"
  chmod 600 "$d"/*.key
}

start_tls() {
  local dir
  dir=$(mktemp -d "${TMPDIR:-/tmp}/fleetkit-etcd-tls.XXXXXX")
  echo "$dir" > "$BASE/tls.dir"
  make_certs "$dir"
  echo fleetkit > "$dir/user"
  openssl rand -hex 16 > "$dir/password"
  chmod 600 "$dir/password"
  rm -rf "$TLS_DATA"
  etcd --name fleetkit-tls --data-dir "$TLS_DATA" \
    --listen-client-urls "$TLS_ENDPOINT" --advertise-client-urls "$TLS_ENDPOINT" \
    --cert-file "$dir/server.crt" --key-file "$dir/server.key" --client-cert-auth --trusted-ca-file "$dir/ca.crt" \
    --listen-peer-urls "http://127.0.0.1:$TLS_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$TLS_PEER_PORT" \
    --initial-cluster "fleetkit-tls=http://127.0.0.1:$TLS_PEER_PORT" --initial-cluster-state new \
    --initial-cluster-token "fleetkit-tls-$$" > "$BASE/etcd-tls.log" 2>&1 &
  echo $! > "$BASE/etcd-tls.pid"
  for _ in $(seq 100); do
    if tls_ctl endpoint health >/dev/null 2>&1; then
      local root
      root=$(openssl rand -hex 16)
      { tls_ctl user add "root:$root" && tls_ctl user add "fleetkit:$(cat "$dir/password")" \
          && tls_ctl role add fleetkit && tls_ctl role grant-permission fleetkit readwrite --prefix=true / \
          && tls_ctl user grant-role fleetkit fleetkit && tls_ctl auth enable; } >> "$BASE/etcd-tls.log" 2>&1 \
        || { log "could not enable auth on the TLS member; its log:"; tail -30 "$BASE/etcd-tls.log" >&2; stop; exit 1; }
      log "etcd with TLS and auth ready on $TLS_ENDPOINT (certificates in $dir)"
      return 0
    fi
    kill -0 "$(cat "$BASE/etcd-tls.pid")" 2>/dev/null || break
    sleep 0.1
  done
  log "etcd (TLS) did not become healthy; its log:"
  tail -30 "$BASE/etcd-tls.log" >&2
  stop
  exit 1
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
    if healthy; then log "etcd ready on $ENDPOINT"; start_tls; return 0; fi
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
  status) if healthy; then echo "etcd healthy on $ENDPOINT"; else echo "etcd not answering on $ENDPOINT"; exit 1; fi
          if tls_healthy; then echo "etcd healthy on $TLS_ENDPOINT"; else echo "etcd not answering on $TLS_ENDPOINT"; exit 1; fi ;;
  env) echo "FLEETKIT_ETCD_ENDPOINTS=$ENDPOINT"
       echo "FLEETKIT_ETCD_TLS_ENDPOINTS=$TLS_ENDPOINT"
       echo "FLEETKIT_ETCD_TLS_DIR=$(tls_dir)" ;;
  *) echo "usage: $0 start|stop|status|env" >&2; exit 2 ;;
esac
