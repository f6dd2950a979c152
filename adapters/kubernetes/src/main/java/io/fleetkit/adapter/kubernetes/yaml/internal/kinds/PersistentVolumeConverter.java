package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.CSIPersistentVolumeSourceBuilder;
import io.fabric8.kubernetes.api.model.HostPathVolumeSourceBuilder;
import io.fabric8.kubernetes.api.model.LocalVolumeSourceBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeSpecBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeStatusBuilder;
import io.fabric8.kubernetes.api.model.VolumeNodeAffinityBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.core.ClaimReference;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeMode;
import io.fleetkit.api.core.PersistentVolumePhase;
import io.fleetkit.api.core.PersistentVolumeReclaimPolicy;
import io.fleetkit.api.core.PersistentVolumeSource;
import io.fleetkit.api.core.PersistentVolumeSpec;
import io.fleetkit.api.core.PersistentVolumeStatus;
import io.fleetkit.api.core.VolumeNodeAffinity;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.scheduling.NodeSelector;
import org.jspecify.annotations.Nullable;

/**
 * core/v1 PersistentVolume. Sources: csi, hostPath and local (others are reported as unsupported). The reclaim
 * policy defaults to Retain and the volume mode to Filesystem, as Kubernetes defaults a manually created volume.
 */
public final class PersistentVolumeConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.PersistentVolume, PersistentVolume> {
  public PersistentVolumeConverter() {
    super(PersistentVolume.API_VERSION, PersistentVolume.KIND, false,
        io.fabric8.kubernetes.api.model.PersistentVolume.class, PersistentVolume.class);
  }

  @Override
  public @Nullable PersistentVolume toCore(io.fabric8.kubernetes.api.model.PersistentVolume in,
      DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), false, ctx);
    var s = in.getSpec() == null ? new io.fabric8.kubernetes.api.model.PersistentVolumeSpec() : in.getSpec();
    var capacity = Values.resources(s.getCapacity(), "spec.capacity", ctx);
    var modes = Values.enumList(PersistentVolumeAccessMode.class, s.getAccessModes(), "spec.accessModes", ctx);
    var reclaim = Values.enumValue(PersistentVolumeReclaimPolicy.class, s.getPersistentVolumeReclaimPolicy(),
        PersistentVolumeReclaimPolicy.Retain, "spec.persistentVolumeReclaimPolicy", ctx);
    var mode = Values.enumValue(PersistentVolumeMode.class, s.getVolumeMode(), PersistentVolumeMode.Filesystem,
        "spec.volumeMode", ctx);
    VolumeNodeAffinity nodeAffinity = null;
    if (s.getNodeAffinity() != null && s.getNodeAffinity().getRequired() != null) {
      NodeSelector required = Fabric8Scheduling.nodeSelector(s.getNodeAffinity().getRequired(),
          "spec.nodeAffinity.required", ctx);
      nodeAffinity = required == null ? null : ctx.build("spec.nodeAffinity", () -> new VolumeNodeAffinity(required));
    }
    ClaimReference claim = null;
    var ref = s.getClaimRef();
    if (ref != null) {
      claim = ctx.build("spec.claimRef", () -> new ClaimReference(Values.orEmpty(ref.getNamespace()),
          Values.required(ref.getName(), "spec.claimRef.name", ctx), Values.orEmpty(ref.getUid())));
    }
    PersistentVolumeSource source = source(s, ctx);
    var mountOptions = Values.stringList(s.getMountOptions(), "spec.mountOptions", ctx);
    VolumeNodeAffinity na = nodeAffinity;
    ClaimReference cr = claim;
    PersistentVolumeSpec spec = ctx.build("spec", () -> new PersistentVolumeSpec(capacity, modes, reclaim,
        Values.orEmpty(s.getStorageClassName()), mode, na, cr, mountOptions, source));
    PersistentVolumeStatus status = PersistentVolumeStatus.INITIAL;
    var st = in.getStatus();
    if (st != null) {
      var phase = Values.enumValue(PersistentVolumePhase.class, st.getPhase(), PersistentVolumePhase.Pending,
          "status.phase", ctx);
      var time = Values.instant(st.getLastPhaseTransitionTime(), "status.lastPhaseTransitionTime", ctx);
      status = ctx.build("status", () -> new PersistentVolumeStatus(phase, Values.orEmpty(st.getMessage()),
          Values.orEmpty(st.getReason()), time));
    }
    PersistentVolumeStatus fs = status;
    return spec == null || fs == null ? null : ctx.build("", () -> new PersistentVolume(meta, spec, fs));
  }

  private static @Nullable PersistentVolumeSource source(io.fabric8.kubernetes.api.model.PersistentVolumeSpec s,
      DocumentContext ctx) {
    if (s.getCsi() != null) {
      var c = s.getCsi();
      return ctx.build("spec.csi", () -> new PersistentVolumeSource.Csi(
          Values.required(c.getDriver(), "spec.csi.driver", ctx),
          Values.required(c.getVolumeHandle(), "spec.csi.volumeHandle", ctx), Values.orEmpty(c.getFsType()),
          Values.boolOr(c.getReadOnly(), false), Values.stringMap(c.getVolumeAttributes(),
              "spec.csi.volumeAttributes", ctx)));
    }
    if (s.getHostPath() != null) {
      var h = s.getHostPath();
      return ctx.build("spec.hostPath", () -> new PersistentVolumeSource.HostPath(
          Values.required(h.getPath(), "spec.hostPath.path", ctx), Values.orEmpty(h.getType())));
    }
    if (s.getLocal() != null) {
      var l = s.getLocal();
      return ctx.build("spec.local", () -> new PersistentVolumeSource.Local(
          Values.required(l.getPath(), "spec.local.path", ctx), Values.orEmpty(l.getFsType())));
    }
    if (s.getNfs() != null || s.getAwsElasticBlockStore() != null || s.getGcePersistentDisk() != null
        || s.getIscsi() != null || s.getRbd() != null || s.getCephfs() != null || s.getAzureDisk() != null) {
      ctx.error("spec", "has a volume source FleetKit does not model (supported: csi, hostPath, local)", null);
    }
    return null;
  }

  @Override
  public io.fabric8.kubernetes.api.model.PersistentVolume toFabric8(PersistentVolume in) {
    PersistentVolumeSpec s = in.spec();
    PersistentVolumeSpecBuilder spec = new PersistentVolumeSpecBuilder()
        .withCapacity(Values.resources(s.capacity()))
        .withAccessModes(Values.names(s.accessModes()))
        .withPersistentVolumeReclaimPolicy(s.persistentVolumeReclaimPolicy() == PersistentVolumeReclaimPolicy.Retain
            ? null : s.persistentVolumeReclaimPolicy().name())
        .withStorageClassName(Values.emptyToNull(s.storageClassName()))
        .withVolumeMode(s.volumeMode() == PersistentVolumeMode.Filesystem ? null : s.volumeMode().name())
        .withNodeAffinity(s.nodeAffinity() == null ? null : new VolumeNodeAffinityBuilder()
            .withRequired(Fabric8Scheduling.nodeSelector(s.nodeAffinity().required())).build())
        .withClaimRef(s.claimRef() == null ? null : new ObjectReferenceBuilder().withKind("PersistentVolumeClaim")
            .withApiVersion("v1").withNamespace(Values.emptyToNull(s.claimRef().namespace()))
            .withName(s.claimRef().name()).withUid(Values.emptyToNull(s.claimRef().uid())).build())
        .withMountOptions(Values.emptyToNull(s.mountOptions()));
    PersistentVolumeSource src = s.source();
    if (src instanceof PersistentVolumeSource.Csi c) {
      spec.withCsi(new CSIPersistentVolumeSourceBuilder().withDriver(c.driver()).withVolumeHandle(c.volumeHandle())
          .withFsType(Values.emptyToNull(c.fsType())).withReadOnly(c.readOnly() ? Boolean.TRUE : null)
          .withVolumeAttributes(Values.emptyToNull(new java.util.TreeMap<>(c.volumeAttributes()))).build());
    } else if (src instanceof PersistentVolumeSource.HostPath h) {
      spec.withHostPath(new HostPathVolumeSourceBuilder().withPath(h.path()).withType(Values.emptyToNull(h.type()))
          .build());
    } else if (src instanceof PersistentVolumeSource.Local l) {
      spec.withLocal(new LocalVolumeSourceBuilder().withPath(l.path()).withFsType(Values.emptyToNull(l.fsType()))
          .build());
    }
    PersistentVolumeStatus st = in.status();
    return new PersistentVolumeBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(spec.build())
        .withStatus(st.equals(PersistentVolumeStatus.INITIAL) ? null : new PersistentVolumeStatusBuilder()
            .withPhase(st.phase().name()).withMessage(Values.emptyToNull(st.message()))
            .withReason(Values.emptyToNull(st.reason()))
            .withLastPhaseTransitionTime(Values.instant(st.lastPhaseTransitionTime())).build())
        .build();
  }
}
