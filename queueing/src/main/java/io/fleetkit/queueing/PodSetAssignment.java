package io.fleetkit.queueing;

import io.fleetkit.api.resource.ResourceList;
import java.util.Map;
import java.util.Objects;

/**
 * The flavors one pod set was admitted with (Kueue {@code PodSetAssignment}).
 *
 * @param name the pod set
 * @param count the pods admitted: the pod set's count, or fewer (not below its {@code minCount}) when the
 *     workload was admitted partially
 * @param flavors resource name to flavor name ({@code pods} too when the ClusterQueue covers it)
 * @param resourceUsage the quota it uses: {@code count × requests} (of the admitted count), and {@code pods: count} when the ClusterQueue
 *     covers {@code pods}
 */
public record PodSetAssignment(String name, int count, Map<String, String> flavors, ResourceList resourceUsage) {
  public PodSetAssignment {
    Objects.requireNonNull(name, "name");
    flavors = Map.copyOf(Objects.requireNonNull(flavors, "flavors"));
    Objects.requireNonNull(resourceUsage, "resourceUsage");
  }
}
