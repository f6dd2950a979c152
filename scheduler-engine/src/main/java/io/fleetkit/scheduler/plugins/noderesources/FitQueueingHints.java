package io.fleetkit.scheduler.plugins.noderesources;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The per-pod queueing hints of {@link NodeResourcesFitPlugin}: upstream's {@code isSchedulableAfterPodEvent} (with
 * {@code isSchedulableAfterPodScaleDown}) and {@code isSchedulableAfterNodeChange} (with {@code isFit} and
 * {@code haveAnyRequestedResourcesIncreased}), {@code pkg/scheduler/framework/plugins/noderesources/fit.go}. The
 * pending pod's requests are read as Filter reads them: its effective requests, without the extended resources the
 * plugin's arguments ignore (upstream's hint checks those too, and would leave a pod parked for a resource Filter
 * does not look at). In-place resizes count (upstream's InPlacePodVerticalScaling, on); FleetKit has no DRA extended
 * resources and no pod-level resources. Stateless apart from the arguments; thread-safe.
 */
final class FitQueueingHints {
  private final NodeResourcesFitArgs args;

  FitQueueingHints(NodeResourcesFitArgs args) {
    this.args = Objects.requireNonNull(args, "args");
  }

  /**
   * A pod was deleted ({@code after} null) or updated. A deleted pod helps when it was bound or nominated to a node;
   * an updated one when it is the pending pod itself, or a bound pod whose request of a resource the pending pod
   * requests went down (scale-down).
   */
  boolean afterPodEvent(Pod pod, @Nullable Pod before, @Nullable Pod after) {
    if (after == null) {
      return before == null || before.isBound() || !before.status().nominatedNodeName().isEmpty();
    }
    if (before == null || after.metadata().key().equals(pod.metadata().key())) {
      return true;
    }
    return after.isBound() && scaledDown(pod.effectiveRequests(), before.effectiveRequests(),
        after.effectiveRequests());
  }

  /** Whether a resource {@code wanted} asks for (non-zero) went down from {@code before} to {@code after}. */
  private static boolean scaledDown(ResourceList wanted, ResourceList before, ResourceList after) {
    for (String name : wanted.names()) {
      if (wanted.milliValue(name) == 0) {
        continue;
      }
      boolean down = switch (name) {
        case "cpu" -> before.milliCpu() > after.milliCpu();
        case "memory" -> before.memoryBytes() > after.memoryBytes();
        case "ephemeral-storage" -> before.ephemeralStorageBytes() > after.ephemeralStorageBytes();
        default -> ResourceVector.isScalar(name) && before.value(name) > after.value(name);
      };
      if (down) {
        return true;
      }
    }
    return false;
  }

  /**
   * A node was added ({@code before} null) or updated. No when the pod would not fit the node even empty; yes for an
   * added node it fits; for an update, yes only when the pod count allowed or an allocatable resource the pod
   * requests went up.
   */
  boolean afterNodeChange(Pod pod, @Nullable Node before, Node after) {
    PodResourceRequest r = request(pod);
    if (!isFit(r, after)) {
      return false;
    }
    return before == null || anyRequestedResourceIncreased(r, before, after);
  }

  /** Upstream's {@code isFit}: the pod fits {@code node} with nothing on it. */
  boolean isFit(Pod pod, Node node) {
    return isFit(request(pod), node);
  }

  /**
   * Upstream's {@code haveAnyRequestedResourcesIncreased}: the allowed pod count went up, or the allocatable amount
   * of a resource the pod requests did.
   */
  boolean anyRequestedResourceIncreased(Pod pod, Node before, Node after) {
    return anyRequestedResourceIncreased(request(pod), before, after);
  }

  private PodResourceRequest request(Pod pod) {
    return PodResourceRequest.of(pod.effectiveRequests(), args.ignoredResources(), args.ignoredResourceGroups());
  }

  private static boolean isFit(PodResourceRequest r, Node node) {
    ResourceList a = node.allocatable();
    Status s = NodeResourcesFitPlugin.fit(r, 0, a.pods(), a.milliCpu(), 0, a.memoryBytes(), 0,
        a.ephemeralStorageBytes(), 0, r.scalarNames.length == 0 ? null : NodeInfos.of(node, List.of()));
    return s.code() == Status.Code.SUCCESS;
  }

  private static boolean anyRequestedResourceIncreased(PodResourceRequest r, Node before, Node after) {
    ResourceList was = before.allocatable();
    ResourceList is = after.allocatable();
    if (is.pods() > was.pods()) {
      return true;
    }
    if ((r.milliCpu > 0 && is.milliCpu() > was.milliCpu())
        || (r.memory > 0 && is.memoryBytes() > was.memoryBytes())
        || (r.ephemeralStorage > 0 && is.ephemeralStorageBytes() > was.ephemeralStorageBytes())) {
      return true;
    }
    for (String name : r.scalarNames) {
      if (is.value(name) > was.value(name)) {
        return true;
      }
    }
    return false;
  }
}
