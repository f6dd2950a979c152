package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.AnyType;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.api.apps.ControllerRevision;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * apps/v1 ControllerRevision. Its {@code data} is read and written in the form Kubernetes' StatefulSet and DaemonSet
 * controllers store, a patch of the owner that replaces its pod template:
 * {@code {"spec": {"template": {..., "$patch": "replace"}}}}; FleetKit keeps the template only, so any other key of
 * {@code data} is refused. {@code revision} defaults to 0.
 */
public final class ControllerRevisionConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.apps.ControllerRevision, ControllerRevision> {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static final String PATCH = "$patch";

  public ControllerRevisionConverter() {
    super(ControllerRevision.API_VERSION, ControllerRevision.KIND, true,
        io.fabric8.kubernetes.api.model.apps.ControllerRevision.class, ControllerRevision.class);
  }

  @Override
  public @Nullable ControllerRevision toCore(io.fabric8.kubernetes.api.model.apps.ControllerRevision in,
      DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    PodTemplateSpec template = template(in.getData(), ctx);
    long revision = in.getRevision() == null ? 0 : in.getRevision();
    return template == null ? null : ctx.build("", () -> new ControllerRevision(meta, template, revision));
  }

  private static @Nullable PodTemplateSpec template(@Nullable Object data, DocumentContext ctx) {
    if (data instanceof AnyType raw) { // fabric8 reads data as a RawExtension
      data = raw.getValue();
    }
    if (data == null) {
      ctx.error("data", "is required (data is mandatory)", null);
      return null;
    }
    Map<?, ?> dataMap = onlyKey(data, "data", "spec", ctx);
    Map<?, ?> specMap = dataMap == null ? null : onlyKey(dataMap.get("spec"), "data.spec", "template", ctx);
    if (specMap == null) {
      return null;
    }
    Object t = specMap.get("template");
    if (!(t instanceof Map<?, ?> tm)) {
      ctx.error("data.spec.template", "must be a pod template (an object)", String.valueOf(t));
      return null;
    }
    Map<Object, Object> copy = new LinkedHashMap<>(tm);
    Object patch = copy.remove(PATCH);
    if (patch != null && !"replace".equals(patch)) {
      ctx.error("data.spec.template.$patch", "must be \"replace\" (a revision replaces the template)", patch);
      return null;
    }
    io.fabric8.kubernetes.api.model.PodTemplateSpec f8;
    try {
      f8 = SERIALIZATION.convertValue(copy, io.fabric8.kubernetes.api.model.PodTemplateSpec.class);
    } catch (RuntimeException e) {
      ctx.error("data.spec.template", "is not a pod template: " + e.getMessage(), null);
      return null;
    }
    return PodSpecs.template(f8, "data.spec.template", ctx);
  }

  /** {@code value} as an object whose one key is {@code key}, else a problem at {@code path} and null. */
  private static @Nullable Map<?, ?> onlyKey(@Nullable Object value, String path, String key,
      DocumentContext ctx) {
    if (!(value instanceof Map<?, ?> m)) {
      ctx.error(path, "must be an object with \"" + key + "\" (FleetKit keeps a revision's pod template,"
          + " data.spec.template)", String.valueOf(value));
      return null;
    }
    for (Object k : m.keySet()) {
      if (!key.equals(k)) {
        ctx.error(path + "." + k, "is not supported: FleetKit keeps a revision's pod template only"
            + " (data.spec.template)", null);
      }
    }
    if (!m.containsKey(key)) {
      ctx.error(path + "." + key, "is required", null);
      return null;
    }
    return m.size() == 1 ? m : null;
  }

  @Override
  public io.fabric8.kubernetes.api.model.apps.ControllerRevision toFabric8(ControllerRevision in) {
    @SuppressWarnings("unchecked")
    Map<String, Object> template = new LinkedHashMap<>(SERIALIZATION.convertValue(PodSpecs.template(in.data()),
        Map.class));
    template.put(PATCH, "replace");
    return new ControllerRevisionBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withData(Map.of("spec", Map.of("template", template)))
        .withRevision(in.revision())
        .build();
  }
}
