package io.fleetkit.simulator;

import io.fleetkit.api.simulation.ScenarioProvisioner;
import io.fleetkit.autoscale.provisioner.ConsolidationPolicy;
import io.fleetkit.autoscale.provisioner.DisruptionBudget;
import io.fleetkit.autoscale.provisioner.DisruptionReason;
import io.fleetkit.autoscale.provisioner.ProvisionerOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The provisioner a scenario asks for ({@link ScenarioProvisioner}): Karpenter's defaults
 * ({@link ProvisionerOptions#defaults()}) with each option the scenario sets in its place. The start-up delay is not
 * among them: each launched node starts in its NodePool's ({@link ProvisionerLoop}).
 *
 * @param options the options the provisioner runs with
 */
record ProvisionerChoice(ProvisionerOptions options) {
  /** Karpenter's defaults: nothing set. */
  static final ProvisionerChoice DEFAULT = of(null);

  /**
   * The options of {@code p} ({@code null}: none set) over Karpenter's defaults.
   *
   * @throws IllegalArgumentException naming {@code spec.provisioner} when the provisioner refuses a value
   */
  static ProvisionerChoice of(@Nullable ScenarioProvisioner p) {
    ProvisionerOptions o = ProvisionerOptions.defaults();
    if (p == null) {
      return new ProvisionerChoice(o);
    }
    try {
      Duration idle = p.batchIdleDuration();
      Duration max = p.batchMaxDuration();
      o = o.withBatchDurations(idle == null ? o.batchIdleDuration() : idle, max == null ? o.batchMaxDuration() : max);
      String policy = p.consolidationPolicy();
      if (policy != null) {
        o = o.withPolicy(ConsolidationPolicy.valueOf(policy));
      }
      if (p.consolidatesNever()) {
        o = o.withConsolidateAfter(null);
      } else if (p.consolidateAfter() != null) {
        o = o.withConsolidateAfter(p.consolidateAfter());
      }
      if (p.expiresNever()) {
        o = o.withExpireAfter(null);
      } else if (p.expireAfter() != null) {
        o = o.withExpireAfter(p.expireAfter());
      }
      if (p.terminationGracePeriod() != null) {
        o = o.withTerminationGracePeriod(p.terminationGracePeriod());
      }
      if (!p.budgets().isEmpty()) {
        List<DisruptionBudget> budgets = new ArrayList<>();
        for (ScenarioProvisioner.Budget b : p.budgets()) {
          Set<DisruptionReason> reasons = new HashSet<>();
          for (String r : b.reasons()) {
            reasons.add(DisruptionReason.valueOf(r));
          }
          budgets.add(new DisruptionBudget(b.nodesValue(), reasons, b.scheduleValue(), b.duration()));
        }
        o = o.withBudgets(budgets);
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("spec.provisioner: " + e.getMessage(), e);
    }
    return new ProvisionerChoice(o);
  }
}
