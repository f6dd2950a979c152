package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.queueing.AdmissionCheck;
import io.fleetkit.queueing.manifest.AdmissionCheckObject;
import io.fleetkit.queueing.manifest.KueueObject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Kueue's AdmissionCheck, {@code kueue.x-k8s.io/v1beta2} and {@code v1beta1}: {@code controllerName} (required) and
 * {@code parameters} ({@code apiGroup}, {@code kind}, {@code name}), validated by {@link AdmissionCheckObject} as
 * Kueue's CRD does. v1beta1's deprecated {@code retryDelayMinutes} is checked and dropped with a warning, as
 * Kueue's conversion to v1beta2 drops it (a check's retry delay is its state's {@code requeueAfterSeconds}). Whether
 * a check is Active is its controller's to say: the status is not modelled.
 */
public final class AdmissionCheckConverter
    extends AbstractKindConverter<GenericKubernetesResource, AdmissionCheckObject> {
  private static final Set<String> V1BETA2_FIELDS = Set.of("controllerName", "parameters");
  private static final Set<String> V1BETA1_FIELDS = Set.of("controllerName", "parameters", "retryDelayMinutes");
  private static final Set<String> PARAMETER_FIELDS = Set.of("apiGroup", "kind", "name");

  public AdmissionCheckConverter() {
    super(KueueObject.V1BETA2, AdmissionCheck.KIND, false, GenericKubernetesResource.class,
        AdmissionCheckObject.class);
  }

  @Override
  public Set<String> apiVersions() {
    return KueueObject.VERSIONS;
  }

  @Override
  public @Nullable AdmissionCheckObject toCore(GenericKubernetesResource in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), false, ctx);
    String version = KueueYaml.version(in);
    boolean v1beta1 = KueueObject.V1BETA1.equals(version);
    Map<String, Object> spec = GenericKinds.section(in, "spec", ctx);
    KueueYaml.known(spec, v1beta1 ? V1BETA1_FIELDS : V1BETA2_FIELDS, version, "spec", ctx);
    String controller = Untyped.string(spec, "controllerName", "", "spec.controllerName", ctx);
    if (controller.isEmpty()) {
      ctx.error("spec.controllerName", "is required", null);
    }
    if (v1beta1) {
      Long retry = Untyped.integer(spec, "retryDelayMinutes", "spec.retryDelayMinutes", ctx);
      if (retry != null && retry < 0) {
        ctx.error("spec.retryDelayMinutes", "must be greater than or equal to 0", retry);
      }
    }
    AdmissionCheck.Parameters parameters = null;
    if (spec.get("parameters") != null) {
      Map<String, Object> p = Untyped.map(spec, "parameters", "spec.parameters", ctx);
      Untyped.known(p, PARAMETER_FIELDS, "spec.parameters", ctx);
      parameters = new AdmissionCheck.Parameters(Untyped.string(p, "apiGroup", "", "spec.parameters.apiGroup", ctx),
          Untyped.string(p, "kind", "", "spec.parameters.kind", ctx),
          Untyped.string(p, "name", "", "spec.parameters.name", ctx));
    }
    if (ctx.hasErrors()) {
      return null;
    }
    AdmissionCheck.Parameters ref = parameters;
    AdmissionCheck check = ctx.build("", () -> AdmissionCheck.of(meta.name(), controller).withParameters(ref));
    return check == null ? null : ctx.build("", () -> new AdmissionCheckObject(version, meta, check));
  }

  @Override
  public GenericKubernetesResource toFabric8(AdmissionCheckObject in) {
    AdmissionCheck c = in.spec();
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("controllerName", c.controllerName());
    AdmissionCheck.Parameters p = c.parameters();
    if (p != null) {
      Map<String, Object> pm = new LinkedHashMap<>();
      pm.put("apiGroup", p.apiGroup());
      pm.put("kind", p.kind());
      pm.put("name", p.name());
      spec.put("parameters", pm);
    }
    return GenericKinds.resource(in, spec, null);
  }
}
