package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.TopologySelectorLabelRequirementBuilder;
import io.fabric8.kubernetes.api.model.TopologySelectorTermBuilder;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.core.PersistentVolumeReclaimPolicy;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.storage.StorageClass;
import io.fleetkit.api.storage.StorageClassSpec;
import io.fleetkit.api.storage.TopologySelectorLabelRequirement;
import io.fleetkit.api.storage.TopologySelectorTerm;
import io.fleetkit.api.storage.VolumeBindingMode;
import org.jspecify.annotations.Nullable;

/** storage.k8s.io/v1 StorageClass; reclaimPolicy defaults to Delete and volumeBindingMode to Immediate. */
public final class StorageClassConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.storage.StorageClass, StorageClass> {
  public StorageClassConverter() {
    super(StorageClass.API_VERSION, StorageClass.KIND, false,
        io.fabric8.kubernetes.api.model.storage.StorageClass.class, StorageClass.class);
  }

  @Override
  public @Nullable StorageClass toCore(io.fabric8.kubernetes.api.model.storage.StorageClass in,
      DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), false, ctx);
    String provisioner = Values.required(in.getProvisioner(), "provisioner", ctx);
    var parameters = Values.stringMap(in.getParameters(), "parameters", ctx);
    var reclaim = Values.enumValue(PersistentVolumeReclaimPolicy.class, in.getReclaimPolicy(),
        PersistentVolumeReclaimPolicy.Delete, "reclaimPolicy", ctx);
    var binding = Values.enumValue(VolumeBindingMode.class, in.getVolumeBindingMode(), VolumeBindingMode.Immediate,
        "volumeBindingMode", ctx);
    var topologies = Fabric8Scheduling.list(in.getAllowedTopologies(), "allowedTopologies", ctx, (t, p, cx) -> {
      var reqs = Fabric8Scheduling.list(t.getMatchLabelExpressions(), p + ".matchLabelExpressions", cx,
          (r, rp, rcx) -> rcx.build(rp, () -> new TopologySelectorLabelRequirement(
              Values.required(r.getKey(), rp + ".key", rcx), Values.stringList(r.getValues(), rp + ".values", rcx))));
      return cx.build(p, () -> new TopologySelectorTerm(reqs));
    });
    var mountOptions = Values.stringList(in.getMountOptions(), "mountOptions", ctx);
    StorageClassSpec spec = ctx.build("", () -> new StorageClassSpec(provisioner, parameters, reclaim, binding,
        Values.boolOr(in.getAllowVolumeExpansion(), false), topologies, mountOptions));
    return spec == null ? null : ctx.build("", () -> new StorageClass(meta, spec));
  }

  @Override
  public io.fabric8.kubernetes.api.model.storage.StorageClass toFabric8(StorageClass in) {
    StorageClassSpec s = in.spec();
    return new StorageClassBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withProvisioner(s.provisioner())
        .withParameters(Values.emptyToNull(new java.util.TreeMap<>(s.parameters())))
        .withReclaimPolicy(s.reclaimPolicy() == PersistentVolumeReclaimPolicy.Delete ? null : s.reclaimPolicy().name())
        .withVolumeBindingMode(s.volumeBindingMode() == VolumeBindingMode.Immediate ? null
            : s.volumeBindingMode().name())
        .withAllowVolumeExpansion(s.allowVolumeExpansion() ? Boolean.TRUE : null)
        .withAllowedTopologies(Fabric8Scheduling.out(s.allowedTopologies(), t -> new TopologySelectorTermBuilder()
            .withMatchLabelExpressions(Fabric8Scheduling.out(t.matchLabelExpressions(),
                r -> new TopologySelectorLabelRequirementBuilder().withKey(r.key())
                    .withValues(Values.emptyToNull(r.values())).build())).build()))
        .withMountOptions(Values.emptyToNull(s.mountOptions()))
        .build();
  }
}
