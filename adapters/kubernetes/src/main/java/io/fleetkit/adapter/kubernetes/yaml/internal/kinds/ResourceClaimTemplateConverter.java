package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.dra.DeviceClaim;
import io.fleetkit.api.resource.dra.ResourceClaimSpec;
import io.fleetkit.api.resource.dra.ResourceClaimTemplate;
import io.fleetkit.api.resource.dra.ResourceClaimTemplateSpec;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * resource.k8s.io/v1 ResourceClaimTemplate: {@code spec.metadata} (labels and annotations only, as Kubernetes
 * allows) and {@code spec.spec}, the claim spec (see {@link ResourceClaimConverter}).
 */
public final class ResourceClaimTemplateConverter extends AbstractKindConverter<
    io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate, ResourceClaimTemplate> {
  public ResourceClaimTemplateConverter() {
    super(ResourceClaimTemplate.API_VERSION, ResourceClaimTemplate.KIND, true,
        io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate.class, ResourceClaimTemplate.class);
  }

  @Override
  public @Nullable ResourceClaimTemplate toCore(io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate in,
      DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    var s = in.getSpec();
    Map<String, String> labels = Map.of();
    Map<String, String> annotations = Map.of();
    DeviceClaim devices = new DeviceClaim(java.util.List.of(), java.util.List.of());
    if (s != null) {
      var m = s.getMetadata();
      if (m != null) {
        labels = Values.stringMap(m.getLabels(), "spec.metadata.labels", ctx);
        annotations = Values.stringMap(m.getAnnotations(), "spec.metadata.annotations", ctx);
        boolean others = m.getName() != null || m.getGenerateName() != null || m.getNamespace() != null
            || m.getUid() != null || m.getResourceVersion() != null || m.getGeneration() != null
            || m.getCreationTimestamp() != null || m.getDeletionTimestamp() != null
            || m.getOwnerReferences() != null && !m.getOwnerReferences().isEmpty()
            || m.getFinalizers() != null && !m.getFinalizers().isEmpty();
        if (others) {
          ctx.error("spec.metadata", "Forbidden: only labels and annotations may be set (they are copied to the "
              + "generated claims)", null);
        }
      }
      devices = DraYaml.deviceClaim(s.getSpec() == null ? null : s.getSpec().getDevices(), "spec.spec.devices", ctx);
    }
    if (ctx.hasErrors()) {
      return null;
    }
    var spec = new ResourceClaimTemplateSpec(labels, annotations, new ResourceClaimSpec(devices));
    return ctx.build("", () -> new ResourceClaimTemplate(meta, spec));
  }

  @Override
  public io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate toFabric8(ResourceClaimTemplate in) {
    var claimSpec = new io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec();
    claimSpec.setDevices(DraYaml.deviceClaim(in.spec().spec().devices()));
    var spec = new io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateSpec();
    if (!in.spec().labels().isEmpty() || !in.spec().annotations().isEmpty()) {
      spec.setMetadata(new ObjectMetaBuilder()
          .withLabels(Values.emptyToNull(new TreeMap<>(in.spec().labels())))
          .withAnnotations(Values.emptyToNull(new TreeMap<>(in.spec().annotations()))).build());
    }
    spec.setSpec(claimSpec);
    var out = new io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate();
    out.setApiVersion(apiVersion());
    out.setKind(kind());
    out.setMetadata(Fabric8Meta.toFabric8(in.metadata()));
    out.setSpec(spec);
    return out;
  }
}
