package io.fleetkit.api.rollouts;

import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A reusable set of metrics that judge an application version ({@code argoproj.io/v1alpha1 AnalysisTemplate}).
 * Rollouts name templates in their analysis steps; each use becomes an {@link AnalysisRun}. Has no status.
 *
 * @param metrics the metrics, at least one, unique names
 * @param args the arguments the metrics use, with optional defaults
 */
public record AnalysisTemplate(ObjectMeta metadata, List<Metric> metrics, List<AnalysisArgument> args)
    implements ApiObject<AnalysisTemplate> {
  public static final String API_VERSION = Rollout.API_VERSION;
  public static final String KIND = "AnalysisTemplate";

  public AnalysisTemplate {
    Objects.requireNonNull(metadata, "metadata");
    metrics = List.copyOf(metrics);
    args = List.copyOf(args);
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    AnalysisChecks.metrics(metrics, "spec.metrics", v);
    AnalysisChecks.args(args, "spec.args", v);
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
  public AnalysisTemplate withMetadata(ObjectMeta m) {
    return new AnalysisTemplate(m, metrics, args);
  }

  @Override
  public Object spec() {
    return List.of(metrics, args);
  }

  @Override
  public @Nullable Object status() {
    return null;
  }

  @Override
  public AnalysisTemplate withStatusOf(AnalysisTemplate other) {
    return this;
  }
}
