package io.fleetkit.queueing;

import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.Toleration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A set of identical pods of a {@link Workload} (Kueue {@code PodSet}): how many, what each requests, and the part
 * of their template that decides which {@link ResourceFlavor flavors} they may get.
 *
 * @param name the pod set's name, unique in its workload (e.g. {@code main}, {@code launcher}, {@code workers})
 * @param count how many pods
 * @param requests what each pod requests
 * @param nodeSelector the pods' {@code nodeSelector} (may be empty)
 * @param requiredNodeAffinity the pods' {@code requiredDuringSchedulingIgnoredDuringExecution} node affinity, or
 *     {@code null}
 * @param tolerations the pods' tolerations (may be empty)
 * @param minCount the fewest pods the workload accepts for this pod set (Kueue's {@code minCount}, partial
 *     admission), or {@code null}: all {@code count} pods or none. The engine admits a workload that does not fit
 *     whole with the largest counts from {@code minCount} up that fit; at most one pod set of a workload may set it
 * @param topologyRequest where the pods must or should be in the flavor's {@link Topology} (Kueue's topology
 *     annotations), or {@code null}: anywhere with room, when the flavor has a topology
 */
public record PodSet(String name, int count, ResourceList requests, Map<String, String> nodeSelector,
    @Nullable NodeSelector requiredNodeAffinity, List<Toleration> tolerations, @Nullable Integer minCount,
    @Nullable PodSetTopologyRequest topologyRequest) {
  public PodSet {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(requests, "requests");
    nodeSelector = Map.copyOf(Objects.requireNonNull(nodeSelector, "nodeSelector"));
    tolerations = List.copyOf(Objects.requireNonNull(tolerations, "tolerations"));
  }

  /** Pods without a topology request. */
  public PodSet(String name, int count, ResourceList requests, Map<String, String> nodeSelector,
      @Nullable NodeSelector requiredNodeAffinity, List<Toleration> tolerations, @Nullable Integer minCount) {
    this(name, count, requests, nodeSelector, requiredNodeAffinity, tolerations, minCount, null);
  }

  /** Pods that are admitted all or none. */
  public PodSet(String name, int count, ResourceList requests, Map<String, String> nodeSelector,
      @Nullable NodeSelector requiredNodeAffinity, List<Toleration> tolerations) {
    this(name, count, requests, nodeSelector, requiredNodeAffinity, tolerations, null);
  }

  /** Pods without node constraints or tolerations. */
  public PodSet(String name, int count, ResourceList requests) {
    this(name, count, requests, Map.of(), null, List.of());
  }

  public static PodSet of(String name, int count, ResourceList requests) {
    return new PodSet(name, count, requests);
  }

  /**
   * {@code count} pods of {@code template}: its effective requests (containers summed, init containers and overhead
   * as the scheduler counts them), its node selector, required node affinity and tolerations.
   */
  public static PodSet ofTemplate(String name, int count, PodSpec template) {
    NodeAffinity na = template.affinity().nodeAffinity();
    return new PodSet(name, count, template.effectiveRequests(), template.nodeSelector(),
        na == null ? null : na.requiredDuringSchedulingIgnoredDuringExecution(), template.tolerations());
  }

  /** These pods with {@code nodeSelector}. */
  public PodSet withNodeSelector(Map<String, String> nodeSelector) {
    return new PodSet(name, count, requests, nodeSelector, requiredNodeAffinity, tolerations, minCount,
        topologyRequest);
  }

  /** These pods with {@code affinity} as their required node affinity ({@code null} for none). */
  public PodSet withRequiredNodeAffinity(@Nullable NodeSelector affinity) {
    return new PodSet(name, count, requests, nodeSelector, affinity, tolerations, minCount, topologyRequest);
  }

  /** These pods with {@code tolerations}. */
  public PodSet withTolerations(List<Toleration> tolerations) {
    return new PodSet(name, count, requests, nodeSelector, requiredNodeAffinity, tolerations, minCount,
        topologyRequest);
  }

  /**
   * These pods admitted with at least {@code minCount} of them ({@code null}: all or none); validated with the
   * workload.
   */
  public PodSet withMinCount(@Nullable Integer minCount) {
    return new PodSet(name, count, requests, nodeSelector, requiredNodeAffinity, tolerations, minCount,
        topologyRequest);
  }

  /** These pods with {@code count} pods (the admitted count of a partially admitted pod set). */
  public PodSet withCount(int count) {
    return new PodSet(name, count, requests, nodeSelector, requiredNodeAffinity, tolerations, minCount,
        topologyRequest);
  }

  /** These pods with {@code request} as their topology request ({@code null} for none). */
  public PodSet withTopologyRequest(@Nullable PodSetTopologyRequest request) {
    return new PodSet(name, count, requests, nodeSelector, requiredNodeAffinity, tolerations, minCount, request);
  }

  /**
   * The topology request the engine places the pods by: {@link #topologyRequest()} when it is {@linkplain
   * PodSetTopologyRequest#explicit() explicit}, else {@code null} (a request of index labels alone only orders the
   * pods over their domains).
   */
  public @Nullable PodSetTopologyRequest placementRequest() {
    return topologyRequest != null && topologyRequest.explicit() ? topologyRequest : null;
  }

  /** The fewest pods this pod set may be admitted with: {@code minCount}, or {@code count} if it is not set. */
  public int minCountOrCount() {
    return minCount == null ? count : minCount;
  }

  /** Whether the pods constrain the nodes they may run on (node selector or required node affinity). */
  public boolean constrainsNodes() {
    return !nodeSelector.isEmpty() || requiredNodeAffinity != null;
  }

  /** {@code count × requests[resource]} in milli-units. */
  public long totalMilli(String resource) {
    return Math.multiplyExact(requests.milliValue(resource), (long) count);
  }
}
