package io.fleetkit.autoscale.provisioner;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One consolidation decision (Karpenter's disruption {@code Command}).
 *
 * @param method {@code Emptiness}, {@code MultiNodeConsolidation} or {@code SingleNodeConsolidation}
 * @param candidates the nodes to remove
 * @param replacement the instance type launched in their place, or {@code null} for a plain delete
 * @param savingsPerHour the candidates' price minus the replacement's; positive
 */
public record ConsolidationCommand(String method, List<String> candidates, @Nullable String replacement,
    double savingsPerHour) {
  public ConsolidationCommand {
    Objects.requireNonNull(method, "method");
    candidates = List.copyOf(candidates);
  }

  public boolean isReplace() {
    return replacement != null;
  }
}
