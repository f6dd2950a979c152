package io.fleetkit.optimizer;

import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.PodGroup;
import io.fleetkit.optimizer.internal.Planner;
import io.fleetkit.optimizer.internal.SearchLimits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Plans which running pods to move, at most a budget of them, so that whole nodes and whole GPUs become free. The
 * objective, in order: every pod keeps a feasible node (the same hard rules as {@link BatchOptimizer}); then fewer
 * nodes in use; then fewer GPU devices touched and less free share stranded on them. Moves that gain nothing are
 * undone. Pods of a PodGroup (label {@value Pod#POD_GROUP_LABEL}) stay put: moving one member restarts its job. The
 * move's device assignment is left to the scheduler (the plan only checks a device-level packing exists).
 * Immutable and thread-safe.
 */
public final class DefragmentationPlanner {
  private final int moveBudget;
  private final Planner.Settings settings;

  private DefragmentationPlanner(Builder b) {
    this.moveBudget = b.moveBudget;
    this.settings = b.limits.settings();
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * @param nodes the cluster, unique names
   * @param running pods with {@code spec.nodeName} naming one of {@code nodes}, unique keys
   * @throws IllegalArgumentException naming the pod or node when an input rule does not hold
   */
  public DefragmentationPlan plan(List<Node> nodes, List<Pod> running) {
    // Validate as a batch problem; the groups the pods name are implied (gang pods are pinned, nothing else needed).
    Map<String, PodGroup> implied = new TreeMap<>();
    for (Pod p : running) {
      String g = p.podGroupName();
      if (g != null && !g.isEmpty()) {
        implied.putIfAbsent(p.metadata().namespace() + "/" + g, PodGroup.of(p.metadata().namespace(), g, 1));
      }
    }
    BatchProblem checked = new BatchProblem(nodes, running, List.of(), List.copyOf(implied.values()));
    List<Pod> fixed = new ArrayList<>();
    List<Pod> movable = new ArrayList<>();
    List<String> origins = new ArrayList<>();
    for (Pod p : checked.running()) {
      if (p.podGroupName() != null && !p.podGroupName().isEmpty()) {
        fixed.add(p);
      } else {
        movable.add(p);
        origins.add(p.spec().nodeName());
      }
    }
    Planner.Result r = Planner.defragment(checked.nodes(), fixed, movable, origins, moveBudget,
        settings);
    Map<String, String> where = new HashMap<>();
    running.forEach(p -> where.put(p.metadata().key(), p.spec().nodeName()));
    List<PodMove> moves = new ArrayList<>();
    r.placements().forEach((pod, to) -> moves.add(new PodMove(pod, where.get(pod), to)));
    Map<String, String> after = new HashMap<>(where);
    after.putAll(r.placements());
    Set<String> emptied = new TreeSet<>(where.values());
    emptied.removeAll(new HashSet<>(after.values()));
    return new DefragmentationPlan(moves, List.copyOf(emptied), freeDevices(nodes, running, where),
        freeDevices(nodes, running, after), r.score(), r.timeSpent());
  }

  /** Devices nobody uses: a node's devices minus its pods' whole devices minus devices its shares need at least. */
  private static int freeDevices(List<Node> nodes, List<Pod> running, Map<String, String> where) {
    Map<String, long[]> use = new HashMap<>();
    for (Pod p : running) {
      ResourceList r = p.effectiveRequests();
      long[] u = use.computeIfAbsent(where.get(p.metadata().key()), k -> new long[2]);
      u[0] += GpuRequests.whole(r);
      u[1] += GpuRequests.milli(r);
    }
    int free = 0;
    for (Node n : nodes) {
      int devices = n.status().gpus().isEmpty() ? (int) GpuRequests.whole(n.allocatable()) : n.status().gpus().size();
      long[] u = use.getOrDefault(n.name(), new long[2]);
      free += (int) Math.max(0, devices - u[0] - (u[1] + 999) / 1000);
    }
    return free;
  }

  /** Settings of a {@link DefragmentationPlanner}; defaults: budget 10 moves, 5 s, seed 0. */
  public static final class Builder {
    private int moveBudget = 10;
    private final SearchLimits limits = new SearchLimits("defragmentation planner", Duration.ofSeconds(5));

    private Builder() {}

    /** The most pods the plan may move; must not be negative. */
    public Builder moveBudget(int v) {
      if (v < 0) {
        throw new IllegalArgumentException("defragmentation planner: moveBudget must not be negative, got " + v);
      }
      moveBudget = v;
      return this;
    }

    /** The search's wall-time limit; must be positive. */
    public Builder timeLimit(Duration v) {
      limits.timeLimit(v);
      return this;
    }

    public Builder seed(long v) {
      limits.seed(v);
      return this;
    }

    /** Stops the search after this many steps (reproducible runs); must not be negative. */
    public Builder stepLimit(int v) {
      limits.stepLimit(v);
      return this;
    }

    public DefragmentationPlanner build() {
      return new DefragmentationPlanner(this);
    }
  }
}
