package io.fleetkit.queueing;

import io.fleetkit.api.resource.Quantity;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The quota of one resource in one flavor of a {@link ClusterQueue} (Kueue {@code ResourceQuota}).
 *
 * @param name the resource name, e.g. {@code cpu}
 * @param nominalQuota what the ClusterQueue is guaranteed (and lends to its cohort while unused)
 * @param borrowingLimit how much it may borrow from its cohort above {@code nominalQuota}; {@code null} means no limit
 *     beyond what the cohort can lend
 * @param lendingLimit how much of its unused nominal quota it lends to the cohort; {@code null} means all of it
 */
public record FlavorResourceQuota(
    String name, Quantity nominalQuota, @Nullable Quantity borrowingLimit, @Nullable Quantity lendingLimit) {

  public FlavorResourceQuota {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(nominalQuota, "nominalQuota");
  }

  /** A quota without borrowing or lending limits, e.g. {@code of("cpu", "6")}. */
  public static FlavorResourceQuota of(String name, String nominalQuota) {
    return new FlavorResourceQuota(name, Quantity.parse(nominalQuota), null, null);
  }

  /** A quota with a borrowing limit. */
  public static FlavorResourceQuota of(String name, String nominalQuota, String borrowingLimit) {
    return new FlavorResourceQuota(name, Quantity.parse(nominalQuota), Quantity.parse(borrowingLimit), null);
  }

  /** This quota with {@code lendingLimit}. */
  public FlavorResourceQuota withLendingLimit(String lendingLimit) {
    return new FlavorResourceQuota(name, nominalQuota, borrowingLimit, Quantity.parse(lendingLimit));
  }
}
