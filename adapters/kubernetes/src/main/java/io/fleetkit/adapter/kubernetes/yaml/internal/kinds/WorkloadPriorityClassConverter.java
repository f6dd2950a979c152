package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.queueing.WorkloadPriorityClass;
import io.fleetkit.queueing.manifest.KueueObject;
import io.fleetkit.queueing.manifest.WorkloadPriorityClassObject;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Kueue's WorkloadPriorityClass, {@code kueue.x-k8s.io/v1beta2} and {@code v1beta1}: like a PriorityClass its fields
 * are at the top level, {@code value} (required, an int32) and {@code description}.
 */
public final class WorkloadPriorityClassConverter
    extends AbstractKindConverter<GenericKubernetesResource, WorkloadPriorityClassObject> {
  public WorkloadPriorityClassConverter() {
    super(KueueObject.V1BETA2, WorkloadPriorityClass.KIND, false, GenericKubernetesResource.class,
        WorkloadPriorityClassObject.class);
  }

  @Override
  public Set<String> apiVersions() {
    return KueueObject.VERSIONS;
  }

  @Override
  public Set<String> extensionFields() {
    return Set.of("value", "description");
  }

  @Override
  public @Nullable WorkloadPriorityClassObject toCore(GenericKubernetesResource in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), false, ctx);
    String version = KueueYaml.version(in);
    Map<String, Object> top = in.getAdditionalProperties() == null ? Map.of() : in.getAdditionalProperties();
    Integer value = Untyped.int32(top, "value", "value", ctx);
    if (!top.containsKey("value")) {
      ctx.error("value", "is required", null);
    }
    String description = Untyped.string(top, "description", "", "description", ctx);
    if (ctx.hasErrors() || value == null) {
      return null;
    }
    WorkloadPriorityClass wpc = ctx.build("", () -> new WorkloadPriorityClass(meta.name(), value, description));
    return wpc == null ? null : ctx.build("", () -> new WorkloadPriorityClassObject(version, meta, wpc));
  }

  @Override
  public GenericKubernetesResource toFabric8(WorkloadPriorityClassObject in) {
    GenericKubernetesResource out = GenericKinds.resource(in, null, null);
    out.setAdditionalProperty("value", in.spec().value());
    if (!in.spec().description().isEmpty()) {
      out.setAdditionalProperty("description", in.spec().description());
    }
    return out;
  }
}
