package io.fleetkit.adapter.slurm;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Enables the live Slurm tests only when a Slurm is configured ({@code fleetkit.slurm.url} or
 * {@code FLEETKIT_SLURM_URL}); otherwise every test is reported as skipped with the reason and how to run them.
 */
final class LiveSlurmCondition implements ExecutionCondition {
  static String url() {
    String v = System.getProperty("fleetkit.slurm.url");
    return v == null || v.isBlank() ? System.getenv("FLEETKIT_SLURM_URL") : v;
  }

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    String url = url();
    if (url == null || url.isBlank()) {
      return ConditionEvaluationResult.disabled("live Slurm tests skipped: fleetkit.slurm.url is not set (start a "
          + "Slurm with scripts/slurm-local.sh start and pass -Dfleetkit.slurm.url=http://127.0.0.1:6820 "
          + "-Dfleetkit.slurm.tokenFile=/tmp/fleetkit-slurm/jwt.token, as .ci/run does)");
    }
    return ConditionEvaluationResult.enabled("fleetkit.slurm.url=" + url);
  }
}
