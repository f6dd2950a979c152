package io.fleetkit.queueing;

import io.fleetkit.api.resource.ResourceList;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The flavors one pod set was admitted with (Kueue {@code PodSetAssignment}).
 *
 * @param name the pod set
 * @param count the pods admitted: the pod set's count, or fewer (not below its {@code minCount}) when the
 *     workload was admitted partially
 * @param flavors resource name to flavor name ({@code pods} too when the ClusterQueue covers it)
 * @param resourceUsage the quota it uses: {@code count × requests} (of the admitted count), and {@code pods: count} when the ClusterQueue
 *     covers {@code pods}
 * @param topologyAssignment where the pods go in the flavor's {@link Topology} (Kueue's {@code topologyAssignment}),
 *     or {@code null} when the pod set's flavor has no topology, or its placement is {@linkplain
 *     DelayedTopologyRequest#PENDING delayed}
 * @param delayedTopologyRequest whether the placement waited for a ProvisioningRequest check (Kueue's {@code
 *     delayedTopologyRequest}), or {@code null} when it did not
 */
public record PodSetAssignment(String name, int count, Map<String, String> flavors, ResourceList resourceUsage,
    @Nullable TopologyAssignment topologyAssignment, @Nullable DelayedTopologyRequest delayedTopologyRequest) {
  public PodSetAssignment {
    Objects.requireNonNull(name, "name");
    flavors = Map.copyOf(Objects.requireNonNull(flavors, "flavors"));
    Objects.requireNonNull(resourceUsage, "resourceUsage");
  }

  /** An assignment without a topology assignment. */
  public PodSetAssignment(String name, int count, Map<String, String> flavors, ResourceList resourceUsage) {
    this(name, count, flavors, resourceUsage, null, null);
  }

  /** An assignment whose placement was not delayed. */
  public PodSetAssignment(String name, int count, Map<String, String> flavors, ResourceList resourceUsage,
      @Nullable TopologyAssignment topologyAssignment) {
    this(name, count, flavors, resourceUsage, topologyAssignment, null);
  }

  /** This assignment with {@code assignment} as its topology assignment. */
  public PodSetAssignment withTopologyAssignment(@Nullable TopologyAssignment assignment) {
    return new PodSetAssignment(name, count, flavors, resourceUsage, assignment, delayedTopologyRequest);
  }

  /** This assignment with {@code state} as its delayed topology request state. */
  public PodSetAssignment withDelayedTopologyRequest(@Nullable DelayedTopologyRequest state) {
    return new PodSetAssignment(name, count, flavors, resourceUsage, topologyAssignment, state);
  }

  /**
   * Whether the pod set still waits for its topology assignment (Kueue's {@code HasTopologyAssignmentsPending} for one
   * pod set): delayed and not placed yet.
   */
  public boolean topologyPending() {
    return topologyAssignment == null && delayedTopologyRequest == DelayedTopologyRequest.PENDING;
  }
}
