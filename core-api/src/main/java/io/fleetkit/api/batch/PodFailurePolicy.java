package io.fleetkit.api.batch;

import java.util.List;

/**
 * How failed pods of a Job count (batch/v1 {@code PodFailurePolicy}, GA in Kubernetes 1.31): the rules are tried in
 * order against each failed pod and the first that matches decides ({@link PodFailurePolicyAction}); a failure no
 * rule matches counts towards {@code backoffLimit}. The Job that holds it validates it (at most 20 rules; its pod
 * template's restartPolicy must be {@code Never}).
 */
public record PodFailurePolicy(List<PodFailurePolicyRule> rules) {
  /** Upstream's {@code maxPodFailurePolicyRules}. */
  public static final int MAX_RULES = 20;
  /** Upstream's {@code maxPodFailurePolicyOnExitCodesValues}. */
  public static final int MAX_EXIT_CODE_VALUES = 255;
  /** Upstream's {@code maxPodFailurePolicyOnPodConditionsPatterns}. */
  public static final int MAX_POD_CONDITION_PATTERNS = 20;

  public PodFailurePolicy {
    rules = List.copyOf(rules);
  }

  public static PodFailurePolicy of(PodFailurePolicyRule... rules) {
    return new PodFailurePolicy(List.of(rules));
  }
}
