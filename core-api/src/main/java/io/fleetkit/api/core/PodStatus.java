package io.fleetkit.api.core;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The observed part of a pod. Strings are empty when unset.
 *
 * @param nominatedNodeName the node a preempting pod waits for while victims terminate
 * @param podIPs the pod's addresses ({@code status.podIPs}), at most one per IP family; empty until assigned
 * @param initContainerStatuses the init containers' statuses ({@code status.initContainerStatuses}); empty when not
 *     observed
 * @param resourceClaimStatuses the claims made from templates for the pod's {@code spec.resourceClaims}
 *     ({@code status.resourceClaimStatuses}), written by the resource-claim controller; empty when none ({@code null}
 *     becomes empty)
 * @param hostIP the primary IP of the node the pod runs on ({@code status.hostIP}), empty until the kubelet sets it
 * @param hostIPs the node's IPs ({@code status.hostIPs}): {@code hostIP} first, then at most one of the other IP
 *     family, as the kubelet writes them from its node's addresses ({@link NodeAddress#hostIPs}); empty until set
 *     ({@code null}, an encoding written before the component existed, becomes empty)
 */
public record PodStatus(PodPhase phase, List<PodCondition> conditions, String nominatedNodeName, String hostIP,
    @Nullable Instant startTime, List<ContainerStatus> containerStatuses, String reason, String message,
    List<String> podIPs, List<ContainerStatus> initContainerStatuses,
    List<PodResourceClaimStatus> resourceClaimStatuses, List<String> hostIPs) {

  /** A new pod's status: Pending, nothing observed. */
  public static final PodStatus PENDING = new PodStatus(PodPhase.Pending, List.of(), "", "", null, List.of(), "", "");

  public PodStatus {
    Objects.requireNonNull(phase, "phase");
    conditions = List.copyOf(conditions);
    Objects.requireNonNull(nominatedNodeName, "nominatedNodeName");
    Objects.requireNonNull(hostIP, "hostIP");
    containerStatuses = List.copyOf(containerStatuses);
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
    podIPs = List.copyOf(podIPs);
    initContainerStatuses = List.copyOf(initContainerStatuses);
    // an encoding written without the component (the store's JSON) decodes as none
    resourceClaimStatuses = resourceClaimStatuses == null || resourceClaimStatuses.isEmpty() ? List.of()
        : List.copyOf(resourceClaimStatuses);
    hostIPs = hostIPs == null || hostIPs.isEmpty() ? List.of() : List.copyOf(hostIPs);
  }

  /** A status without host IPs ({@code status.hostIPs}). */
  public PodStatus(PodPhase phase, List<PodCondition> conditions, String nominatedNodeName, String hostIP,
      @Nullable Instant startTime, List<ContainerStatus> containerStatuses, String reason, String message,
      List<String> podIPs, List<ContainerStatus> initContainerStatuses,
      List<PodResourceClaimStatus> resourceClaimStatuses) {
    this(phase, conditions, nominatedNodeName, hostIP, startTime, containerStatuses, reason, message, podIPs,
        initContainerStatuses, resourceClaimStatuses, List.of());
  }

  /** A status without resource claim statuses. */
  public PodStatus(PodPhase phase, List<PodCondition> conditions, String nominatedNodeName, String hostIP,
      @Nullable Instant startTime, List<ContainerStatus> containerStatuses, String reason, String message,
      List<String> podIPs, List<ContainerStatus> initContainerStatuses) {
    this(phase, conditions, nominatedNodeName, hostIP, startTime, containerStatuses, reason, message, podIPs,
        initContainerStatuses, List.of());
  }

  /** A status without init container statuses. */
  public PodStatus(PodPhase phase, List<PodCondition> conditions, String nominatedNodeName, String hostIP,
      @Nullable Instant startTime, List<ContainerStatus> containerStatuses, String reason, String message,
      List<String> podIPs) {
    this(phase, conditions, nominatedNodeName, hostIP, startTime, containerStatuses, reason, message, podIPs,
        List.of());
  }

  /** A status without pod IPs. */
  public PodStatus(PodPhase phase, List<PodCondition> conditions, String nominatedNodeName, String hostIP,
      @Nullable Instant startTime, List<ContainerStatus> containerStatuses, String reason, String message) {
    this(phase, conditions, nominatedNodeName, hostIP, startTime, containerStatuses, reason, message, List.of());
  }

  /** The first pod IP ({@code status.podIP}), empty when none is assigned. */
  public String podIP() {
    return podIPs.isEmpty() ? "" : podIPs.get(0);
  }

  public PodStatus withPodIPs(List<String> ips) {
    return new PodStatus(phase, conditions, nominatedNodeName, hostIP, startTime, containerStatuses, reason, message,
        ips, initContainerStatuses, resourceClaimStatuses, hostIPs);
  }

  /**
   * This status with {@code ips} as {@code status.hostIPs} and the first of them as {@code status.hostIP} (empty when
   * none), as the kubelet writes both.
   */
  public PodStatus withHostIPs(List<String> ips) {
    return new PodStatus(phase, conditions, nominatedNodeName, ips.isEmpty() ? "" : ips.get(0), startTime,
        containerStatuses, reason, message, podIPs, initContainerStatuses, resourceClaimStatuses, ips);
  }

  public static PodStatus of(PodPhase phase) {
    return phase == PodPhase.Pending ? PENDING : PENDING.withPhase(phase);
  }

  /** The condition of that type, or {@code null}. */
  public @Nullable PodCondition condition(String type) {
    for (int i = 0; i < conditions.size(); i++) { // by index: no iterator per lookup (read per pod event)
      PodCondition c = conditions.get(i);
      if (c.type().equals(type)) {
        return c;
      }
    }
    return null;
  }

  public PodStatus withPhase(PodPhase newPhase) {
    return new PodStatus(newPhase, conditions, nominatedNodeName, hostIP, startTime, containerStatuses, reason,
        message, podIPs, initContainerStatuses, resourceClaimStatuses, hostIPs);
  }

  public PodStatus withNominatedNodeName(String node) {
    return new PodStatus(phase, conditions, node, hostIP, startTime, containerStatuses, reason, message, podIPs,
        initContainerStatuses, resourceClaimStatuses, hostIPs);
  }

  public PodStatus withStartTime(@Nullable Instant time) {
    return new PodStatus(phase, conditions, nominatedNodeName, hostIP, time, containerStatuses, reason, message,
        podIPs, initContainerStatuses, resourceClaimStatuses, hostIPs);
  }

  public PodStatus withReason(String newReason, String newMessage) {
    return new PodStatus(phase, conditions, nominatedNodeName, hostIP, startTime, containerStatuses, newReason,
        newMessage, podIPs, initContainerStatuses, resourceClaimStatuses, hostIPs);
  }

  public PodStatus withContainerStatuses(List<ContainerStatus> statuses) {
    return new PodStatus(phase, conditions, nominatedNodeName, hostIP, startTime, statuses, reason, message, podIPs,
        initContainerStatuses, resourceClaimStatuses, hostIPs);
  }

  public PodStatus withInitContainerStatuses(List<ContainerStatus> statuses) {
    return new PodStatus(phase, conditions, nominatedNodeName, hostIP, startTime, containerStatuses, reason, message,
        podIPs, statuses, resourceClaimStatuses, hostIPs);
  }

  /** This status with {@code condition} replacing any condition of the same type (appended otherwise). */
  /** This status with {@code statuses} as {@code status.resourceClaimStatuses}. */
  public PodStatus withResourceClaimStatuses(List<PodResourceClaimStatus> statuses) {
    return new PodStatus(phase, conditions, nominatedNodeName, hostIP, startTime, containerStatuses, reason, message,
        podIPs, initContainerStatuses, statuses, hostIPs);
  }

  /**
   * The claim generated for the {@code spec.resourceClaims} entry {@code name}: {@code null} when the status does
   * not name it (not created yet), empty when none was needed.
   */
  public @Nullable String resourceClaimName(String name) {
    for (int i = 0; i < resourceClaimStatuses.size(); i++) {
      PodResourceClaimStatus s = resourceClaimStatuses.get(i);
      if (s.name().equals(name)) {
        return s.resourceClaimName();
      }
    }
    return null;
  }

  /**
   * This status with {@code condition} as kube's {@code podutil.UpdatePodCondition} writes it: {@code this} itself when
   * a condition of its type already has the same status, reason, message and probe time (nothing to write); else the
   * condition in place of the old one, keeping the old transition time when the status did not change.
   */
  public PodStatus withConditionUpdated(PodCondition condition) {
    PodCondition old = condition(condition.type());
    if (old == null) {
      return withCondition(condition);
    }
    if (old.status() == condition.status() && old.reason().equals(condition.reason())
        && old.message().equals(condition.message())
        && Objects.equals(old.lastProbeTime(), condition.lastProbeTime())) {
      return this;
    }
    Instant at = old.status() == condition.status() ? old.lastTransitionTime() : condition.lastTransitionTime();
    return withCondition(new PodCondition(condition.type(), condition.status(), condition.reason(),
        condition.message(), condition.lastProbeTime(), at));
  }

  /** This status with {@code condition} in place of the one of its type (added when it has none). */
  public PodStatus withCondition(PodCondition condition) {
    List<PodCondition> next = new java.util.ArrayList<>(conditions.size() + 1);
    boolean replaced = false;
    for (PodCondition c : conditions) {
      if (c.type().equals(condition.type())) {
        next.add(condition);
        replaced = true;
      } else {
        next.add(c);
      }
    }
    if (!replaced) {
      next.add(condition);
    }
    return new PodStatus(phase, next, nominatedNodeName, hostIP, startTime, containerStatuses, reason, message,
        podIPs, initContainerStatuses, resourceClaimStatuses, hostIPs);
  }
}
