package io.fleetkit.cluster;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@link Cluster#schedule()} did with the manifests' pending pods: where each placed pod went (sorted by pod),
 * the pods that could not be placed with kube's diagnosis (sorted by pod), and the objects the store's admission
 * chain refused (in the order they were applied; empty unless the manifests use Namespaces, ResourceQuotas or
 * LimitRanges).
 */
public record ScheduleOutcome(List<Placement> placements, List<Unschedulable> unschedulable,
    List<Rejected> rejected) {

  public ScheduleOutcome {
    placements = List.copyOf(placements);
    unschedulable = List.copyOf(unschedulable);
    rejected = List.copyOf(rejected);
  }

  /**
   * A pod ({@code namespace/name}) that was placed on {@code node}, the pods preemption evicted to make room for it,
   * and the volume each of its claims is bound to (claim name to volume name; empty for a pod without claims).
   */
  public record Placement(String pod, String node, List<String> preempted, Map<String, String> volumes) {
    public Placement {
      Objects.requireNonNull(pod, "pod");
      Objects.requireNonNull(node, "node");
      preempted = List.copyOf(preempted);
      volumes = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(volumes));
    }
  }

  /** A pod ({@code namespace/name}) that could not be placed, and kube's diagnosis. */
  public record Unschedulable(String pod, String message) {
    public Unschedulable {
      Objects.requireNonNull(pod, "pod");
      Objects.requireNonNull(message, "message");
    }
  }

  /** An object the admission chain refused, as {@code Kind/namespace/name}, and the denial. */
  public record Rejected(String object, String message) {
    public Rejected {
      Objects.requireNonNull(object, "object");
      Objects.requireNonNull(message, "message");
    }
  }
}
