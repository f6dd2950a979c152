package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.ScorePlugin;
import java.util.List;

/**
 * A {@link GpuScorer} in the engine: reads the pod's demand from {@link GpuFilterPlugin}'s PreFilter and each node's
 * devices from the shared {@link GpuAssignments}; the node order of {@link GpuScorer.Candidates#order} is a fixed
 * seeded hash of the node name. Thread-safe when the scorer is.
 */
final class GpuScorePlugin implements ScorePlugin {
  private final String name;
  private final GpuScorer scorer;
  private final GpuAssignments assignments;
  private final long seed;

  GpuScorePlugin(String name, GpuScorer scorer, GpuAssignments assignments, long seed) {
    this.name = name;
    this.scorer = scorer;
    this.assignments = assignments;
    this.seed = seed;
  }

  @Override
  public String name() {
    return name;
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
    scorer.normalize(pod(state, pod), new GpuScorer.Candidates() {
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
    }, scores);
  }

  @Override
  public String toString() {
    return name;
  }
}
