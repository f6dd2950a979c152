#!/usr/bin/env bash
# The whole-cluster simulator's day (ClusterSimulationBenchmark) in fresh JVMs with the simulator's options
# (scripts/jvm-options.sh) and a 1 GB heap (-m: another). With one benchmarks jar: RUNS days and their median; with
# two: RUNS pairs alternating which goes first, each side's median and the median of the per-pair ratios B/A. Figures
# are the day's wall time (the hourly live-heap collections not counted) and the simulation thread's CPU, as the
# benchmark prints them; the per-pair ratios are given for both.
#
#   scripts/day-pairs.sh [-n RUNS] [-s "NODES DEPLOYMENTS REPLICAS HOURS"] [-m HEAP] A.jar [B.jar]
#
# Build a jar with ./mvnw -q -DskipTests package (benchmarks/target/benchmarks.jar) and copy it aside before changing
# the code. Default: 5 runs of the 1,000-node day ("1000 100 100 24"). Run it on an otherwise idle machine.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs=5
shape="1000 100 100 24"
heap=1g
while getopts "n:s:m:" o; do
  case "$o" in
    n) runs="$OPTARG" ;;
    s) shape="$OPTARG" ;;
    m) heap="$OPTARG" ;;
    *) echo "usage: $0 [-n RUNS] [-s \"NODES DEPLOYMENTS REPLICAS HOURS\"] [-m HEAP] A.jar [B.jar]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: $0 [-n RUNS] [-s \"NODES DEPLOYMENTS REPLICAS HOURS\"] [-m HEAP] A.jar [B.jar]" >&2
  exit 2
fi
for jar in "$@"; do
  [[ -f "$jar" ]] || { echo "$0: no such jar: $jar" >&2; exit 2; }
done
# shellcheck source=scripts/jvm-options.sh
source "$here/scripts/jvm-options.sh"
read -r -a args <<<"$shape"

# one day with jar $1: prints "wall_ms cpu_ms events"
day() {
  local out
  out=$(java "-Xmx$heap" "${opts[@]}" -cp "$1" io.fleetkit.benchmarks.ClusterSimulationBenchmark "${args[@]}" all 1 2>&1 \
    | tail -1)
  local wall cpu events
  wall=$(grep -o 'simulated: [0-9]* ms wall' <<<"$out" | grep -o '[0-9]*' || true)
  cpu=$(grep -o '[0-9]* ms CPU' <<<"$out" | grep -o '[0-9]*' || true)
  events=$(grep -o '[0-9]* events' <<<"$out" | head -1 | grep -o '[0-9]*' || true)
  if [[ -z "$wall" || -z "$cpu" ]]; then
    echo "$0: the benchmark printed no figures: $out" >&2
    exit 1
  fi
  echo "$wall $cpu $events"
}
median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }

a=() b=() ratios=() cpu_ratios=()
for ((i = 1; i <= runs; i++)); do
  if [[ $# -eq 1 ]]; then
    r=$(day "$1"); a+=("$r")
    echo "run $i: ${r% *} (wall ms, CPU ms)"
    continue
  fi
  if ((i % 2)); then ra=$(day "$1"); rb=$(day "$2"); else rb=$(day "$2"); ra=$(day "$1"); fi
  a+=("$ra"); b+=("$rb")
  ratio=$(awk -v x="${ra%% *}" -v y="${rb%% *}" 'BEGIN {printf "%.3f", y / x}')
  ratios+=("$ratio")
  # the simulation thread's CPU: steadier than wall time when other work shares the machine
  read -r _ cpu_a _ <<<"$ra"
  read -r _ cpu_b _ <<<"$rb"
  cpu_ratio=$(awk -v x="$cpu_a" -v y="$cpu_b" 'BEGIN {printf "%.3f", y / x}')
  cpu_ratios+=("$cpu_ratio")
  echo "pair $i: A ${ra% *}, B ${rb% *} (wall ms, CPU ms; events ${ra##* } / ${rb##* }), B/A $ratio (CPU $cpu_ratio)"
done
echo "A: wall median $(printf '%s\n' "${a[@]}" | cut -d' ' -f1 | median) ms, CPU median $(printf '%s\n' "${a[@]}" | cut -d' ' -f2 | median) ms"
if [[ $# -eq 2 ]]; then
  echo "B: wall median $(printf '%s\n' "${b[@]}" | cut -d' ' -f1 | median) ms, CPU median $(printf '%s\n' "${b[@]}" | cut -d' ' -f2 | median) ms"
  echo "B/A per pair: ${ratios[*]}; median $(printf '%s\n' "${ratios[@]}" | median)"
  echo "B/A of CPU per pair: ${cpu_ratios[*]}; median $(printf '%s\n' "${cpu_ratios[@]}" | median)"
fi
