package io.fleetkit.api.batch;

import java.util.List;

/**
 * When an Indexed Job succeeds before all its indexes have (batch/v1 {@code SuccessPolicy}, GA in Kubernetes 1.33):
 * the Job meets its success criteria as soon as one rule is satisfied; it then gets the {@code SuccessCriteriaMet}
 * condition (reason {@value JobCondition#REASON_SUCCESS_POLICY}), its remaining pods are deleted, and
 * {@code Complete} follows once none of them is terminating. The Job that holds it validates it (Indexed only, 1 to
 * 20 rules).
 */
public record SuccessPolicy(List<SuccessPolicyRule> rules) {
  /** Upstream's {@code maxSuccessPolicyRule}. */
  public static final int MAX_RULES = 20;
  /** Upstream's {@code maxJobSuccessPolicySucceededIndexesLimit}: the longest {@code succeededIndexes}, in bytes. */
  public static final int MAX_SUCCEEDED_INDEXES_LENGTH = 64 * 1024;

  public SuccessPolicy {
    rules = List.copyOf(rules);
  }

  public static SuccessPolicy of(SuccessPolicyRule... rules) {
    return new SuccessPolicy(List.of(rules));
  }
}
