package io.fleetkit.api.core;

import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The desired state of a PersistentVolume. Rules are checked by {@link PersistentVolume}.
 *
 * @param capacity must hold {@code storage} (and nothing else)
 * @param accessModes at least one; ReadWriteOncePod stands alone
 * @param storageClassName empty for a volume without class (it then binds only claims that ask for no class)
 * @param nodeAffinity the nodes the volume is reachable from, {@code null} for everywhere
 * @param claimRef the claim the volume is bound or reserved to, {@code null} when free
 * @param source where the data lives, {@code null} when not modelled (FleetKit mounts nothing)
 */
public record PersistentVolumeSpec(ResourceList capacity, List<PersistentVolumeAccessMode> accessModes,
    PersistentVolumeReclaimPolicy persistentVolumeReclaimPolicy, String storageClassName,
    PersistentVolumeMode volumeMode, @Nullable VolumeNodeAffinity nodeAffinity, @Nullable ClaimReference claimRef,
    List<String> mountOptions, @Nullable PersistentVolumeSource source) {

  public PersistentVolumeSpec {
    Objects.requireNonNull(capacity, "capacity");
    accessModes = List.copyOf(accessModes);
    Objects.requireNonNull(persistentVolumeReclaimPolicy, "persistentVolumeReclaimPolicy");
    Objects.requireNonNull(storageClassName, "storageClassName");
    Objects.requireNonNull(volumeMode, "volumeMode");
    mountOptions = List.copyOf(mountOptions);
  }

  public PersistentVolumeSpec withClaimRef(@Nullable ClaimReference ref) {
    return new PersistentVolumeSpec(capacity, accessModes, persistentVolumeReclaimPolicy, storageClassName,
        volumeMode, nodeAffinity, ref, mountOptions, source);
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder().capacity(capacity).accessModes(accessModes)
        .persistentVolumeReclaimPolicy(persistentVolumeReclaimPolicy).storageClassName(storageClassName)
        .volumeMode(volumeMode).nodeAffinity(nodeAffinity).claimRef(claimRef).mountOptions(mountOptions);
    return b.source(source);
  }

  /** Mutable builder; defaults as in Kubernetes (Retain, Filesystem, no class). Not thread-safe. */
  public static final class Builder {
    private ResourceList capacity = ResourceList.EMPTY;
    private final List<PersistentVolumeAccessMode> accessModes = new ArrayList<>();
    private PersistentVolumeReclaimPolicy reclaimPolicy = PersistentVolumeReclaimPolicy.Retain;
    private String storageClassName = "";
    private PersistentVolumeMode volumeMode = PersistentVolumeMode.Filesystem;
    private @Nullable VolumeNodeAffinity nodeAffinity;
    private @Nullable ClaimReference claimRef;
    private final List<String> mountOptions = new ArrayList<>();
    private @Nullable PersistentVolumeSource source;

    private Builder() {}

    public Builder capacity(ResourceList v) { capacity = v; return this; }
    /** Sets {@code capacity} to just {@code storage}, e.g. {@code 10Gi}. */
    public Builder storage(String quantity) {
      capacity = ResourceList.builder().put("storage", quantity).build();
      return this;
    }
    public Builder accessModes(List<PersistentVolumeAccessMode> v) {
      accessModes.clear();
      accessModes.addAll(v);
      return this;
    }
    public Builder accessMode(PersistentVolumeAccessMode v) { accessModes.add(v); return this; }
    public Builder persistentVolumeReclaimPolicy(PersistentVolumeReclaimPolicy v) { reclaimPolicy = v; return this; }
    public Builder storageClassName(String v) { storageClassName = v; return this; }
    public Builder volumeMode(PersistentVolumeMode v) { volumeMode = v; return this; }
    public Builder nodeAffinity(@Nullable VolumeNodeAffinity v) { nodeAffinity = v; return this; }
    public Builder claimRef(@Nullable ClaimReference v) { claimRef = v; return this; }
    public Builder mountOptions(List<String> v) { mountOptions.clear(); mountOptions.addAll(v); return this; }
    public Builder source(@Nullable PersistentVolumeSource v) { source = v; return this; }

    public PersistentVolumeSpec build() {
      return new PersistentVolumeSpec(capacity, accessModes, reclaimPolicy, storageClassName, volumeMode,
          nodeAffinity, claimRef, mountOptions, source);
    }
  }
}
