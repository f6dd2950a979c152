package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToIntFunction;
import org.jspecify.annotations.Nullable;

/**
 * The cluster-wide resource limits ({@code --cores-total}, {@code --memory-total}): how many cores and bytes of
 * memory the cluster may still gain (scale-up, upstream's {@code core/scaleup/resource/manager.go}) or lose
 * (scale-down, {@code core/scaledown/resource/limits.go}).
 *
 * <p>A node's share is its capacity's cpu in whole cores (rounded up, as Go's {@code Quantity.Value()}) and its
 * memory in bytes (upstream's {@code GetNodeCoresAndMemory}); a node that states only its allocatable counts with
 * that. The limits are maps from resource name ({@value #CORES}, {@value #MEMORY}) to what is left; a resource
 * without a limit has no entry.
 *
 * <p>Immutable but for {@link #tryDecrementBy}, which scale-down uses to charge the nodes it removes one by one; not
 * thread-safe.
 */
final class ClusterResourceLimits {
  /** Upstream's {@code ResourceNameCores}. */
  static final String CORES = "cpu";
  /** Upstream's {@code ResourceNameMemory}. */
  static final String MEMORY = "memory";
  /**
   * Upstream's {@code MaxCloudProviderNodeDeletionTime}: a node tainted {@value ClusterAutoscaler#TO_BE_DELETED_TAINT}
   * less than this ago is being deleted and does not count toward the totals scale-down protects.
   */
  static final Duration MAX_NODE_DELETION_TIME = Duration.ofMinutes(5);

  /** What is left, by resource; a resource without a limit has no entry. */
  private final Map<String, Long> left;

  private ClusterResourceLimits(Map<String, Long> left) {
    this.left = left;
  }

  /** Limits with {@code left} of each resource (upstream's {@code Limits} map). */
  static ClusterResourceLimits of(Map<String, Long> left) {
    return new ClusterResourceLimits(new TreeMap<>(left));
  }

  /**
   * Upstream's scale-up {@code ResourcesLeft}: for each maximum above 0, how much of it the totals leave (never
   * negative).
   */
  static ClusterResourceLimits scaleUpLeft(long totalCores, long totalMemory, AutoscalerOptions o) {
    Map<String, Long> left = new TreeMap<>();
    if (o.maxCoresTotal() > 0) {
      left.put(CORES, Math.max(0, o.maxCoresTotal() - totalCores));
    }
    if (o.maxMemoryTotal() > 0) {
      left.put(MEMORY, Math.max(0, o.maxMemoryTotal() - totalMemory));
    }
    return new ClusterResourceLimits(left);
  }

  /**
   * Upstream's scale-down {@code LimitsLeft}: for each minimum above 0, how much the totals may lose before reaching
   * it (never negative).
   */
  static ClusterResourceLimits scaleDownLeft(long totalCores, long totalMemory, AutoscalerOptions o) {
    Map<String, Long> left = new TreeMap<>();
    if (o.minCoresTotal() > 0) {
      left.put(CORES, Math.max(0, totalCores - o.minCoresTotal()));
    }
    if (o.minMemoryTotal() > 0) {
      left.put(MEMORY, Math.max(0, totalMemory - o.minMemoryTotal()));
    }
    return new ClusterResourceLimits(left);
  }

  /**
   * Upstream's scale-up {@code ResourcesLeft} for a cluster: each pool of {@code pools} counted as its size
   * ({@code sizeOf}) times its template node, every node of {@code nodes} outside those pools by itself; empty when no
   * maximum is set.
   */
  static ClusterResourceLimits scaleUpLeft(Map<String, NodePool> pools, ToIntFunction<String> sizeOf, List<Node> nodes,
      AutoscalerOptions o) {
    if (o.maxCoresTotal() == 0 && o.maxMemoryTotal() == 0) {
      return new ClusterResourceLimits(new TreeMap<>());
    }
    long cores = 0;
    long memory = 0;
    for (NodePool p : pools.values()) {
      int size = sizeOf.applyAsInt(p.metadata().name());
      if (size > 0) {
        Map<String, Long> d = deltaForPool(p);
        cores += size * d.get(CORES);
        memory += size * d.get(MEMORY);
      }
    }
    for (Node n : nodes) {
      String pool = n.metadata().labels().get(NodePool.POOL_LABEL);
      if (pool == null || !pools.containsKey(pool)) { // upstream's nodes from not autoscaled groups
        Map<String, Long> d = deltaForNode(n);
        cores += d.get(CORES);
        memory += d.get(MEMORY);
      }
    }
    return scaleUpLeft(cores, memory, o);
  }

  /**
   * Upstream's scale-down {@code LimitsLeft} for a cluster: the cores and memory of {@code nodes}, less those being
   * deleted at {@code now} ({@link #isBeingDeleted}), above the minima; {@code null} when no minimum is set.
   */
  static @Nullable ClusterResourceLimits scaleDownLeft(List<Node> nodes, Instant now, AutoscalerOptions o) {
    if (o.minCoresTotal() == 0 && o.minMemoryTotal() == 0) {
      return null;
    }
    long[] total = coresMemoryTotal(nodes, now);
    return scaleDownLeft(total[0], total[1], o);
  }

  /**
   * Upstream's scale-down {@code coresMemoryTotal}: the cores and the memory of {@code nodes}, those being deleted at
   * {@code now} left out.
   */
  static long[] coresMemoryTotal(List<Node> nodes, Instant now) {
    long cores = 0;
    long memory = 0;
    for (Node n : nodes) {
      if (!isBeingDeleted(n, now)) {
        Map<String, Long> d = deltaForNode(n);
        cores += d.get(CORES);
        memory += d.get(MEMORY);
      }
    }
    return new long[] {cores, memory};
  }

  /** Whether no resource is limited. */
  boolean isEmpty() {
    return left.isEmpty();
  }

  /** What is left of each limited resource. */
  Map<String, Long> left() {
    return Map.copyOf(left);
  }

  /** Upstream's {@code DeltaForNode}: the cores and memory {@code node} adds to (or takes from) the cluster. */
  static Map<String, Long> deltaForNode(Node node) {
    return delta(capacity(node));
  }

  /** What one node of {@code pool} adds: {@link #deltaForNode} of its template. */
  static Map<String, Long> deltaForPool(NodePool pool) {
    ResourceList c = pool.spec().template().capacity();
    return delta(c.isEmpty() ? pool.spec().template().allocatable() : c);
  }

  private static Map<String, Long> delta(ResourceList r) {
    return Map.of(CORES, Math.max(0, r.value(CORES)), MEMORY, Math.max(0, r.memoryBytes()));
  }

  /** {@code delta} times {@code count}, saturating. */
  static Map<String, Long> times(Map<String, Long> delta, int count) {
    Map<String, Long> out = new TreeMap<>();
    delta.forEach((k, v) -> out.put(k, saturatedMultiply(v, count)));
    return out;
  }

  /** The capacity a node's share is read from: its capacity, or its allocatable when it states no capacity. */
  static ResourceList capacity(Node node) {
    ResourceList c = node.status().capacity();
    return c.isEmpty() ? node.allocatable() : c;
  }

  /**
   * Upstream's {@code CheckDeltaWithinLimits}: the limited resources of which {@code delta} asks more than is left, in
   * name order (a resource the delta does not use is never exceeded).
   */
  List<String> exceeded(Map<String, Long> delta) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, Long> e : new TreeMap<>(delta).entrySet()) {
      Long l = left.get(e.getKey());
      if (l != null && e.getValue() > 0 && e.getValue() > l) {
        out.add(e.getKey());
      }
    }
    return out;
  }

  /**
   * Upstream's {@code TryDecrementBy}: takes {@code delta} from what is left unless that exceeds a limit, in which
   * case nothing changes.
   *
   * @return the resources exceeded (empty when {@code delta} was taken)
   */
  List<String> tryDecrementBy(Map<String, Long> delta) {
    List<String> ex = exceeded(delta);
    if (ex.isEmpty()) {
      delta.forEach((k, v) -> left.computeIfPresent(k, (kk, l) -> l - v));
    }
    return ex;
  }

  /**
   * Upstream's {@code ApplyLimits}: {@code newCount} nodes of {@code delta} each, capped so that every limited
   * resource stays within what is left.
   *
   * @throws IllegalStateException if not even one node fits (callers check one node first, as upstream's
   *     {@code IsNodeGroupResourceExceeded})
   */
  int applyLimits(int newCount, Map<String, Long> delta) {
    for (Map.Entry<String, Long> e : new TreeMap<>(delta).entrySet()) {
      Long l = left.get(e.getKey());
      long d = e.getValue();
      if (l == null || d <= 0 || (long) newCount * d <= l) {
        continue;
      }
      newCount = (int) (l / d);
      if (newCount < 1) {
        throw new IllegalStateException("cannot create any node; max limit for resource " + e.getKey() + " reached");
      }
    }
    return newCount;
  }

  /** Upstream's {@code MaxResourceLimitReached} reason: {@code max cluster cpu, memory limit reached}. */
  static String maxLimitReachedReason(List<String> resources) {
    return "max cluster " + String.join(", ", resources) + " limit reached";
  }

  /**
   * Upstream's {@code IsNodeBeingDeleted}: {@code node} carries {@value ClusterAutoscaler#TO_BE_DELETED_TAINT} with a
   * time (unix seconds) less than {@link #MAX_NODE_DELETION_TIME} before {@code now}.
   */
  static boolean isBeingDeleted(Node node, Instant now) {
    for (Taint t : node.spec().taints()) {
      if (t.key().equals(ClusterAutoscaler.TO_BE_DELETED_TAINT)) {
        try {
          Instant at = Instant.ofEpochSecond(Long.parseLong(t.value()));
          return Duration.between(at, now).compareTo(MAX_NODE_DELETION_TIME) < 0;
        } catch (NumberFormatException e) {
          return false; // upstream: a taint without a time is no deletion time
        }
      }
    }
    return false;
  }

  private static long saturatedMultiply(long a, int b) {
    long r = a * b;
    return b != 0 && (r / b != a) ? Long.MAX_VALUE : r;
  }

  @Override
  public String toString() {
    return "ClusterResourceLimits" + left;
  }
}
