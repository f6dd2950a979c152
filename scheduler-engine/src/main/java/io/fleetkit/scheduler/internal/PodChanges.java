package io.fleetkit.scheduler.internal;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;

/**
 * Whether an update of a pending pod can change how it schedules, as kube-scheduler's {@code isPodUpdated}
 * ({@code pkg/scheduler/backend/queue/scheduling_queue.go}): the pods compared without their resourceVersion,
 * generation, finalizers and status. An update that differs only there (the scheduler's own {@code PodScheduled}
 * condition or nomination, a kubelet-style status write) leaves the pod where it is in the queue.
 *
 * <p>One part of the status counts, FleetKit's addition after kube's queueing hint
 * {@code extractPodGeneratedResourceClaimChange}: {@code status.resourceClaimStatuses}, which names the claims the
 * resource-claim controller made from the pod's templates and which DynamicResources' PreEnqueue waits for.
 */
final class PodChanges {
  private PodChanges() {}

  /** Upstream {@code isPodUpdated}: {@code before} and {@code after} differ beyond what it strips. */
  static boolean isPodUpdated(Pod before, Pod after) {
    if (before == after) {
      return false;
    }
    return !before.spec().equals(after.spec())
        || !before.status().resourceClaimStatuses().equals(after.status().resourceClaimStatuses())
        || !strip(before.metadata()).equals(strip(after.metadata()));
  }

  private static ObjectMeta strip(ObjectMeta m) {
    return m.toBuilder().resourceVersion("").generation(0).finalizers(List.of()).build();
  }
}
