package io.fleetkit.simulator;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The workloads' state at a point of a run, sorted by name.
 *
 * @param at simulated time since the start
 * @param pending the pods not on a node (not finished, not being deleted), with the scheduler's reason
 */
public record SimulationSummary(Duration at, List<WorkloadSummary> deployments, List<WorkloadSummary> statefulSets,
    List<JobSummary> jobs, List<RolloutSummary> rollouts, List<PendingPodSummary> pending) {
  public SimulationSummary {
    Objects.requireNonNull(at, "at");
    deployments = List.copyOf(deployments);
    statefulSets = List.copyOf(statefulSets);
    jobs = List.copyOf(jobs);
    rollouts = List.copyOf(rollouts);
    pending = List.copyOf(pending);
  }

  /** A summary without pending pods. */
  public SimulationSummary(Duration at, List<WorkloadSummary> deployments, List<WorkloadSummary> statefulSets,
      List<JobSummary> jobs, List<RolloutSummary> rollouts) {
    this(at, deployments, statefulSets, jobs, rollouts, List.of());
  }

  /** A summary without Rollouts. */
  public SimulationSummary(Duration at, List<WorkloadSummary> deployments, List<WorkloadSummary> statefulSets,
      List<JobSummary> jobs) {
    this(at, deployments, statefulSets, jobs, List.of());
  }
}
