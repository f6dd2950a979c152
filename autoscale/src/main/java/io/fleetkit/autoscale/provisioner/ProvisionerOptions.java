package io.fleetkit.autoscale.provisioner;

import io.fleetkit.api.meta.IntOrPercent;
import java.time.Duration;
import java.util.Objects;

/**
 * The provisioner's settings, with Karpenter's defaults ({@link #defaults()}).
 *
 * @param batchIdleDuration {@code BATCH_IDLE_DURATION} (1 s): a batch closes this long after its last new pod
 * @param batchMaxDuration {@code BATCH_MAX_DURATION} (10 s): a batch closes at the latest this long after it opened
 * @param budget the disruption budget ({@code budgets: [{nodes: "10%"}]}), rounded up against the managed nodes
 * @param policy the consolidation policy (WhenEmptyOrUnderutilized)
 * @param startupDelay how long a launched node takes to become Ready (0 s: at once)
 * @param multiNodeCandidates the most candidates multi-node consolidation considers (100)
 */
public record ProvisionerOptions(Duration batchIdleDuration, Duration batchMaxDuration, IntOrPercent budget,
    ConsolidationPolicy policy, Duration startupDelay, int multiNodeCandidates) {
  private static final ProvisionerOptions DEFAULTS = new ProvisionerOptions(Duration.ofSeconds(1),
      Duration.ofSeconds(10), IntOrPercent.ofPercent(10), ConsolidationPolicy.WhenEmptyOrUnderutilized, Duration.ZERO,
      100);

  public ProvisionerOptions {
    Objects.requireNonNull(batchIdleDuration, "batchIdleDuration");
    Objects.requireNonNull(batchMaxDuration, "batchMaxDuration");
    Objects.requireNonNull(budget, "budget");
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(startupDelay, "startupDelay");
    if (batchIdleDuration.isNegative() || batchMaxDuration.compareTo(batchIdleDuration) < 0) {
      throw new IllegalArgumentException("provisioner options: batchMaxDuration " + batchMaxDuration
          + " must be at least batchIdleDuration " + batchIdleDuration + ", which must not be negative");
    }
    if (startupDelay.isNegative() || multiNodeCandidates < 1 || budget.value() < 0) {
      throw new IllegalArgumentException("provisioner options: startupDelay " + startupDelay
          + " and budget " + budget + " must not be negative, multiNodeCandidates " + multiNodeCandidates
          + " must be positive");
    }
  }

  public static ProvisionerOptions defaults() {
    return DEFAULTS;
  }

  public ProvisionerOptions withBudget(IntOrPercent b) {
    return new ProvisionerOptions(batchIdleDuration, batchMaxDuration, b, policy, startupDelay, multiNodeCandidates);
  }

  public ProvisionerOptions withPolicy(ConsolidationPolicy p) {
    return new ProvisionerOptions(batchIdleDuration, batchMaxDuration, budget, p, startupDelay, multiNodeCandidates);
  }

  public ProvisionerOptions withStartupDelay(Duration d) {
    return new ProvisionerOptions(batchIdleDuration, batchMaxDuration, budget, policy, d, multiNodeCandidates);
  }
}
