package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.rollouts.AnalysisTemplate;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** {@code argoproj.io/v1alpha1 AnalysisTemplate}: {@code spec.metrics} and {@code spec.args}. */
public final class AnalysisTemplateConverter
    extends AbstractKindConverter<GenericKubernetesResource, AnalysisTemplate> {
  public AnalysisTemplateConverter() {
    super(AnalysisTemplate.API_VERSION, AnalysisTemplate.KIND, true, GenericKubernetesResource.class,
        AnalysisTemplate.class);
  }
  @Override
  public @Nullable AnalysisTemplate toCore(GenericKubernetesResource in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    Map<String, Object> spec = GenericKinds.section(in, "spec", ctx);
    var metrics = RolloutYaml.metrics(spec, meta.namespace(), "spec.metrics", ctx);
    var args = RolloutYaml.args(spec, "spec.args", ctx);
    return ctx.build("", () -> new AnalysisTemplate(meta, metrics, args));
  }

  @Override
  public GenericKubernetesResource toFabric8(AnalysisTemplate in) {
    Map<String, Object> spec = new LinkedHashMap<>();
    Untyped.put(spec, "args", RolloutYaml.args(in.args()));
    spec.put("metrics", RolloutYaml.metrics(in.metrics(), in.metadata().namespace()));
    return GenericKinds.resource(in, spec, null);
  }
}
