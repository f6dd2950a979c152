package io.fleetkit.scheduler.plugins.noderesources;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Arguments of {@code NodeResourcesBalancedAllocation} (kube's {@code NodeResourcesBalancedAllocationArgs}).
 *
 * <p>As a profile args map: {@code {"resources": [{"name": "cpu"}, {"name": "memory"}, {"name": "nvidia.com/gpu"}]}};
 * absent or empty means cpu and memory. Weights play no part in the standard deviation and must be 1 when given.
 *
 * @param resources the resources whose fractions are balanced; names unique
 */
public record NodeResourcesBalancedAllocationArgs(List<ResourceSpec> resources) {

  /** kube's default: cpu and memory. */
  public static final NodeResourcesBalancedAllocationArgs DEFAULT =
      new NodeResourcesBalancedAllocationArgs(ScoringStrategy.DEFAULT_RESOURCES);

  public NodeResourcesBalancedAllocationArgs {
    resources = List.copyOf(resources);
    if (resources.isEmpty()) {
      throw new IllegalArgumentException("NodeResourcesBalancedAllocation args: resources must not be empty");
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < resources.size(); i++) {
      ResourceSpec r = resources.get(i);
      if (!seen.add(r.name())) {
        throw new IllegalArgumentException("NodeResourcesBalancedAllocation args: resources[" + i + "].name \""
            + r.name() + "\" must be unique (listed twice)");
      }
      if (r.weight() != 1) {
        throw new IllegalArgumentException("NodeResourcesBalancedAllocation args: resources[" + i + "].weight "
            + r.weight() + " must be 1");
      }
    }
  }

  /** Balances the named resources. */
  public static NodeResourcesBalancedAllocationArgs of(String... resourceNames) {
    return new NodeResourcesBalancedAllocationArgs(
        java.util.Arrays.stream(resourceNames).map(n -> ResourceSpec.of(n, 1)).toList());
  }

  /**
   * Parses a profile's args map.
   *
   * @throws IllegalArgumentException naming the field, rule and value when an argument is malformed or invalid
   */
  public static NodeResourcesBalancedAllocationArgs fromMap(Map<String, Object> args) {
    String p = NodeResourcesBalancedAllocationPlugin.NAME;
    ArgsMaps.checkKeys(p, "", args, Set.of("resources"));
    return new NodeResourcesBalancedAllocationArgs(
        NodeResourcesFitArgs.parseResources(p, "resources", args.get("resources")));
  }
}
