package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreFilterPlugin;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.ScorePlugin;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.Status;
import java.util.List;

/**
 * A {@link GpuScorer} in the engine: reads the pod's demand from {@link GpuFilterPlugin}'s PreFilter and each node's
 * devices from the shared {@link GpuAssignments}; the node order of {@link GpuScorer.Candidates#order} is a fixed
 * seeded hash of the node name. PreFilter hands the scorer every node of the snapshot ({@link GpuScorer#preFilter})
 * and Skips unless the scorer holds capacity for other pods; then Filter rejects the nodes the scorer does not admit
 * ({@link #REASON_HELD}, Unschedulable: the pod waits like one blocked by a reservation). Thread-safe when the
 * scorer is.
 */
final class GpuScorePlugin implements PreFilterPlugin, FilterPlugin, ScorePlugin {
  /** Filter's reason for a node the policy keeps the pod off. */
  static final String REASON_HELD = "node(s) had GPUs held for other pods by the placement policy";
  private final String name;
  private final GpuScorer scorer;
  private final GpuAssignments assignments;
  private final long seed;
  private final Status held;

  GpuScorePlugin(String name, GpuScorer scorer, GpuAssignments assignments, long seed) {
    this.name = name;
    this.scorer = scorer;
    this.assignments = assignments;
    this.seed = seed;
    this.held = new Status(Status.Code.UNSCHEDULABLE, List.of(REASON_HELD), name);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, Snapshot snapshot) {
    GpuPod p = new GpuPod(pod.key(), NodeGpu.cpu(pod), GpuDemand.of(pod.pod()));
    return scorer.preFilter(p, candidates(snapshot.nodes(), pod)) ? PreFilterResult.success()
        : PreFilterResult.skip();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    return scorer.admits(pod(state, pod), NodeGpu.of(assignments, node, pod.key())) ? Status.success() : held;
  }

  private static GpuPod pod(CycleState state, PodInfo pod) {
    return new GpuPod(pod.key(), NodeGpu.cpu(pod), GpuPolicies.demand(state));
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    return scorer.score(pod(state, pod), NodeGpu.of(assignments, node, pod.key()));
  }

  @Override
  public void normalizeScores(CycleState state, PodInfo pod, List<NodeInfo> nodes, long[] scores) {
    scorer.normalize(pod(state, pod), candidates(nodes, pod), scores);
  }

  /** {@code nodes} as the scorer sees them, each computed on demand. */
  private GpuScorer.Candidates candidates(List<NodeInfo> nodes, PodInfo pod) {
    return new GpuScorer.Candidates() {
      @Override
      public int size() {
        return nodes.size();
      }

      @Override
      public NodeGpu node(int k) {
        return NodeGpu.of(assignments, nodes.get(k), pod.key());
      }

      @Override
      public long order(int k) {
        return GpuPolicies.nodeOrder(seed, nodes.get(k));
      }
    };
  }

  @Override
  public String toString() {
    return name;
  }
}
