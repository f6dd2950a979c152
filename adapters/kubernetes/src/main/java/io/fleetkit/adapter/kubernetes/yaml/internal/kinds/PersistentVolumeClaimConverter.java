package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimConditionBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimSpecBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimStatusBuilder;
import io.fabric8.kubernetes.api.model.VolumeResourceRequirementsBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Selectors;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.PersistentVolumeClaimCondition;
import io.fleetkit.api.core.PersistentVolumeClaimPhase;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeClaimStatus;
import io.fleetkit.api.core.PersistentVolumeMode;
import io.fleetkit.api.core.VolumeResourceRequirements;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * core/v1 PersistentVolumeClaim. An absent {@code storageClassName} (use the default class) stays distinct from
 * an empty one (no class), as in Kubernetes.
 */
public final class PersistentVolumeClaimConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.PersistentVolumeClaim, PersistentVolumeClaim> {
  public PersistentVolumeClaimConverter() {
    super(PersistentVolumeClaim.API_VERSION, PersistentVolumeClaim.KIND, true,
        io.fabric8.kubernetes.api.model.PersistentVolumeClaim.class, PersistentVolumeClaim.class);
  }

  @Override
  public @Nullable PersistentVolumeClaim toCore(io.fabric8.kubernetes.api.model.PersistentVolumeClaim in,
      DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    var s = in.getSpec() == null ? new io.fabric8.kubernetes.api.model.PersistentVolumeClaimSpec() : in.getSpec();
    PersistentVolumeClaimSpec spec = spec(s, "spec", ctx);
    PersistentVolumeClaimStatus status = PersistentVolumeClaimStatus.INITIAL;
    var st = in.getStatus();
    if (st != null) {
      var phase = Values.enumValue(PersistentVolumeClaimPhase.class, st.getPhase(), PersistentVolumeClaimPhase.Pending,
          "status.phase", ctx);
      var stModes = Values.enumList(PersistentVolumeAccessMode.class, st.getAccessModes(), "status.accessModes", ctx);
      var capacity = Values.resources(st.getCapacity(), "status.capacity", ctx);
      var conditions = Fabric8Scheduling.list(st.getConditions(), "status.conditions", ctx, (c, p, cx) -> {
        ConditionStatus cs = Values.requiredEnum(ConditionStatus.class, c.getStatus(), p + ".status", cx);
        var probe = Values.instant(c.getLastProbeTime(), p + ".lastProbeTime", cx);
        var transition = Values.instant(c.getLastTransitionTime(), p + ".lastTransitionTime", cx);
        return cs == null ? null : cx.build(p, () -> new PersistentVolumeClaimCondition(
            Values.required(c.getType(), p + ".type", cx), cs, probe, transition, Values.orEmpty(c.getReason()),
            Values.orEmpty(c.getMessage())));
      });
      status = ctx.build("status", () -> new PersistentVolumeClaimStatus(phase, stModes, capacity, conditions));
    }
    PersistentVolumeClaimStatus fs = status;
    return spec == null || fs == null ? null : ctx.build("", () -> new PersistentVolumeClaim(meta, spec, fs));
  }

  @Override
  public io.fabric8.kubernetes.api.model.PersistentVolumeClaim toFabric8(PersistentVolumeClaim in) {
    PersistentVolumeClaimSpec s = in.spec();
    PersistentVolumeClaimStatus st = in.status();
    return new PersistentVolumeClaimBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(spec(s))
        .withStatus(st.equals(PersistentVolumeClaimStatus.INITIAL) ? null : new PersistentVolumeClaimStatusBuilder()
            .withPhase(st.phase().name())
            .withAccessModes(Values.names(st.accessModes()))
            .withCapacity(Values.resources(st.capacity()))
            .withConditions(Fabric8Scheduling.out(st.conditions(), c -> new PersistentVolumeClaimConditionBuilder()
                .withType(c.type()).withStatus(c.status().name())
                .withLastProbeTime(Values.instant(c.lastProbeTime()))
                .withLastTransitionTime(Values.instant(c.lastTransitionTime()))
                .withReason(Values.emptyToNull(c.reason())).withMessage(Values.emptyToNull(c.message())).build()))
            .build())
        .build();
  }
  /**
   * A claim spec read under {@code path} (also the spec of an ephemeral volume's claim template); {@code null} when
   * a part could not be read (reported to {@code ctx}). The claim or pod that holds it checks its rules.
   */
  static @Nullable PersistentVolumeClaimSpec spec(io.fabric8.kubernetes.api.model.PersistentVolumeClaimSpec s,
      String path, DocumentContext ctx) {
    var modes = Values.enumList(PersistentVolumeAccessMode.class, s.getAccessModes(), path + ".accessModes", ctx);
    var selector = Fabric8Selectors.toCore(s.getSelector(), path + ".selector", ctx);
    var r = s.getResources();
    var requests = Values.resources(r == null ? null : r.getRequests(), path + ".resources.requests", ctx);
    var limits = Values.resources(r == null ? null : r.getLimits(), path + ".resources.limits", ctx);
    VolumeResourceRequirements resources = ctx.build(path + ".resources",
        () -> new VolumeResourceRequirements(requests, limits));
    var mode = Values.enumValue(PersistentVolumeMode.class, s.getVolumeMode(), PersistentVolumeMode.Filesystem,
        path + ".volumeMode", ctx);
    return resources == null ? null : ctx.build(path, () -> new PersistentVolumeClaimSpec(
        modes, selector, resources, s.getStorageClassName(), mode, Values.orEmpty(s.getVolumeName())));
  }

  /** {@code s} as fabric8's model, default values left out. */
  static io.fabric8.kubernetes.api.model.PersistentVolumeClaimSpec spec(PersistentVolumeClaimSpec s) {
    return new PersistentVolumeClaimSpecBuilder()
        .withAccessModes(Values.names(s.accessModes()))
        .withSelector(Fabric8Selectors.toFabric8(s.selector()))
        .withResources(s.resources().requests().isEmpty() && s.resources().limits().isEmpty() ? null
            : new VolumeResourceRequirementsBuilder().withRequests(Values.resources(s.resources().requests()))
                .withLimits(Values.resources(s.resources().limits())).build())
        .withStorageClassName(s.storageClassName())
        .withVolumeMode(s.volumeMode() == PersistentVolumeMode.Filesystem ? null : s.volumeMode().name())
        .withVolumeName(Values.emptyToNull(s.volumeName()))
        .build();
  }
}
