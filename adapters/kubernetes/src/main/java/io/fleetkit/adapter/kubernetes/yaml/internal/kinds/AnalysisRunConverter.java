package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.rollouts.AnalysisRun;
import io.fleetkit.api.rollouts.AnalysisRunSpec;
import io.fleetkit.api.rollouts.AnalysisRunStatus;
import io.fleetkit.api.rollouts.MetricResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code argoproj.io/v1alpha1 AnalysisRun}: {@code spec.metrics}, {@code spec.args}, {@code spec.terminate}. The
 * status is written (phase, message, startedAt, per metric its phase and counters) but not read back: a run's
 * status belongs to its controller.
 */
public final class AnalysisRunConverter extends AbstractKindConverter<GenericKubernetesResource, AnalysisRun> {
  public AnalysisRunConverter() {
    super(AnalysisRun.API_VERSION, AnalysisRun.KIND, true, GenericKubernetesResource.class, AnalysisRun.class);
  }
  @Override
  public @Nullable AnalysisRun toCore(GenericKubernetesResource in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    Map<String, Object> spec = GenericKinds.section(in, "spec", ctx);
    var metrics = RolloutYaml.metrics(spec, meta.namespace(), "spec.metrics", ctx);
    var args = RolloutYaml.args(spec, "spec.args", ctx);
    Boolean terminate = Untyped.bool(spec, "terminate", "spec.terminate", ctx);
    return ctx.build("", () -> new AnalysisRun(meta, new AnalysisRunSpec(metrics, args,
        terminate != null && terminate), AnalysisRunStatus.EMPTY));
  }

  @Override
  public GenericKubernetesResource toFabric8(AnalysisRun in) {
    Map<String, Object> spec = new LinkedHashMap<>();
    Untyped.put(spec, "args", RolloutYaml.args(in.spec().args()));
    spec.put("metrics", RolloutYaml.metrics(in.spec().metrics(), in.metadata().namespace()));
    Untyped.put(spec, "terminate", in.spec().terminate() ? Boolean.TRUE : null);
    Map<String, Object> status = new LinkedHashMap<>();
    AnalysisRunStatus s = in.status();
    if (!s.equals(AnalysisRunStatus.EMPTY)) {
      status.put("phase", s.phase().name());
      Untyped.put(status, "message", Values.emptyToNull(s.message()));
      Untyped.put(status, "startedAt", Values.instant(s.startedAt()));
      List<Object> results = new ArrayList<>();
      for (MetricResult r : s.metricResults()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", r.name());
        m.put("phase", r.phase().name());
        m.put("count", r.count());
        m.put("successful", r.successful());
        m.put("failed", r.failed());
        m.put("inconclusive", r.inconclusive());
        m.put("error", r.error());
        m.put("consecutiveError", r.consecutiveError());
        Untyped.put(m, "message", Values.emptyToNull(r.message()));
        results.add(m);
      }
      status.put("metricResults", results);
    }
    return GenericKinds.resource(in, spec, status);
  }
}
