package io.fleetkit.api.storage;

import io.fleetkit.api.core.PersistentVolumeReclaimPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The fields of a StorageClass. In Kubernetes they sit at the top level of the object (there is no
 * {@code spec}); FleetKit groups them so that the object store can tell desired-state changes apart. Rules are
 * checked by {@link StorageClass}.
 *
 * @param provisioner the volume plugin that creates volumes, e.g. {@code ebs.csi.aws.com}, or
 *     {@value StorageAnnotations#NO_PROVISIONER} for statically provisioned volumes only
 * @param parameters opaque parameters for the provisioner
 * @param reclaimPolicy given to dynamically provisioned volumes; defaults to Delete
 * @param allowedTopologies where volumes may be provisioned; empty for anywhere
 */
public record StorageClassSpec(String provisioner, Map<String, String> parameters,
    PersistentVolumeReclaimPolicy reclaimPolicy, VolumeBindingMode volumeBindingMode, boolean allowVolumeExpansion,
    List<TopologySelectorTerm> allowedTopologies, List<String> mountOptions) {

  public StorageClassSpec {
    Objects.requireNonNull(provisioner, "provisioner");
    parameters = Map.copyOf(parameters);
    Objects.requireNonNull(reclaimPolicy, "reclaimPolicy");
    Objects.requireNonNull(volumeBindingMode, "volumeBindingMode");
    allowedTopologies = List.copyOf(allowedTopologies);
    mountOptions = List.copyOf(mountOptions);
  }

  /** A class for {@code provisioner} with Kubernetes' defaults (Delete, Immediate). */
  public static StorageClassSpec of(String provisioner) {
    return builder().provisioner(provisioner).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder().provisioner(provisioner).parameters(parameters).reclaimPolicy(reclaimPolicy)
        .volumeBindingMode(volumeBindingMode).allowVolumeExpansion(allowVolumeExpansion);
    return b.allowedTopologies(allowedTopologies).mountOptions(mountOptions);
  }

  /** Mutable builder; defaults as in Kubernetes (Delete, Immediate, no expansion). Not thread-safe. */
  public static final class Builder {
    private String provisioner = "";
    private final Map<String, String> parameters = new LinkedHashMap<>();
    private PersistentVolumeReclaimPolicy reclaimPolicy = PersistentVolumeReclaimPolicy.Delete;
    private VolumeBindingMode volumeBindingMode = VolumeBindingMode.Immediate;
    private boolean allowVolumeExpansion;
    private final List<TopologySelectorTerm> allowedTopologies = new ArrayList<>();
    private final List<String> mountOptions = new ArrayList<>();

    private Builder() {}

    public Builder provisioner(String v) { provisioner = v; return this; }
    public Builder parameters(Map<String, String> v) { parameters.clear(); parameters.putAll(v); return this; }
    public Builder parameter(String key, String value) { parameters.put(key, value); return this; }
    public Builder reclaimPolicy(PersistentVolumeReclaimPolicy v) { reclaimPolicy = v; return this; }
    public Builder volumeBindingMode(VolumeBindingMode v) { volumeBindingMode = v; return this; }
    public Builder allowVolumeExpansion(boolean v) { allowVolumeExpansion = v; return this; }
    public Builder allowedTopologies(List<TopologySelectorTerm> v) {
      allowedTopologies.clear();
      allowedTopologies.addAll(v);
      return this;
    }
    public Builder allowedTopology(TopologySelectorTerm v) { allowedTopologies.add(v); return this; }
    public Builder mountOptions(List<String> v) { mountOptions.clear(); mountOptions.addAll(v); return this; }

    public StorageClassSpec build() {
      return new StorageClassSpec(provisioner, parameters, reclaimPolicy, volumeBindingMode, allowVolumeExpansion,
          allowedTopologies, mountOptions);
    }
  }
}
