package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.GpuRequests;
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
 * The cluster-wide resource limits ({@code --cores-total}, {@code --memory-total}, {@code --gpu-total}): how many
 * cores, bytes of memory and GPUs of each type the cluster may still gain (scale-up, upstream's
 * {@code core/scaleup/resource/manager.go}) or lose (scale-down, {@code core/scaledown/resource/limits.go}).
 *
 * <p>A node's share is its capacity's cpu in whole cores (rounded up, as Go's {@code Quantity.Value()}) and its
 * memory in bytes (upstream's {@code GetNodeCoresAndMemory}); a node that states only its allocatable counts with
 * that. Its GPUs count under their type, the value of its {@value NodePool#GPU_LABEL} label ({@link #gpuTarget},
 * upstream's GPU custom resources processor). The limits are maps from resource name ({@value #CORES},
 * {@value #MEMORY}, or a GPU type) to what is left; a resource without a limit has no entry, one whose total could not
 * be counted has {@link #UNKNOWN}.
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
  /**
   * What is left of a limit whose total could not be counted (upstream's {@code LimitUnknown} and
   * {@code limitUnknown}): every positive delta exceeds it, so no node with such GPUs is added or removed.
   */
  static final long UNKNOWN = Long.MIN_VALUE;

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
    boolean gpuMax = o.gpuTotal().stream().anyMatch(g -> g.max() > 0);
    if (o.maxCoresTotal() == 0 && o.maxMemoryTotal() == 0 && !gpuMax) {
      return new ClusterResourceLimits(new TreeMap<>());
    }
    long cores = 0;
    long memory = 0;
    Map<String, Long> gpus = new TreeMap<>(); // upstream's customResourcesTotal
    boolean gpusKnown = true;
    for (NodePool p : pools.values()) {
      int size = sizeOf.applyAsInt(p.metadata().name());
      if (size > 0) {
        Map<String, Long> d = deltaForPool(p);
        cores += size * d.get(CORES);
        memory += size * d.get(MEMORY);
        if (gpuMax) {
          gpuTarget(p).forEach((type, count) -> gpus.merge(type, saturatedMultiply(count, size), Long::sum));
        }
      }
    }
    for (Node n : nodes) {
      String pool = n.metadata().labels().get(NodePool.POOL_LABEL);
      if (pool == null || !pools.containsKey(pool)) { // upstream's nodes from not autoscaled groups
        Map<String, Long> d = deltaForNode(n);
        cores += d.get(CORES);
        memory += d.get(MEMORY);
        if (gpuMax) {
          Map<String, Long> g = gpuTarget(n, null);
          if (g == null) {
            gpusKnown = false;
          } else {
            g.forEach((type, count) -> gpus.merge(type, count, Long::sum));
          }
        }
      }
    }
    ClusterResourceLimits left = scaleUpLeft(cores, memory, o);
    for (AutoscalerOptions.GpuLimit g : o.gpuTotal()) {
      if (g.max() > 0) {
        left.left.put(g.gpuType(), gpusKnown ? Math.max(0, g.max() - gpus.getOrDefault(g.gpuType(), 0L)) : UNKNOWN);
      }
    }
    return left;
  }

  /**
   * Upstream's scale-down {@code LimitsLeft} for a cluster: the cores, memory and GPUs of each limited type of
   * {@code nodes}, less those being deleted at {@code now} ({@link #isBeingDeleted}), above the minima; {@code null}
   * when no minimum is set. A node's GPUs are read with its pool's template from {@code pools}
   * ({@link #gpuTarget}); when one cannot be read, every GPU minimum's room is {@link #UNKNOWN}.
   */
  static @Nullable ClusterResourceLimits scaleDownLeft(List<Node> nodes, Map<String, NodePool> pools, Instant now,
      AutoscalerOptions o) {
    boolean gpuMin = o.gpuTotal().stream().anyMatch(g -> g.min() > 0);
    if (o.minCoresTotal() == 0 && o.minMemoryTotal() == 0 && !gpuMin) {
      return null;
    }
    long[] total = coresMemoryTotal(nodes, now);
    ClusterResourceLimits left = scaleDownLeft(total[0], total[1], o);
    if (gpuMin) {
      Map<String, Long> gpus = gpuTotal(nodes, pools, now);
      for (AutoscalerOptions.GpuLimit g : o.gpuTotal()) {
        if (g.min() > 0) {
          left.left.put(g.gpuType(), gpus == null ? UNKNOWN
              : Math.max(0, gpus.getOrDefault(g.gpuType(), 0L) - g.min()));
        }
      }
    }
    return left;
  }

  /**
   * Upstream's scale-down {@code customResourcesTotal}: the GPUs of {@code nodes} by type, those being deleted at
   * {@code now} left out; {@code null} when a node's cannot be read ({@link #gpuTarget}).
   */
  static @Nullable Map<String, Long> gpuTotal(List<Node> nodes, Map<String, NodePool> pools, Instant now) {
    Map<String, Long> out = new TreeMap<>();
    for (Node n : nodes) {
      if (isBeingDeleted(n, now)) {
        continue;
      }
      Map<String, Long> g = gpuTarget(n, poolOf(n, pools));
      if (g == null) {
        return null;
      }
      g.forEach((type, count) -> out.merge(type, count, Long::sum));
    }
    return out;
  }

  /** The pool of {@code pools} that {@code node} belongs to ({@link NodePool#POOL_LABEL}), or {@code null}. */
  static @Nullable NodePool poolOf(Node node, Map<String, NodePool> pools) {
    String pool = node.metadata().labels().get(NodePool.POOL_LABEL);
    return pool == null ? null : pools.get(pool);
  }

  /**
   * Upstream's {@code GetNodeGpuTarget}: the GPUs {@code node} has or will have, as {@code {type: count}}. The type is
   * the node's {@value NodePool#GPU_LABEL} label; a node without it has none (an empty map). The count is its
   * allocatable {@code nvidia.com/gpu} when above 0; otherwise (devices not ready yet, or failed) its pool's template's
   * capacity, none when the template states no {@code nvidia.com/gpu}.
   *
   * @param pool the pool {@code node} belongs to, or {@code null} for a node outside the pools
   * @return the GPUs by type, or {@code null} when they cannot be told: a labelled node without allocatable GPUs
   *     outside the pools (upstream's error "node with gpu label, without capacity not belonging to autoscaled node
   *     group")
   */
  static @Nullable Map<String, Long> gpuTarget(Node node, @Nullable NodePool pool) {
    String type = node.metadata().labels().get(NodePool.GPU_LABEL);
    if (type == null) {
      return Map.of();
    }
    long allocatable = GpuRequests.whole(node.allocatable());
    if (allocatable > 0) {
      return Map.of(type, allocatable);
    }
    if (pool == null) {
      return null;
    }
    ResourceList c = templateCapacity(pool);
    return c.has(GpuRequests.WHOLE) ? Map.of(type, c.value(GpuRequests.WHOLE)) : Map.of();
  }

  /**
   * {@link #gpuTarget(Node, NodePool)} of a node made from {@code pool}'s template: its allocatable
   * {@code nvidia.com/gpu} under the template's {@value NodePool#GPU_LABEL} label, else its capacity's.
   */
  static Map<String, Long> gpuTarget(NodePool pool) {
    String type = pool.spec().template().labels().get(NodePool.GPU_LABEL);
    if (type == null) {
      return Map.of();
    }
    long allocatable = GpuRequests.whole(pool.spec().template().allocatable());
    if (allocatable > 0) {
      return Map.of(type, allocatable);
    }
    ResourceList c = templateCapacity(pool);
    return c.has(GpuRequests.WHOLE) ? Map.of(type, c.value(GpuRequests.WHOLE)) : Map.of();
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
    return delta(templateCapacity(pool));
  }

  /**
   * Upstream's scale-up {@code DeltaForNode} with the GPU custom resources: {@link #deltaForPool(NodePool)} and, when
   * {@code o} limits GPUs of the template's type, its GPUs under that type ({@link #gpuTarget(NodePool)}).
   */
  static Map<String, Long> deltaForPool(NodePool pool, AutoscalerOptions o) {
    return withGpus(deltaForPool(pool), gpuTarget(pool), o);
  }

  /**
   * Upstream's scale-down {@code DeltaForNode} with the GPU custom resources: {@link #deltaForNode(Node)} and, when
   * {@code o} limits GPUs of the node's type, its GPUs under that type ({@link #gpuTarget(Node, NodePool)}, read
   * with {@code pool}'s template); {@code null} when they cannot be told.
   */
  static @Nullable Map<String, Long> deltaForNode(Node node, @Nullable NodePool pool, AutoscalerOptions o) {
    if (o.gpuTotal().isEmpty()) {
      return deltaForNode(node);
    }
    Map<String, Long> gpus = gpuTarget(node, pool);
    return gpus == null ? null : withGpus(deltaForNode(node), gpus, o);
  }

  private static Map<String, Long> withGpus(Map<String, Long> delta, Map<String, Long> gpus, AutoscalerOptions o) {
    Map<String, Long> out = null;
    for (Map.Entry<String, Long> e : gpus.entrySet()) {
      if (o.gpuLimit(e.getKey()) != null) { // only limited types: a GPU type is never cpu or memory
        if (out == null) {
          out = new TreeMap<>(delta);
        }
        out.put(e.getKey(), Math.max(0, e.getValue()));
      }
    }
    return out == null ? delta : out;
  }

  /** The capacity of {@code pool}'s template, or its allocatable when it states no capacity. */
  private static ResourceList templateCapacity(NodePool pool) {
    ResourceList c = pool.spec().template().capacity();
    return c.isEmpty() ? pool.spec().template().allocatable() : c;
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

  /**
   * Upstream's {@code MaxResourceLimitReached} reason: {@code max cluster cpu, memory limit reached}, with a GPU type
   * for a {@code --gpu-total} maximum ({@code max cluster a100 limit reached}).
   */
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
