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
 *     or {@code null} when the pod set's flavor has no topology
 */
public record PodSetAssignment(String name, int count, Map<String, String> flavors, ResourceList resourceUsage,
    @Nullable TopologyAssignment topologyAssignment) {
  public PodSetAssignment {
    Objects.requireNonNull(name, "name");
    flavors = Map.copyOf(Objects.requireNonNull(flavors, "flavors"));
    Objects.requireNonNull(resourceUsage, "resourceUsage");
  }

  /** An assignment without a topology assignment. */
  public PodSetAssignment(String name, int count, Map<String, String> flavors, ResourceList resourceUsage) {
    this(name, count, flavors, resourceUsage, null);
  }

  /** This assignment with {@code assignment} as its topology assignment. */
  public PodSetAssignment withTopologyAssignment(@Nullable TopologyAssignment assignment) {
    return new PodSetAssignment(name, count, flavors, resourceUsage, assignment);
  }
}
