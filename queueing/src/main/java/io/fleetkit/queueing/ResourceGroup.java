package io.fleetkit.queueing;

import java.util.List;
import java.util.Objects;

/**
 * Resources that are assigned the same flavor together (Kueue {@code ResourceGroup}): for every pod set, all covered
 * resources of a group get the same flavor, tried in {@code flavors} order.
 *
 * @param coveredResources resource names, e.g. {@code [cpu, memory]}
 * @param flavors the flavors in the order they are tried
 */
public record ResourceGroup(List<String> coveredResources, List<FlavorQuotas> flavors) {
  public ResourceGroup {
    coveredResources = List.copyOf(Objects.requireNonNull(coveredResources, "coveredResources"));
    flavors = List.copyOf(Objects.requireNonNull(flavors, "flavors"));
  }

  /** A group whose covered resources are those of the first flavor, in its order. */
  public static ResourceGroup of(FlavorQuotas... flavors) {
    if (flavors.length == 0) {
      throw new IllegalArgumentException("resource group: flavors must not be empty");
    }
    return new ResourceGroup(
        flavors[0].resources().stream().map(FlavorResourceQuota::name).toList(), List.of(flavors));
  }
}
