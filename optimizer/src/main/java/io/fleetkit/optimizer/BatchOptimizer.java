package io.fleetkit.optimizer;

import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.core.Pod;
import io.fleetkit.optimizer.internal.Planner;
import io.fleetkit.optimizer.internal.SearchLimits;
import java.time.Duration;
import java.util.Objects;

/**
 * Places a batch of pending pods and gangs at once, maximising placed GPU demand (then the number of placed pods),
 * then minimising GPU fragmentation and gangs spread over topology domains.
 *
 * <p>Hard rules: CPU, memory and GPU capacity (whole devices and shares packed device by device, never
 * overcommitted), taints ({@code NoSchedule}/{@code NoExecute}, unschedulable nodes), the required node affinity and
 * node selector, accepted GPU models ({@value GpuRequests#MODELS_ANNOTATION}), gang atomicity (of a PodGroup either no
 * pending member is placed or enough that, with its running members, {@code minMember} run) and a required gang
 * topology ({@code fleetkit.io/topology-required}: one domain of that node label). Soft: stranded free GPU share on
 * devices the plan touches, and a preferred gang topology ({@code fleetkit.io/topology-preferred}).
 *
 * <p>Method: a gang-aware first-fit-decreasing construction (largest GPU demand first, best fit), then OptaPlanner
 * local search until the time limit or step limit; the plan is never worse than the construction. Runs with the same
 * seed and a step limit (instead of only a time limit) are reproducible. Immutable and thread-safe.
 */
public final class BatchOptimizer {
  private final Planner.Settings settings;

  private BatchOptimizer(Builder b) {
    this.settings = b.limits.settings();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Plans {@code problem}. Blocks the calling thread for at most about the time limit. */
  public BatchPlan plan(BatchProblem problem) {
    Objects.requireNonNull(problem, "problem");
    Planner.Result r = Planner.place(problem.nodes(), problem.running(), problem.pending(), problem.podGroups(),
        settings);
    long pendingGpu = 0;
    for (Pod p : problem.pending()) {
      pendingGpu += 1000 * GpuRequests.whole(p.effectiveRequests()) + GpuRequests.milli(p.effectiveRequests());
    }
    return new BatchPlan(r.placements(), r.unplaced(), r.placedGpuMilli(), pendingGpu, r.initialPlacedGpuMilli(),
        r.score(), r.timeSpent());
  }

  /** Settings of a {@link BatchOptimizer}; defaults: 10 s, seed 0, no step limits. */
  public static final class Builder {
    private final SearchLimits limits = new SearchLimits("batch optimizer", Duration.ofSeconds(10));

    private Builder() {}

    /** The local search's wall-time limit; must be positive. */
    public Builder timeLimit(Duration v) {
      limits.timeLimit(v);
      return this;
    }

    public Builder seed(long v) {
      limits.seed(v);
      return this;
    }

    /** Stops the local search after this many steps (reproducible runs); must not be negative. */
    public Builder stepLimit(int v) {
      limits.stepLimit(v);
      return this;
    }

    /** Stops the local search after this many steps without a better score; must be positive. */
    public Builder unimprovedStepLimit(int v) {
      limits.unimprovedStepLimit(v);
      return this;
    }

    public BatchOptimizer build() {
      return new BatchOptimizer(this);
    }
  }
}
