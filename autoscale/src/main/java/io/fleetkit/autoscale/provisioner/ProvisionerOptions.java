package io.fleetkit.autoscale.provisioner;

import io.fleetkit.api.meta.IntOrPercent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The provisioner's settings, with Karpenter's defaults ({@link #defaults()}).
 *
 * @param batchIdleDuration {@code BATCH_IDLE_DURATION} (1 s): a batch closes this long after its last new pod
 * @param batchMaxDuration {@code BATCH_MAX_DURATION} (10 s): a batch closes at the latest this long after it opened
 *     (so an idle duration above it never matters, as in Karpenter)
 * @param budgets the disruption budgets ({@code budgets: [{nodes: "10%"}]}); for each reason the most restrictive of
 *     those active that apply to it counts ({@link #allowedDisruptions}); none: no limit
 * @param policy the consolidation policy (WhenEmptyOrUnderutilized)
 * @param consolidateAfter {@code disruption.consolidateAfter} (0 s): how long after the last pod event on a node (a
 *     pod bound to it or gone from it; else since it became Ready) the node may be consolidated; {@code null}:
 *     {@code Never}, no consolidation at all
 * @param startupDelay how long a launched node takes to become Ready (0 s: at once)
 * @param multiNodeCandidates the most candidates multi-node consolidation considers (100)
 * @param expireAfter the NodePool template's {@code expireAfter} ({@link #DEFAULT_EXPIRE_AFTER}, 720 h): how long after
 *     its launch request a node is expired, deleted whatever the budgets and {@code do-not-disrupt};
 *     {@code null}: {@code Never}
 * @param terminationGracePeriod the NodePool template's {@code terminationGracePeriod} (unset by default): how long
 *     after its termination began a node's drain may wait on pods that PodDisruptionBudgets or {@code do-not-disrupt}
 *     keep, before the remaining pods are deleted (each early enough to get its own grace period by then);
 *     {@code null}: the drain waits for them as long as it takes
 */
public record ProvisionerOptions(Duration batchIdleDuration, Duration batchMaxDuration, List<DisruptionBudget> budgets,
    ConsolidationPolicy policy, @Nullable Duration consolidateAfter, Duration startupDelay, int multiNodeCandidates,
    @Nullable Duration expireAfter, @Nullable Duration terminationGracePeriod) {
  /** Karpenter's default {@code expireAfter}, 720 h (30 days). */
  public static final Duration DEFAULT_EXPIRE_AFTER = Duration.ofHours(720);
  private static final ProvisionerOptions DEFAULTS = new ProvisionerOptions(Duration.ofSeconds(1),
      Duration.ofSeconds(10), List.of(DisruptionBudget.DEFAULT), ConsolidationPolicy.WhenEmptyOrUnderutilized,
      Duration.ZERO, Duration.ZERO, 100, DEFAULT_EXPIRE_AFTER, null);

  public ProvisionerOptions {
    Objects.requireNonNull(batchIdleDuration, "batchIdleDuration");
    Objects.requireNonNull(batchMaxDuration, "batchMaxDuration");
    budgets = List.copyOf(budgets);
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(startupDelay, "startupDelay");
    if (batchIdleDuration.isNegative() || batchMaxDuration.isNegative()) {
      throw new IllegalArgumentException("provisioner options: batchIdleDuration " + batchIdleDuration
          + " and batchMaxDuration " + batchMaxDuration + " must not be negative");
    }
    if (startupDelay.isNegative() || multiNodeCandidates < 1 || (consolidateAfter != null
        && consolidateAfter.isNegative())) {
      throw new IllegalArgumentException("provisioner options: startupDelay " + startupDelay
          + " and consolidateAfter " + consolidateAfter + " must not be negative, multiNodeCandidates "
          + multiNodeCandidates + " must be positive");
    }
    if (expireAfter != null && expireAfter.isNegative()) {
      throw new IllegalArgumentException("provisioner options: expireAfter " + expireAfter + " must not be negative");
    }
    if (terminationGracePeriod != null && terminationGracePeriod.isNegative()) {
      throw new IllegalArgumentException("provisioner options: terminationGracePeriod " + terminationGracePeriod
          + " must not be negative");
    }
  }

  public static ProvisionerOptions defaults() {
    return DEFAULTS;
  }

  /**
   * How many of {@code nodes} managed nodes the budgets let be disrupted at once for {@code reason} at {@code now}: the
   * least of the budgets active at {@code now} that apply to it, percentages rounded up ({@link Integer#MAX_VALUE} when
   * none does), as Karpenter's {@code GetAllowedDisruptionsByReason}.
   */
  public int allowedDisruptions(int nodes, DisruptionReason reason, Instant now) {
    int allowed = Integer.MAX_VALUE;
    for (DisruptionBudget b : budgets) {
      if (b.appliesTo(reason)) {
        allowed = Math.min(allowed, b.allowedDisruptions(nodes, now));
      }
    }
    return allowed;
  }

  /** These options with batches closing {@code idle} after their last new pod, at the latest {@code max} after. */
  public ProvisionerOptions withBatchDurations(Duration idle, Duration max) {
    return new ProvisionerOptions(idle, max, budgets, policy, consolidateAfter, startupDelay, multiNodeCandidates,
        expireAfter, terminationGracePeriod);
  }

  /** These options with one budget of {@code b} for every reason. */
  public ProvisionerOptions withBudget(IntOrPercent b) {
    return withBudgets(List.of(DisruptionBudget.of(b)));
  }

  public ProvisionerOptions withBudgets(List<DisruptionBudget> b) {
    return new ProvisionerOptions(batchIdleDuration, batchMaxDuration, b, policy, consolidateAfter, startupDelay,
        multiNodeCandidates, expireAfter, terminationGracePeriod);
  }

  public ProvisionerOptions withPolicy(ConsolidationPolicy p) {
    return new ProvisionerOptions(batchIdleDuration, batchMaxDuration, budgets, p, consolidateAfter, startupDelay,
        multiNodeCandidates, expireAfter, terminationGracePeriod);
  }

  /** These options with another {@code consolidateAfter} ({@code null}: {@code Never}). */
  public ProvisionerOptions withConsolidateAfter(@Nullable Duration d) {
    return new ProvisionerOptions(batchIdleDuration, batchMaxDuration, budgets, policy, d, startupDelay,
        multiNodeCandidates, expireAfter, terminationGracePeriod);
  }

  public ProvisionerOptions withStartupDelay(Duration d) {
    return new ProvisionerOptions(batchIdleDuration, batchMaxDuration, budgets, policy, consolidateAfter, d,
        multiNodeCandidates, expireAfter, terminationGracePeriod);
  }

  /** These options with another {@code expireAfter} ({@code null}: {@code Never}). */
  public ProvisionerOptions withExpireAfter(@Nullable Duration d) {
    return new ProvisionerOptions(batchIdleDuration, batchMaxDuration, budgets, policy, consolidateAfter, startupDelay,
        multiNodeCandidates, d, terminationGracePeriod);
  }

  /** These options with another {@code terminationGracePeriod} ({@code null}: unset, the drain waits forever). */
  public ProvisionerOptions withTerminationGracePeriod(@Nullable Duration d) {
    return new ProvisionerOptions(batchIdleDuration, batchMaxDuration, budgets, policy, consolidateAfter, startupDelay,
        multiNodeCandidates, expireAfter, d);
  }
}
