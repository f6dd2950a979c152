package io.fleetkit.api.batch;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One rule of a {@link PodFailurePolicy} (batch/v1 {@code PodFailurePolicyRule}): the action taken when a failed pod
 * meets exactly one of the requirements, {@code onExitCodes} or {@code onPodConditions} (any pattern matching one of
 * the pod's conditions). The Job that holds it validates that exactly one is given.
 *
 * @param action {@code null} only in a rule the Job's validation refuses ({@code Required value})
 * @param onPodConditions empty when the rule is on exit codes
 */
public record PodFailurePolicyRule(@Nullable PodFailurePolicyAction action,
    @Nullable PodFailurePolicyOnExitCodesRequirement onExitCodes,
    List<PodFailurePolicyOnPodConditionsPattern> onPodConditions) {
  public PodFailurePolicyRule {
    onPodConditions = List.copyOf(onPodConditions);
  }

  /** A rule on exit codes. */
  public static PodFailurePolicyRule onExitCodes(PodFailurePolicyAction action,
      PodFailurePolicyOnExitCodesRequirement requirement) {
    return new PodFailurePolicyRule(action, requirement, List.of());
  }

  /** A rule on pod conditions. */
  public static PodFailurePolicyRule onPodConditions(PodFailurePolicyAction action,
      PodFailurePolicyOnPodConditionsPattern... patterns) {
    return new PodFailurePolicyRule(action, null, List.of(patterns));
  }
}
