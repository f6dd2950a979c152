package io.fleetkit.reconcile.rollouts.internal;

import io.fleetkit.api.rollouts.AnalysisPhase;
import io.fleetkit.api.rollouts.Metric;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Argo Rollouts' {@code EvaluateResult} ({@code utils/evaluate/evaluate.go}): judges one measured value by a metric's
 * success and failure conditions. Neither set: Successful. Only success set: Failed when it is false. Only failure
 * set: Successful when it is false. Both: failure true is Failed, success true is Successful, neither is
 * Inconclusive. An expression that cannot be evaluated is Error, with a message naming the condition, the
 * expression and, for an empty result, that the provider returned no data. Stateless.
 */
public final class MetricConditions {
  /** A judgement: the phase and, for Error, why. */
  public record Verdict(AnalysisPhase phase, String message) {}

  private MetricConditions() {}

  public static Verdict evaluate(@Nullable Object result, Metric metric) {
    boolean success = false;
    boolean failure = false;
    boolean hasSuccess = !metric.successCondition().isEmpty();
    boolean hasFailure = !metric.failureCondition().isEmpty();
    try {
      if (hasSuccess) {
        success = ConditionExpression.evalCondition(result, metric.successCondition());
      }
    } catch (ConditionExpression.EvalException e) {
      return new Verdict(AnalysisPhase.Error, error(e, "successCondition", metric.successCondition(), result));
    }
    try {
      if (hasFailure) {
        failure = ConditionExpression.evalCondition(result, metric.failureCondition());
      }
    } catch (ConditionExpression.EvalException e) {
      return new Verdict(AnalysisPhase.Error, error(e, "failureCondition", metric.failureCondition(), result));
    }
    if (!hasSuccess && !hasFailure) {
      return new Verdict(AnalysisPhase.Successful, "");
    } else if (hasSuccess && !hasFailure) {
      failure = !success;
    } else if (!hasSuccess) {
      success = !failure;
    }
    if (failure) {
      return new Verdict(AnalysisPhase.Failed, "");
    }
    if (!success) {
      return new Verdict(AnalysisPhase.Inconclusive, "");
    }
    return new Verdict(AnalysisPhase.Successful, "");
  }

  private static String error(ConditionExpression.EvalException e, String which, String expression,
      @Nullable Object result) {
    if (result == null || (result instanceof List<?> l && l.isEmpty())) {
      return "could not evaluate " + which + " \"" + expression + "\": metric result is nil or empty: no data "
          + "returned from the metric provider";
    }
    return "could not evaluate " + which + " \"" + expression + "\": " + e.getMessage();
  }
}
