package io.fleetkit.api.batch;

import org.jspecify.annotations.Nullable;

/**
 * One rule of a {@link SuccessPolicy} (batch/v1 {@code SuccessPolicyRule}). With only {@code succeededIndexes}, the
 * rule is met when all those indexes succeeded; with only {@code succeededCount}, when that many indexes succeeded;
 * with both, when that many of those indexes succeeded. The Job that holds it validates that at least one is given.
 *
 * @param succeededIndexes indexes in Kubernetes' interval form ({@code "0,2-4"}), increasing, each below
 *     {@code completions}; {@code null} when not constrained
 * @param succeededCount {@code null} when not constrained
 */
public record SuccessPolicyRule(@Nullable String succeededIndexes, @Nullable Integer succeededCount) {

  /** A rule met when all of {@code succeededIndexes} succeeded. */
  public static SuccessPolicyRule indexes(String succeededIndexes) {
    return new SuccessPolicyRule(succeededIndexes, null);
  }

  /** A rule met when {@code succeededCount} indexes succeeded. */
  public static SuccessPolicyRule count(int succeededCount) {
    return new SuccessPolicyRule(null, succeededCount);
  }
}
