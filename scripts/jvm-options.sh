# Sourced by ./fleetkit and scripts/day-pairs.sh: sets the array `opts` to the JVM options the simulator runs with.
#
# The simulator allocates many short-lived objects and writes many references: the throughput collector runs a simulated
# day faster than the JVM's default G1. Its young generation is capped at 256 MB: left to grow to a third of the
# default heap, it keeps touching fresh memory, which costs more than the extra collections of a smaller one. An object
# that survives one young collection is promoted at the next (most such objects live for the whole run), rather than
# copied between the survivor spaces. Where the kernel gives transparent huge pages on request, the heap asks for them,
# so touching it takes fewer page faults. C2 compiles a method's long-running loop on its own (on-stack replacement)
# only after ten times the JVM's default number of iterations: the simulator's largest loops are otherwise compiled
# that way several times over, on the one compiler thread a 2-core machine gets, before the methods are compiled
# whole (docs/simulation.md#the-whole-cluster-simulator-at-scale). C2 inlines a frequently called method only up to
# 100 bytes of bytecode instead of 325: its compilations are smaller and done sooner, which a run in a fresh JVM
# feels most (the 1,000-node day about a fifth faster, the 5,000-node day about an eighth). FLEETKIT_JAVA_OPTS, when
# set (even to nothing), replaces these defaults.
if [[ -z "${FLEETKIT_JAVA_OPTS+set}" ]]; then
  opts=(-XX:+UseParallelGC -XX:MaxNewSize=256m -XX:MaxTenuringThreshold=1 -XX:Tier4BackEdgeThreshold=400000
    -XX:FreqInlineSize=100)
  if grep -qs '\[madvise\]' /sys/kernel/mm/transparent_hugepage/enabled; then
    opts+=(-XX:+UseTransparentHugePages)
  fi
else
  # shellcheck disable=SC2206 # word splitting of the user's options is intended
  opts=(${FLEETKIT_JAVA_OPTS})
fi
