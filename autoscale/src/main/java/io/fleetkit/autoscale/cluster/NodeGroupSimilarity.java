package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Whether two pools are similar enough to be balanced as one set: kubernetes/autoscaler's generic comparator
 * ({@code processors/nodegroupset/compare_nodegroups.go}, {@code IsCloudProviderNodeInfoSimilar}), applied to the
 * pools' template nodes with the pods they run from the start (their DaemonSet pods).
 *
 * <p>Two template nodes are similar ({@link #ignoring}) when
 * <ul>
 *   <li>they have the same capacity resources, each equal, except memory, which may differ by a ratio of the larger
 *       (upstream's {@code --memory-difference-ratio}, {@value #MAX_CAPACITY_MEMORY_DIFFERENCE_RATIO});
 *   <li>each allocatable resource is on both and within a ratio of the larger
 *       ({@code --max-allocatable-difference-ratio}, {@value #MAX_ALLOCATABLE_DIFFERENCE_RATIO});
 *   <li>each free resource (allocatable minus what the node's pods request: cpu, memory, pods, ephemeral storage and
 *       every resource requested) is within a ratio of the larger ({@code --max-free-difference-ratio},
 *       {@value #MAX_FREE_DIFFERENCE_RATIO});
 *   <li>their labels are equal, those ignored left out ({@link #BASIC_IGNORED_LABELS} and the caller's).
 * </ul>
 * With {@code --balancing-label} ({@link #byLabels}, upstream's {@code CreateLabelNodeInfoComparator},
 * {@code label_nodegroups.go}) only the given labels are compared: each must be on both nodes with the same value.
 * Immutable and thread-safe.
 */
final class NodeGroupSimilarity {
  /** Upstream's {@code --max-allocatable-difference-ratio} default. */
  static final double MAX_ALLOCATABLE_DIFFERENCE_RATIO = 0.05;
  /** Upstream's {@code --max-free-difference-ratio} default. */
  static final double MAX_FREE_DIFFERENCE_RATIO = 0.05;
  /** Upstream's {@code --memory-difference-ratio} default. */
  static final double MAX_CAPACITY_MEMORY_DIFFERENCE_RATIO = 0.015;

  /**
   * Upstream's {@code BasicIgnoredLabels} (hostname, the zone and region labels old and new, fluentd's and kops's
   * group label, and the CSI drivers' zone labels), plus FleetKit's own pool label {@value NodePool#POOL_LABEL}, which
   * names each pool and so always differs (as upstream's provider comparators ignore their node-group labels, e.g.
   * AWS's {@code eks.amazonaws.com/nodegroup}).
   */
  static final Set<String> BASIC_IGNORED_LABELS = Set.of("kubernetes.io/hostname",
      "failure-domain.beta.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/region",
      "topology.kubernetes.io/zone", "topology.kubernetes.io/region", "beta.kubernetes.io/fluentd-ds-ready",
      "kops.k8s.io/instancegroup", "topology.ebs.csi.aws.com/zone", "topology.gke.io/zone",
      "topology.disk.csi.azure.com/zone", NodePool.POOL_LABEL);

  private static final Set<String> FREE_ALWAYS = Set.of("cpu", "memory", "pods", "ephemeral-storage");

  private final Set<String> ignoredLabels;
  /** The labels compared alone ({@code --balancing-label}); {@code null} for the generic comparison. */
  private final @Nullable List<String> onlyLabels;
  private final double allocatableRatio;
  private final double freeRatio;
  private final double memoryRatio;

  private NodeGroupSimilarity(Set<String> ignoredLabels, @Nullable List<String> onlyLabels, double allocatableRatio,
      double freeRatio, double memoryRatio) {
    this.ignoredLabels = ignoredLabels;
    this.onlyLabels = onlyLabels;
    this.allocatableRatio = allocatableRatio;
    this.freeRatio = freeRatio;
    this.memoryRatio = memoryRatio;
  }

  /**
   * Upstream's {@code CreateGenericNodeInfoComparator} with its default ratios: the basic ignored labels plus
   * {@code extraIgnoredLabels}.
   */
  static NodeGroupSimilarity ignoring(Collection<String> extraIgnoredLabels) {
    return ignoring(extraIgnoredLabels, MAX_ALLOCATABLE_DIFFERENCE_RATIO, MAX_FREE_DIFFERENCE_RATIO,
        MAX_CAPACITY_MEMORY_DIFFERENCE_RATIO);
  }

  /** Upstream's {@code CreateGenericNodeInfoComparator} with the given {@code NodeGroupDifferenceRatios}. */
  static NodeGroupSimilarity ignoring(Collection<String> extraIgnoredLabels, double allocatableRatio,
      double freeRatio, double memoryRatio) {
    Set<String> ignored = new HashSet<>(BASIC_IGNORED_LABELS);
    ignored.addAll(extraIgnoredLabels);
    return new NodeGroupSimilarity(Set.copyOf(ignored), null, allocatableRatio, freeRatio, memoryRatio);
  }

  /** Upstream's {@code CreateLabelNodeInfoComparator}: similar when every one of {@code labels} is on both, equal. */
  static NodeGroupSimilarity byLabels(List<String> labels) {
    return new NodeGroupSimilarity(Set.of(), List.copyOf(labels), 0, 0, 0);
  }

  /** The comparison {@code o} asks for: by {@code balancingLabels} when given, else the generic one. */
  static NodeGroupSimilarity of(AutoscalerOptions o) {
    return o.balancingLabels().isEmpty()
        ? ignoring(o.balancingIgnoreLabels(), o.maxAllocatableDifferenceRatio(), o.maxFreeDifferenceRatio(),
            o.memoryDifferenceRatio())
        : byLabels(o.balancingLabels());
  }

  /**
   * Whether {@code n1}, whose pods request {@code requested1}, and {@code n2}, whose pods request
   * {@code requested2}, are similar.
   */
  boolean similar(Node n1, ResourceList requested1, Node n2, ResourceList requested2) {
    Objects.requireNonNull(requested1, "requested1");
    Objects.requireNonNull(requested2, "requested2");
    if (onlyLabels != null) {
      return sameGivenLabels(n1.metadata().labels(), n2.metadata().labels(), onlyLabels);
    }
    ResourceList c1 = n1.status().capacity();
    ResourceList c2 = n2.status().capacity();
    if (!c1.names().equals(c2.names())) {
      return false; // a capacity resource on one only
    }
    for (String r : c1.names()) {
      if (r.equals("memory")) {
        if (!withinTolerance(c1.milliValue(r), c2.milliValue(r), memoryRatio)) {
          return false;
        }
      } else if (c1.get(r).compareTo(c2.get(r)) != 0) {
        return false; // other capacity must match exactly (which keeps --cores-total exact for balanced groups)
      }
    }
    ResourceList a1 = n1.allocatable();
    ResourceList a2 = n2.allocatable();
    if (!a1.names().equals(a2.names())) {
      return false;
    }
    for (String r : a1.names()) {
      if (!withinTolerance(a1.milliValue(r), a2.milliValue(r), allocatableRatio)) {
        return false;
      }
    }
    Set<String> free = new TreeSet<>(FREE_ALWAYS);
    free.addAll(requested1.names());
    free.addAll(requested2.names());
    for (String r : free) {
      long f1 = a1.milliValue(r) - requested1.milliValue(r);
      long f2 = a2.milliValue(r) - requested2.milliValue(r);
      if (!withinTolerance(f1, f2, freeRatio)) {
        return false;
      }
    }
    return sameLabels(n1.metadata().labels(), n2.metadata().labels());
  }

  /** Upstream's {@code resourceListWithinTolerance}: {@code larger - smaller <= larger * ratio}. */
  static boolean withinTolerance(long q1, long q2, double ratio) {
    double larger = Math.max((double) q1, (double) q2);
    double smaller = Math.min((double) q1, (double) q2);
    return larger - smaller <= larger * ratio;
  }

  /** Upstream's {@code areLabelsSame}: each of {@code labels} is on both, with the same value. */
  private static boolean sameGivenLabels(Map<String, String> l1, Map<String, String> l2, List<String> labels) {
    for (String k : labels) {
      String v1 = l1.get(k);
      if (v1 == null || !v1.equals(l2.get(k))) {
        return false;
      }
    }
    return true;
  }

  /** Upstream's {@code compareLabels}: every label not ignored is on both, with the same value. */
  private boolean sameLabels(Map<String, String> l1, Map<String, String> l2) {
    for (Map.Entry<String, String> e : l1.entrySet()) {
      if (!ignoredLabels.contains(e.getKey()) && !e.getValue().equals(l2.get(e.getKey()))) {
        return false;
      }
    }
    for (String k : l2.keySet()) {
      if (!ignoredLabels.contains(k) && !l1.containsKey(k)) {
        return false;
      }
    }
    return true;
  }
}
