package io.fleetkit.api.core;

import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The desired state of a PersistentVolumeClaim. Rules are checked by {@link PersistentVolumeClaim}.
 *
 * @param selector restricts the volumes that may bind (and turns off dynamic provisioning); {@code null} for none
 * @param resources {@code requests.storage} is the minimum size
 * @param storageClassName {@code null} when unset (the default StorageClass, if any, is filled in on create), the
 *     empty string to ask explicitly for a volume without class: the two differ, as in Kubernetes
 * @param volumeName the volume to bind to (pre-binding), empty when unset
 */
public record PersistentVolumeClaimSpec(List<PersistentVolumeAccessMode> accessModes,
    @Nullable LabelSelector selector, VolumeResourceRequirements resources, @Nullable String storageClassName,
    PersistentVolumeMode volumeMode, String volumeName) {

  public PersistentVolumeClaimSpec {
    accessModes = List.copyOf(accessModes);
    Objects.requireNonNull(resources, "resources");
    Objects.requireNonNull(volumeMode, "volumeMode");
    Objects.requireNonNull(volumeName, "volumeName");
  }

  public PersistentVolumeClaimSpec withVolumeName(String name) {
    return new PersistentVolumeClaimSpec(accessModes, selector, resources, storageClassName, volumeMode, name);
  }

  public PersistentVolumeClaimSpec withStorageClassName(@Nullable String name) {
    return new PersistentVolumeClaimSpec(accessModes, selector, resources, name, volumeMode, volumeName);
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder().accessModes(accessModes).selector(selector).resources(resources)
        .storageClassName(storageClassName).volumeMode(volumeMode);
    return b.volumeName(volumeName);
  }

  /** Mutable builder; defaults as in Kubernetes (Filesystem, no class set). Not thread-safe. */
  public static final class Builder {
    private final List<PersistentVolumeAccessMode> accessModes = new ArrayList<>();
    private @Nullable LabelSelector selector;
    private VolumeResourceRequirements resources =
        new VolumeResourceRequirements(ResourceList.EMPTY,
            ResourceList.EMPTY);
    private @Nullable String storageClassName;
    private PersistentVolumeMode volumeMode = PersistentVolumeMode.Filesystem;
    private String volumeName = "";

    private Builder() {}

    public Builder accessModes(List<PersistentVolumeAccessMode> v) {
      accessModes.clear();
      accessModes.addAll(v);
      return this;
    }
    public Builder accessMode(PersistentVolumeAccessMode v) { accessModes.add(v); return this; }
    public Builder selector(@Nullable LabelSelector v) { selector = v; return this; }
    public Builder resources(VolumeResourceRequirements v) { resources = v; return this; }
    /** Requests {@code quantity} of storage, e.g. {@code 10Gi}. */
    public Builder storage(String quantity) { resources = VolumeResourceRequirements.ofStorage(quantity); return this; }
    public Builder storageClassName(@Nullable String v) { storageClassName = v; return this; }
    public Builder volumeMode(PersistentVolumeMode v) { volumeMode = v; return this; }
    public Builder volumeName(String v) { volumeName = v; return this; }

    public PersistentVolumeClaimSpec build() {
      return new PersistentVolumeClaimSpec(accessModes, selector, resources, storageClassName, volumeMode,
          volumeName);
    }
  }
}
