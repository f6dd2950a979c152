package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.queueing.Topology;
import io.fleetkit.queueing.manifest.KueueObject;
import io.fleetkit.queueing.manifest.TopologyObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Kueue's Topology, {@code kueue.x-k8s.io/v1beta2} and {@code v1beta1} (the same fields): {@code levels}, each a
 * {@code nodeLabel}, highest level first, validated by {@link Topology} as Kueue's CRD does (1 to 16 levels, label
 * keys, unique, {@code kubernetes.io/hostname} only as the lowest). A ResourceFlavor names it in {@code
 * spec.topologyName}: its workloads are then placed by topology-aware scheduling.
 */
public final class TopologyConverter extends AbstractKindConverter<GenericKubernetesResource, TopologyObject> {
  private static final Set<String> FIELDS = Set.of("levels");

  public TopologyConverter() {
    super(KueueObject.V1BETA2, Topology.KIND, false, GenericKubernetesResource.class, TopologyObject.class);
  }

  @Override
  public Set<String> apiVersions() {
    return KueueObject.VERSIONS;
  }

  @Override
  public @Nullable TopologyObject toCore(GenericKubernetesResource in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), false, ctx);
    String version = KueueYaml.version(in);
    Map<String, Object> spec = GenericKinds.section(in, "spec", ctx);
    KueueYaml.known(spec, FIELDS, version, "spec", ctx);
    List<String> levels = Untyped.entries(spec, "levels", "spec.levels", ctx, (m, p, c) -> {
      Untyped.known(m, Set.of("nodeLabel"), p, c);
      return Untyped.string(m, "nodeLabel", "", p + ".nodeLabel", c);
    });
    if (ctx.hasErrors()) {
      return null;
    }
    Topology topology = ctx.build("", () -> new Topology(meta.name(), levels));
    return topology == null ? null : ctx.build("", () -> new TopologyObject(version, meta, topology));
  }

  @Override
  public GenericKubernetesResource toFabric8(TopologyObject in) {
    List<Object> levels = new ArrayList<>();
    for (String l : in.spec().levels()) {
      levels.add(Map.of("nodeLabel", l));
    }
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("levels", levels);
    return GenericKinds.resource(in, spec, null);
  }
}
