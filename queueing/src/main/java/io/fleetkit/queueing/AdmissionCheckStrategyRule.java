package io.fleetkit.queueing;

import java.util.List;
import java.util.Objects;

/**
 * Which flavors an admission check of a ClusterQueue applies to (Kueue {@code AdmissionCheckStrategyRule}): a
 * workload needs the check when its quota reservation uses one of {@code onFlavors}; with no flavors listed, every
 * workload of the queue needs it.
 *
 * @param name the {@link AdmissionCheck}'s name
 * @param onFlavors the ResourceFlavors the check runs for; empty for all of the queue's flavors
 */
public record AdmissionCheckStrategyRule(String name, List<String> onFlavors) {
  public AdmissionCheckStrategyRule {
    Objects.requireNonNull(name, "name");
    onFlavors = List.copyOf(Objects.requireNonNull(onFlavors, "onFlavors"));
  }

  /** The check {@code name} for {@code onFlavors} (none: every flavor). */
  public static AdmissionCheckStrategyRule of(String name, String... onFlavors) {
    return new AdmissionCheckStrategyRule(name, List.of(onFlavors));
  }
}
