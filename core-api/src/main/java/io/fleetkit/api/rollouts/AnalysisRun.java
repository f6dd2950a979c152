package io.fleetkit.api.rollouts;

import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Objects;

/**
 * One analysis in progress or done ({@code argoproj.io/v1alpha1 AnalysisRun}): metrics measured on their schedule,
 * judged by their conditions and limits, and combined into one phase (the worst of the metrics').
 */
public record AnalysisRun(ObjectMeta metadata, AnalysisRunSpec spec, AnalysisRunStatus status)
    implements ApiObject<AnalysisRun> {
  public static final String API_VERSION = Rollout.API_VERSION;
  public static final String KIND = "AnalysisRun";

  public AnalysisRun {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    AnalysisChecks.metrics(spec.metrics(), "spec.metrics", v);
    AnalysisChecks.args(spec.args(), "spec.args", v);
    v.throwIfAny();
  }

  @Override
  public String apiVersion() {
    return API_VERSION;
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public boolean namespaced() {
    return true;
  }

  @Override
  public AnalysisRun withMetadata(ObjectMeta m) {
    return new AnalysisRun(m, spec, status);
  }

  @Override
  public AnalysisRun withStatusOf(AnalysisRun other) {
    return new AnalysisRun(metadata, spec, other.status);
  }

  public AnalysisRun withSpec(AnalysisRunSpec s) {
    return new AnalysisRun(metadata, s, status);
  }

  public AnalysisRun withStatus(AnalysisRunStatus s) {
    return new AnalysisRun(metadata, spec, s);
  }
}
