package io.fleetkit.optimizer;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The optimiser's plan for a {@link BatchProblem}. Every pending pod is in exactly one of {@code placements} and
 * {@code unplaced}; the placements respect node capacity (GPUs device by device), taints, required node affinity, GPU
 * models and gang atomicity.
 *
 * @param placements pod {@code namespace/name} to node name, sorted by pod
 * @param unplaced pod {@code namespace/name} to why it was left out, sorted by pod
 * @param placedGpuMilli GPU demand of the placed pods, in thousandths of a device
 * @param pendingGpuMilli GPU demand of all pending pods
 * @param constructionGpuMilli what the greedy construction alone placed, before local search
 * @param score the solver's final score ({@code hard/medium/soft})
 * @param timeSpent wall time of the whole call
 */
public record BatchPlan(Map<String, String> placements, Map<String, String> unplaced, long placedGpuMilli,
    long pendingGpuMilli, long constructionGpuMilli, String score, Duration timeSpent) {
  public BatchPlan {
    placements = Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(placements, "placements")));
    unplaced = Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(unplaced, "unplaced")));
    Objects.requireNonNull(score, "score");
    Objects.requireNonNull(timeSpent, "timeSpent");
  }

  /** Placed share of the pending GPU demand, 0..1 (1 when nothing asked for GPUs). */
  public double placedGpuShare() {
    return pendingGpuMilli == 0 ? 1 : (double) placedGpuMilli / pendingGpuMilli;
  }
}
