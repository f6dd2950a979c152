package io.fleetkit.queueing;

import java.util.List;
import java.util.Objects;

/**
 * The quotas of one flavor in a {@link ResourceGroup} (Kueue {@code FlavorQuotas}): one {@link FlavorResourceQuota} per
 * covered resource of the group, in the group's order.
 *
 * @param name the {@link ResourceFlavor} name
 * @param resources the quotas, one per covered resource
 */
public record FlavorQuotas(String name, List<FlavorResourceQuota> resources) {
  public FlavorQuotas {
    Objects.requireNonNull(name, "name");
    resources = List.copyOf(Objects.requireNonNull(resources, "resources"));
  }

  public static FlavorQuotas of(String name, FlavorResourceQuota... resources) {
    return new FlavorQuotas(name, List.of(resources));
  }
}
