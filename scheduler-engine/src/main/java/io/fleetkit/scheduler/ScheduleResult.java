package io.fleetkit.scheduler;

import io.fleetkit.api.framework.Status;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What one scheduling attempt did for one pod.
 *
 * @param podKey {@code namespace/name}
 * @param nodeName the node the pod was bound to (or, for {@link Status.Code#WAIT}, reserved on); {@code null} when
 *     it did not fit
 * @param code {@link Status.Code#SUCCESS} when bound, {@link Status.Code#WAIT} while a Permit plugin holds it (or,
 *     returned by {@link Scheduler#scheduleOne()} only, while its binding runs on a binding thread: see
 *     {@link SchedulerBuilder#bindParallelism}),
 *     {@link Status.Code#UNSCHEDULABLE}/{@link Status.Code#UNSCHEDULABLE_AND_UNRESOLVABLE} when no node fits,
 *     {@link Status.Code#ERROR} when a plugin or the binder failed, and {@link Status.Code#SKIP} when the pod was not
 *     attempted because it is being deleted (it has a {@code deletionTimestamp}; kube's {@code skipPodSchedule}): it
 *     left the queue and nothing was written
 * @param message empty on success; otherwise kube's wording, e.g.
 *     {@code 0/3 nodes are available: 3 Insufficient cpu.} or {@code skip schedule deleting pod: default/web-0}
 * @param nominatedNodeName for a pod that was not bound, its nominated node after this attempt (kube's
 *     {@code status.nominatedNodeName}): the node this attempt's preemption chose, or the one an earlier attempt chose
 *     and this one kept; {@code null} when it has none (never nominated, or the nomination was cleared because no
 *     node can be made to fit, or a higher-priority pod took the node). Always {@code null} when bound or waiting
 * @param victims the pods ({@code namespace/name}) this attempt's preemption evicted for it
 */
public record ScheduleResult(String podKey, @Nullable String nodeName, Status.Code code, String message,
    @Nullable String nominatedNodeName, List<String> victims) {
  public ScheduleResult {
    Objects.requireNonNull(podKey, "podKey");
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
    victims = List.copyOf(victims);
  }

  /** A pod bound to {@code nodeName}. */
  public static ScheduleResult bound(String podKey, String nodeName) {
    return new ScheduleResult(podKey, nodeName, Status.Code.SUCCESS, "", null, List.of());
  }

  /** Whether the pod was bound. */
  public boolean isBound() {
    return code == Status.Code.SUCCESS;
  }
}
