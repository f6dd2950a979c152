package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.manifest.KueueObject;
import io.fleetkit.queueing.manifest.ResourceFlavorObject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Kueue's ResourceFlavor, {@code kueue.x-k8s.io/v1beta2} and {@code v1beta1} (the same fields): {@code nodeLabels},
 * {@code nodeTaints}, {@code tolerations} and {@code topologyName}, validated by {@link ResourceFlavor} as Kueue's
 * webhook does (label keys and values, taints unique by key and effect, tolerations).
 */
public final class ResourceFlavorConverter
    extends AbstractKindConverter<GenericKubernetesResource, ResourceFlavorObject> {
  private static final Set<String> FIELDS = Set.of("nodeLabels", "nodeTaints", "tolerations", "topologyName");

  public ResourceFlavorConverter() {
    super(KueueObject.V1BETA2, ResourceFlavor.KIND, false, GenericKubernetesResource.class,
        ResourceFlavorObject.class);
  }

  @Override
  public Set<String> apiVersions() {
    return KueueObject.VERSIONS;
  }

  @Override
  public @Nullable ResourceFlavorObject toCore(GenericKubernetesResource in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), false, ctx);
    String version = KueueYaml.version(in);
    Map<String, Object> spec = GenericKinds.section(in, "spec", ctx);
    KueueYaml.known(spec, FIELDS, version, "spec", ctx);
    var labels = Untyped.stringMap(spec, "nodeLabels", "spec.nodeLabels", ctx);
    var taints = UntypedScheduling.taints(spec, "nodeTaints", "spec.nodeTaints", ctx);
    var tolerations = UntypedScheduling.tolerations(spec, "tolerations", "spec.tolerations", ctx);
    String topology = Untyped.string(spec, "topologyName", "", "spec.topologyName", ctx);
    if (ctx.hasErrors()) {
      return null;
    }
    ResourceFlavor flavor = ctx.build("", () -> new ResourceFlavor(meta.name(), labels, taints, tolerations,
        topology.isEmpty() ? null : topology));
    return flavor == null ? null : ctx.build("", () -> new ResourceFlavorObject(version, meta, flavor));
  }

  @Override
  public GenericKubernetesResource toFabric8(ResourceFlavorObject in) {
    ResourceFlavor f = in.spec();
    Map<String, Object> spec = new LinkedHashMap<>();
    Untyped.put(spec, "nodeLabels", new TreeMap<>(f.nodeLabels()));
    Untyped.put(spec, "nodeTaints", UntypedScheduling.write(f.nodeTaints()));
    Untyped.put(spec, "tolerations", UntypedScheduling.writeTolerations(f.tolerations()));
    Untyped.put(spec, "topologyName", f.topologyName());
    return GenericKinds.resource(in, spec, null);
  }
}
