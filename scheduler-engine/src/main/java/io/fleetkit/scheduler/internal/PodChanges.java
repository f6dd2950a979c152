package io.fleetkit.scheduler.internal;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;

/**
 * What an update of a waiting pod is, for that pod's rejecting plugins: kube-scheduler's
 * {@code PodSchedulingPropertiesChange} ({@code pkg/scheduler/framework/events.go}) for the pod being scheduled, its
 * extractors in upstream's order: {@code extractPodLabelsChange} (any label),
 * {@code extractPodScaleDown} (a request of the old pod lowered or gone, compared in milli-units),
 * {@code extractPodSchedulingGateEliminatedChange} (gates before, none after), {@code extractPodTolerationChange}
 * (the number of tolerations changed: once a pod exists they can only be added) and
 * {@code extractPodGeneratedResourceClaimChange} ({@code status.resourceClaimStatuses} differ, order included).
 * An update that is none of these is {@link ClusterEvent#TARGET_POD_UPDATE}: an annotation, a raised request, a status
 * write such as the scheduler's own {@code PodScheduled} condition. An unchanged object is no update (upstream's
 * event handler drops an update carrying the same resourceVersion).
 */
final class PodChanges {
  private PodChanges() {}

  /** The {@code TARGET_POD_*} events of the update from {@code before} to {@code after}; empty when they are equal. */
  static List<ClusterEvent> targetPodEvents(Pod before, Pod after) {
    if (before == after || before.equals(after)) {
      return List.of();
    }
    List<ClusterEvent> events = new ArrayList<>(2);
    if (!before.metadata().labels().equals(after.metadata().labels())) {
      events.add(ClusterEvent.TARGET_POD_UPDATE_LABEL);
    }
    if (scaledDown(before.effectiveRequests(), after.effectiveRequests())) {
      events.add(ClusterEvent.TARGET_POD_UPDATE_SCALE_DOWN);
    }
    if (!before.spec().schedulingGates().isEmpty() && after.spec().schedulingGates().isEmpty()) {
      events.add(ClusterEvent.TARGET_POD_UPDATE_SCHEDULING_GATES_ELIMINATED);
    }
    if (before.spec().tolerations().size() != after.spec().tolerations().size()) {
      events.add(ClusterEvent.TARGET_POD_UPDATE_TOLERATION);
    }
    if (!before.status().resourceClaimStatuses().equals(after.status().resourceClaimStatuses())) {
      events.add(ClusterEvent.TARGET_POD_UPDATE_GENERATED_RESOURCE_CLAIM);
    }
    if (events.isEmpty()) {
      return List.of(ClusterEvent.TARGET_POD_UPDATE);
    }
    return events;
  }

  /** Upstream's {@code extractPodScaleDown}: a resource {@code before} requests is gone or lower in {@code after}. */
  static boolean scaledDown(ResourceList before, ResourceList after) {
    if (before.equals(after)) {
      return false;
    }
    for (String name : before.names()) {
      if (!after.has(name) || before.milliValue(name) > after.milliValue(name)) {
        return true;
      }
    }
    return false;
  }
}
