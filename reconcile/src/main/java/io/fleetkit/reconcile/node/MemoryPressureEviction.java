package io.fleetkit.reconcile.node;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceNames;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The kubelet's eviction manager for its default memory signal ({@code pkg/kubelet/eviction}), one per
 * {@link NodeAgent} built with a {@link MemoryUsage}: every {@linkplain NodeAgent#HOUSEKEEPING_PERIOD housekeeping
 * interval} it observes {@code memory.available} (the node's memory capacity less its pods' working set, at least 0)
 * against the hard threshold {@code memory.available<100Mi} ({@link #DEFAULT_HARD_THRESHOLD_BYTES}), keeps the node's
 * {@code MemoryPressure} condition True from the threshold's last observation for the pressure transition period (5
 * minutes, {@code --eviction-pressure-transition-period}), and while the threshold is met picks one pod to evict:
 * the first non-critical one in {@link #RANK}'s order ({@code rankMemoryPressure}). The ranking and the eviction
 * message are upstream's ({@code helpers.go}); see docs/simulation.md. Not thread-safe: owned by one agent.
 */
final class MemoryPressureEviction {
  /** The default hard eviction threshold of {@code memory.available} ({@code --eviction-hard=memory.available<100Mi}). */
  static final long DEFAULT_HARD_THRESHOLD_BYTES = 100L << 20;
  /** {@code --eviction-pressure-transition-period}'s default. */
  static final Duration DEFAULT_PRESSURE_TRANSITION_PERIOD = Duration.ofMinutes(5);
  /** The status reason of an evicted pod ({@code eviction.Reason}). */
  static final String REASON_EVICTED = "Evicted";
  /** The reason of the {@code DisruptionTarget} condition of a pod the kubelet evicts. */
  static final String REASON_TERMINATION_BY_KUBELET = "TerminationByKubelet";
  /** The {@code MemoryPressure=False} reason and message of the kubelet's node status setter. */
  static final String REASON_SUFFICIENT = "KubeletHasSufficientMemory";
  static final String MESSAGE_SUFFICIENT = "kubelet has sufficient memory available";
  /** The {@code MemoryPressure=True} reason and message. */
  static final String REASON_INSUFFICIENT = "KubeletHasInsufficientMemory";
  static final String MESSAGE_INSUFFICIENT = "kubelet has insufficient memory available";
  /** {@code scheduling.SystemCriticalPriority}: a pod at or above it is critical and never evicted. */
  static final int SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;
  /** The annotation of a mirror pod ({@code kubetypes.ConfigMirrorAnnotationKey}). */
  static final String CONFIG_MIRROR_ANNOTATION = "kubernetes.io/config.mirror";
  /** The annotation naming where a pod came from ({@code kubetypes.ConfigSourceAnnotationKey}); {@code api} or none. */
  static final String CONFIG_SOURCE_ANNOTATION = "kubernetes.io/config.source";

  /**
   * A pod with its memory stats: its working set ({@code null}: no stats were found for it) and its containers'
   * working sets in the stats' order.
   */
  record PodMemory(Pod pod, @Nullable Long workingSet, Map<String, Long> containers) {
    PodMemory {
      Objects.requireNonNull(pod, "pod");
      containers = Collections.unmodifiableMap(new LinkedHashMap<>(containers));
    }

    /** A pod whose stats hold only its own working set. */
    static PodMemory of(Pod pod, @Nullable Long workingSet) {
      return new PodMemory(pod, workingSet, Map.of());
    }
  }

  /**
   * {@code cmpBool}: true before false. The ranking puts first what it would evict first.
   */
  private static int trueFirst(boolean a, boolean b) {
    return a == b ? 0 : a ? -1 : 1;
  }

  /**
   * {@code exceedMemoryRequests}: a pod whose usage exceeds its memory request before one whose does not; a pod
   * without stats before both.
   */
  static final Comparator<PodMemory> EXCEEDS_REQUESTS = (a, b) -> {
    if (a.workingSet() == null || b.workingSet() == null) {
      return trueFirst(a.workingSet() == null, b.workingSet() == null);
    }
    return trueFirst(a.workingSet() > request(a.pod()), b.workingSet() > request(b.pod()));
  };

  /** {@code priority}: the lower {@code spec.priority} first (a pod without one counts 0). */
  static final Comparator<PodMemory> PRIORITY = Comparator.comparingInt(m -> priority(m.pod()));

  /**
   * {@code memory}: the larger usage above the memory request first (a usage below it counts negative); a pod without
   * stats before any with.
   */
  static final Comparator<PodMemory> MEMORY = (a, b) -> {
    if (a.workingSet() == null || b.workingSet() == null) {
      return trueFirst(a.workingSet() == null, b.workingSet() == null);
    }
    return Long.compare(b.workingSet() - request(b.pod()), a.workingSet() - request(a.pod()));
  };

  /**
   * {@code rankMemoryPressure}: whether the usage exceeds the requests, then priority (lower first), then the usage
   * above the requests (more first).
   */
  static final Comparator<PodMemory> RANK = EXCEEDS_REQUESTS.thenComparing(PRIORITY).thenComparing(MEMORY);

  private final long thresholdBytes;
  private final Duration transitionPeriod;
  /** When the threshold was last met ({@code nodeConditionsLastObservedAt}); {@code null} before. */
  private @Nullable Instant lastObservedAt;
  /** {@code memory.available} at the last observation. */
  private long available;

  MemoryPressureEviction(long thresholdBytes, Duration transitionPeriod) {
    if (thresholdBytes < 0) {
      throw new IllegalArgumentException("eviction manager: memory.available threshold " + thresholdBytes
          + " must not be negative");
    }
    Objects.requireNonNull(transitionPeriod, "transitionPeriod");
    if (transitionPeriod.isNegative()) {
      throw new IllegalArgumentException("eviction manager: pressure transition period " + transitionPeriod
          + " must not be negative");
    }
    this.thresholdBytes = thresholdBytes;
    this.transitionPeriod = transitionPeriod;
  }

  /**
   * Observes {@code memory.available} at {@code now} from the node's memory capacity and its pods' working set
   * ({@code capacity - workingSet}, at least 0).
   *
   * @return whether the threshold is met now ({@code thresholdsMet}: available below the threshold)
   */
  boolean observe(Instant now, long capacityBytes, long workingSetBytes) {
    available = Math.max(0, capacityBytes - workingSetBytes);
    boolean met = available < thresholdBytes;
    if (met) {
      lastObservedAt = now;
    }
    return met;
  }

  /**
   * Whether the node reports {@code MemoryPressure} at {@code now}: the threshold was met within the transition period
   * ({@code nodeConditionsObservedSince}).
   */
  boolean underPressure(Instant now) {
    return lastObservedAt != null && Duration.between(lastObservedAt, now).compareTo(transitionPeriod) < 0;
  }

  /** The node condition the kubelet reports at {@code now}, with its reason and message (no times). */
  NodeCondition condition(Instant now) {
    boolean pressure = underPressure(now);
    return new NodeCondition(NodeCondition.MEMORY_PRESSURE, pressure ? ConditionStatus.True : ConditionStatus.False,
        pressure ? REASON_INSUFFICIENT : REASON_SUFFICIENT, pressure ? MESSAGE_INSUFFICIENT : MESSAGE_SUFFICIENT,
        null, null);
  }

  /**
   * The pod to evict among {@code active} while the threshold is met: the first in {@link #RANK}'s order that is not
   * critical ({@code evictPod} refuses a critical pod and the manager tries the next); {@code null} when none.
   */
  @Nullable PodMemory choose(List<PodMemory> active) {
    for (PodMemory m : rank(active)) {
      if (!isCritical(m.pod())) {
        return m;
      }
    }
    return null;
  }

  /** The eviction message for {@code m} at the last observation ({@link #message(long, long, PodMemory)}). */
  String message(PodMemory m) {
    return message(thresholdBytes, available, m);
  }

  /** {@code pods} in {@link #RANK}'s order (a stable sort: ties keep their order). */
  static List<PodMemory> rank(List<PodMemory> pods) {
    List<PodMemory> out = new ArrayList<>(pods);
    out.sort(RANK);
    return out;
  }

  /**
   * {@code evictionMessage} for memory: {@code The node was low on resource: memory. Threshold quantity: 100Mi,
   * available: 50Mi. } followed, for each container in the pod's stats (in their order) whose working set exceeds its
   * memory request, {@code Container web was using 300Mi, request is 100Mi, has larger consumption of memory. }
   * (quantities as Kubernetes prints them).
   */
  static String message(long thresholdBytes, long availableBytes, PodMemory m) {
    StringBuilder out = new StringBuilder("The node was low on resource: memory. ");
    out.append("Threshold quantity: ").append(Quantity.ofBytes(thresholdBytes)).append(", available: ")
        .append(Quantity.ofBytes(availableBytes)).append(". ");
    if (m.workingSet() == null) {
      return out.toString();
    }
    for (Map.Entry<String, Long> e : m.containers().entrySet()) {
      Container c = container(m.pod(), e.getKey());
      if (c == null) {
        continue;
      }
      Quantity request = c.resources().requests().get(ResourceNames.MEMORY);
      if (e.getValue() > c.resources().requests().memoryBytes()) {
        out.append("Container ").append(c.name()).append(" was using ").append(Quantity.ofBytes(e.getValue()))
            .append(", request is ").append(request).append(", has larger consumption of memory. ");
      }
    }
    return out.toString();
  }

  private static @Nullable Container container(Pod pod, String name) {
    for (Container c : pod.spec().containers()) {
      if (c.name().equals(name)) {
        return c;
      }
    }
    for (Container c : pod.spec().initContainers()) {
      if (c.name().equals(name)) {
        return c;
      }
    }
    return null;
  }

  /** The pod's memory request ({@code GetResourceRequestQuantity}: the pod's effective requests). */
  static long request(Pod pod) {
    return pod.effectiveRequests().memoryBytes();
  }

  /** {@code corev1helpers.PodPriority}: {@code spec.priority}, 0 without one. */
  static int priority(Pod pod) {
    Integer p = pod.spec().priority();
    return p == null ? 0 : p;
  }

  /**
   * {@code kubelettypes.IsCriticalPod}: a static pod (its config source is not the API server), a mirror pod, or a pod
   * whose {@code spec.priority} is at least {@link #SYSTEM_CRITICAL_PRIORITY} (the {@code system-cluster-critical} and
   * {@code system-node-critical} classes, once the Priority admission plugin has resolved them).
   */
  static boolean isCritical(Pod pod) {
    Map<String, String> annotations = pod.metadata().annotations();
    String source = annotations.get(CONFIG_SOURCE_ANNOTATION);
    if ((source != null && !source.equals("api")) || annotations.containsKey(CONFIG_MIRROR_ANNOTATION)) {
      return true;
    }
    return priority(pod) >= SYSTEM_CRITICAL_PRIORITY;
  }
}
