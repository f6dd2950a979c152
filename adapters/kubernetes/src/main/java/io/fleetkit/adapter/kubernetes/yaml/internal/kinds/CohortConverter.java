package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.queueing.Cohort;
import io.fleetkit.queueing.manifest.CohortObject;
import io.fleetkit.queueing.manifest.KueueObject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Kueue's Cohort, {@code kueue.x-k8s.io/v1beta2} and {@code v1beta1} (the same fields; Kueue no longer serves
 * v1alpha1): {@code parentName}, {@code resourceGroups} and {@code fairSharing.weight}, validated by {@link Cohort}
 * as Kueue's webhook does.
 */
public final class CohortConverter extends AbstractKindConverter<GenericKubernetesResource, CohortObject> {
  private static final Set<String> FIELDS = Set.of("parentName", "resourceGroups", "fairSharing");

  public CohortConverter() {
    super(KueueObject.V1BETA2, Cohort.KIND, false, GenericKubernetesResource.class, CohortObject.class);
  }

  @Override
  public Set<String> apiVersions() {
    return KueueObject.VERSIONS;
  }

  @Override
  public @Nullable CohortObject toCore(GenericKubernetesResource in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), false, ctx);
    String version = KueueYaml.version(in);
    Map<String, Object> spec = GenericKinds.section(in, "spec", ctx);
    KueueYaml.known(spec, FIELDS, version, "spec", ctx);
    String parent = Untyped.string(spec, "parentName", "", "spec.parentName", ctx);
    var groups = KueueYaml.resourceGroups(spec, ctx);
    var weight = KueueYaml.fairSharingWeight(spec, "spec.fairSharing", ctx);
    if (ctx.hasErrors() || weight == null) {
      return null;
    }
    Cohort cohort = ctx.build("", () -> new Cohort(meta.name(), parent.isEmpty() ? null : parent, groups, weight));
    return cohort == null ? null : ctx.build("", () -> new CohortObject(version, meta, cohort));
  }

  @Override
  public GenericKubernetesResource toFabric8(CohortObject in) {
    Cohort c = in.spec();
    Map<String, Object> spec = new LinkedHashMap<>();
    Untyped.put(spec, "parentName", c.parent());
    Untyped.put(spec, "resourceGroups", KueueYaml.write(c.resourceGroups()));
    KueueYaml.putFairSharing(spec, c.fairSharingWeight());
    return GenericKinds.resource(in, spec, null);
  }
}
