#!/usr/bin/env bash
# Measures FleetKit's cluster DNS server with dnsperf (Debian's dnsperf) on loopback UDP (Debian 12, run as root to
# install):
#
#   scripts/dnsperf.sh [SECONDS] [SERVICES] [SERVER_THREADS] [CLIENTS]
#
# Starts io.fleetkit.benchmarks.DnsServerTarget from benchmarks/target/benchmarks.jar (build it first with
# ./mvnw -q -DskipTests package) with SERVICES ClusterIP and as many headless Services (default 1000 + 1000), sends
# it a mix of A (ClusterIP and headless), SRV and NXDOMAIN queries for SECONDS (default 15) from CLIENTS dnsperf
# clients (default 4, two dnsperf threads), then prints dnsperf's summary and the p50/p99 latency computed from its
# per-query output. Stops the server it started, by pid. Not part of CI: the figure needs an otherwise idle machine.
set -euo pipefail

SECONDS_TO_RUN=${1:-15}
SERVICES=${2:-1000}
SERVER_THREADS=${3:-4}
CLIENTS=${4:-4}
PORT=${FLEETKIT_DNSPERF_PORT:-25353}
JAR=${FLEETKIT_BENCHMARKS_JAR:-benchmarks/target/benchmarks.jar}
WORK=$(mktemp -d /tmp/fleetkit-dnsperf.XXXXXX)

log() { echo "dnsperf: $*" >&2; }

if ! command -v dnsperf > /dev/null; then
  [ "$(id -u)" = 0 ] || { log "dnsperf missing; run as root to install it"; exit 1; }
  log "installing dnsperf"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q dnsperf > /dev/null
fi
[ -f "$JAR" ] || { log "$JAR missing: build it with ./mvnw -q -DskipTests package"; exit 1; }

java -Xms512m -Xmx512m -cp "$JAR" io.fleetkit.benchmarks.DnsServerTarget "$PORT" "$SERVICES" "$SERVER_THREADS" \
  > "$WORK/server.log" 2>&1 &
SERVER=$!
trap 'kill "$SERVER" 2> /dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 1 100); do
  grep -q serving "$WORK/server.log" && break
  sleep 0.2
done
grep -q serving "$WORK/server.log" || { log "server did not start:"; cat "$WORK/server.log" >&2; exit 1; }

# the query mix: for each Service its A record, its headless twin's A records, the SRV of its port, and a miss
for i in $(seq 0 $((SERVICES - 1))); do
  echo "svc-$i.bench.svc.cluster.local A"
  echo "hdls-$i.bench.svc.cluster.local A"
  echo "_http._tcp.svc-$i.bench.svc.cluster.local SRV"
  echo "missing-$i.bench.svc.cluster.local A"
done > "$WORK/queries.txt"

dnsperf -s 127.0.0.1 -p "$PORT" -d "$WORK/queries.txt" -l "$SECONDS_TO_RUN" -c "$CLIENTS" -T 2 -q 200 -v \
  > "$WORK/out.txt" 2>&1 || true
sed -n '/Statistics:/,$p' "$WORK/out.txt"
# verbose lines: "> NOERROR svc-1.bench.svc.cluster.local A 0.000123"; the last field is the latency in seconds
grep -E '^> ' "$WORK/out.txt" | awk '{print $NF}' | sort -g > "$WORK/lat.txt"
N=$(wc -l < "$WORK/lat.txt")
if [ "$N" -gt 0 ]; then
  P50=$(sed -n "$(( (N * 50 + 99) / 100 ))p" "$WORK/lat.txt")
  P99=$(sed -n "$(( (N * 99 + 99) / 100 ))p" "$WORK/lat.txt")
  echo "  Latency p50: ${P50} s, p99: ${P99} s (over $N answered queries)"
fi
