package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.manifest.KueueObject;
import io.fleetkit.queueing.manifest.LocalQueueObject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Kueue's LocalQueue, {@code kueue.x-k8s.io/v1beta2} and {@code v1beta1} (the same fields): {@code clusterQueue}
 * (required: a LocalQueue without one admits nothing), {@code stopPolicy} and {@code fairSharing.weight}.
 */
public final class LocalQueueConverter extends AbstractKindConverter<GenericKubernetesResource, LocalQueueObject> {
  private static final Set<String> FIELDS = Set.of("clusterQueue", "stopPolicy", "fairSharing");

  public LocalQueueConverter() {
    super(KueueObject.V1BETA2, LocalQueue.KIND, true, GenericKubernetesResource.class, LocalQueueObject.class);
  }

  @Override
  public Set<String> apiVersions() {
    return KueueObject.VERSIONS;
  }

  @Override
  public @Nullable LocalQueueObject toCore(GenericKubernetesResource in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    String version = KueueYaml.version(in);
    Map<String, Object> spec = GenericKinds.section(in, "spec", ctx);
    KueueYaml.known(spec, FIELDS, version, "spec", ctx);
    String clusterQueue = Untyped.string(spec, "clusterQueue", "", "spec.clusterQueue", ctx);
    if (clusterQueue.isEmpty()) {
      ctx.error("spec.clusterQueue", "is required", null);
    }
    var stop = KueueYaml.stopPolicy(spec, ctx);
    var weight = KueueYaml.fairSharingWeight(spec, "spec.fairSharing", ctx);
    if (ctx.hasErrors() || stop == null || weight == null) {
      return null;
    }
    LocalQueue queue = ctx.build("", () -> new LocalQueue(meta.namespace(), meta.name(), clusterQueue, stop,
        weight));
    return queue == null ? null : ctx.build("", () -> new LocalQueueObject(version, meta, queue));
  }

  @Override
  public GenericKubernetesResource toFabric8(LocalQueueObject in) {
    LocalQueue q = in.spec();
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("clusterQueue", q.clusterQueue());
    KueueYaml.putStopPolicy(spec, q.stopPolicy());
    KueueYaml.putFairSharing(spec, q.fairSharingWeight());
    return GenericKinds.resource(in, spec, null);
  }
}
