package io.fleetkit.api.simulation;

import io.fleetkit.api.resource.ResourceList;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A node of a scenario's Kueue cohort tree (a Kueue {@code Cohort}, hierarchical cohorts): {@link ScenarioQueue}s name
 * it as their {@code cohort}, other cohorts as their {@code parent}. Its own nominal {@code quota} of the
 * ResourceFlavor {@code flavor} (a flavor some queue of the scenario defines) is shared by its subtree; with a parent it
 * borrows from the parent's subtree within {@code borrowingLimit} and lends at most {@code lendingLimit} of its subtree
 * (a resource without a limit: no limit). A cohort that queues or cohorts name without declaring it is a root without
 * quota.
 *
 * @param name the cohort's name, a DNS subdomain
 * @param parent the parent cohort, or {@code null} for a root
 * @param flavor the flavor the quota is for
 * @param quota the cohort's own nominal quota; empty for none
 * @param borrowingLimit per resource of {@code quota}; only with a parent
 * @param lendingLimit per resource of {@code quota}; only with a parent
 */
public record ScenarioCohort(String name, @Nullable String parent, String flavor, ResourceList quota,
    ResourceList borrowingLimit, ResourceList lendingLimit) {
  /** The flavor of a cohort's quota when none is named (the queues' default flavor). */
  public static final String DEFAULT_FLAVOR = "default";

  public ScenarioCohort {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(flavor, "flavor");
    Objects.requireNonNull(quota, "quota");
    Objects.requireNonNull(borrowingLimit, "borrowingLimit");
    Objects.requireNonNull(lendingLimit, "lendingLimit");
  }

  /** A cohort without quota of its own under {@code parent} ({@code null} for a root). */
  public static ScenarioCohort of(String name, @Nullable String parent) {
    return new ScenarioCohort(name, parent, DEFAULT_FLAVOR, ResourceList.EMPTY, ResourceList.EMPTY,
        ResourceList.EMPTY);
  }

  /** A cohort with the nominal {@code quota} of {@code flavor} and no limits. */
  public static ScenarioCohort of(String name, @Nullable String parent, String flavor, ResourceList quota) {
    return new ScenarioCohort(name, parent, flavor, quota, ResourceList.EMPTY, ResourceList.EMPTY);
  }

  /** This cohort with borrowing and lending limits. */
  public ScenarioCohort withLimits(ResourceList borrowingLimit, ResourceList lendingLimit) {
    return new ScenarioCohort(name, parent, flavor, quota, borrowingLimit, lendingLimit);
  }
}
