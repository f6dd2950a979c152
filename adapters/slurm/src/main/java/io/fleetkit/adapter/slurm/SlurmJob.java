package io.fleetkit.adapter.slurm;

import io.fleetkit.api.core.PodPhase;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A job as slurmrestd v0.0.38 reports it ({@code GET /job/{id}}, {@code GET /jobs}); the fields FleetKit uses out
 * of Slurm's 111.
 *
 * @param jobId the job id; an array task has its own id
 * @param name the job name
 * @param state the base state
 * @param stateReason why it is in that state ({@code None}, {@code Resources}, {@code NonZeroExitCode},
 *     {@code PartitionNodeLimit}, ...)
 * @param exitStatus the decoded wait status
 * @param partition the partition
 * @param nodes the allocated nodes in host-list notation ({@code n[1-2]}), empty while pending
 * @param nodeCount the number of nodes (requested while pending, allocated after)
 * @param tasks the number of tasks
 * @param arrayJobId the array's master id for an array task, 0 otherwise
 * @param arrayTaskId the array index for an array task, null otherwise
 * @param timeLimitMinutes the time limit, null when unset or unlimited
 * @param submitTime when it was submitted
 * @param startTime when it started, null while pending
 * @param endTime when it ended (the expected end while running), null while pending
 * @param gresDetail GRES per allocated node while running, e.g. {@code ["gpu:1(IDX:0)", "gpu:1(IDX:0)"]}
 * @param tresPerNode the requested TRES per node, e.g. {@code gres:gpu:1}
 */
public record SlurmJob(long jobId, String name, SlurmJobState state, String stateReason, WaitStatus exitStatus,
    String partition, String nodes, int nodeCount, int tasks, long arrayJobId, @Nullable Integer arrayTaskId,
    @Nullable Long timeLimitMinutes, @Nullable Instant submitTime, @Nullable Instant startTime,
    @Nullable Instant endTime, List<String> gresDetail, String tresPerNode) {
  public SlurmJob {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(stateReason, "stateReason");
    Objects.requireNonNull(exitStatus, "exitStatus");
    Objects.requireNonNull(partition, "partition");
    Objects.requireNonNull(nodes, "nodes");
    gresDetail = List.copyOf(gresDetail);
    Objects.requireNonNull(tresPerNode, "tresPerNode");
  }

  /** The FleetKit phase of this job ({@link SlurmJobState#phase()}). */
  public PodPhase phase() {
    return state.phase();
  }

  public boolean isFinished() {
    return state.isFinished();
  }

  public boolean isArrayTask() {
    return arrayJobId != 0;
  }

  /** A one-line summary for logs and conditions: {@code job 8 FAILED (NonZeroExitCode) exit 3:0 on n4}. */
  public String summary() {
    return "job " + jobId + " " + state + " (" + stateReason + ") exit " + exitStatus
        + (nodes.isEmpty() ? "" : " on " + nodes);
  }
}
