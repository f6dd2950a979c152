package io.fleetkit.api.core;

import io.fleetkit.api.Violations;
import io.fleetkit.api.Violations.NameRule;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import java.util.Objects;

/**
 * A PersistentVolume ({@code v1}, cluster-scoped): a piece of storage that a claim can bind.
 *
 * <p>The constructor checks Kubernetes' rules and reports every violation at once: the name is a DNS-1123
 * subdomain, {@code capacity} holds exactly {@code storage}, at least one access mode (ReadWriteOncePod alone),
 * a local volume has node affinity, a claim reference names its claim. The deprecated Recycle reclaim policy is
 * rejected.
 *
 * <p>The constructor throws {@link io.fleetkit.api.ValidationException} when a rule is broken.
 */
public record PersistentVolume(ObjectMeta metadata, PersistentVolumeSpec spec, PersistentVolumeStatus status)
    implements ApiObject<PersistentVolume> {
  public static final String API_VERSION = "v1";
  public static final String KIND = "PersistentVolume";

  /** The rule broken by the Recycle reclaim policy. */
  public static final String RECYCLE_DEPRECATED = "Recycle is deprecated and not supported; "
      + "use Retain, or Delete with dynamic provisioning";

  public PersistentVolume {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    validate(metadata, spec);
  }

  /** A new volume in phase Pending. */
  public static PersistentVolume of(ObjectMeta metadata, PersistentVolumeSpec spec) {
    return new PersistentVolume(metadata, spec, PersistentVolumeStatus.INITIAL);
  }

  @Override
  public String apiVersion() {
    return API_VERSION;
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public boolean namespaced() {
    return false;
  }

  @Override
  public PersistentVolume withMetadata(ObjectMeta m) {
    return new PersistentVolume(m, spec, status);
  }

  public PersistentVolume withSpec(PersistentVolumeSpec s) {
    return new PersistentVolume(metadata, s, status);
  }

  public PersistentVolume withStatus(PersistentVolumeStatus s) {
    return new PersistentVolume(metadata, spec, s);
  }

  @Override
  public PersistentVolume withStatusOf(PersistentVolume other) {
    return withStatus(other.status);
  }

  /** {@code spec.capacity.storage}. */
  public Quantity storage() {
    return spec.capacity().get(VolumeRules.STORAGE);
  }

  private static void validate(ObjectMeta metadata, PersistentVolumeSpec spec) {
    Violations v = Violations.forObject(KIND, metadata);
    v.nameAndNamespace(metadata, false, NameRule.DNS1123_SUBDOMAIN);
    if (!spec.capacity().has(VolumeRules.STORAGE)) {
      v.required("spec.capacity.storage");
    } else {
      v.nonNegative("spec.capacity.storage", spec.capacity().get(VolumeRules.STORAGE));
    }
    for (String name : spec.capacity().asMap().keySet()) {
      if (!name.equals(VolumeRules.STORAGE)) {
        v.add("spec.capacity." + name, "supported values: \"storage\"", name);
      }
    }
    VolumeRules.checkAccessModes(v, "spec.accessModes", spec.accessModes(), "must specify at least 1 access mode");
    if (spec.persistentVolumeReclaimPolicy() == PersistentVolumeReclaimPolicy.Recycle) {
      v.add("spec.persistentVolumeReclaimPolicy", RECYCLE_DEPRECATED, "Recycle");
    }
    if (!spec.storageClassName().isEmpty()) {
      v.dnsSubdomain("spec.storageClassName", spec.storageClassName());
    }
    VolumeNodeAffinity affinity = spec.nodeAffinity();
    if (affinity != null && affinity.required().nodeSelectorTerms().isEmpty()) {
      v.required("spec.nodeAffinity.required.nodeSelectorTerms", "must have at least one node selector term");
    }
    ClaimReference ref = spec.claimRef();
    if (ref != null) {
      if (ref.name().isEmpty()) {
        v.required("spec.claimRef.name");
      }
      if (ref.namespace().isEmpty()) {
        v.required("spec.claimRef.namespace");
      }
    }
    PersistentVolumeSource source = spec.source();
    if (source instanceof PersistentVolumeSource.Csi csi) {
      v.dnsSubdomain("spec.csi.driver", csi.driver());
      if (csi.volumeHandle().isEmpty()) {
        v.required("spec.csi.volumeHandle");
      }
    } else if (source instanceof PersistentVolumeSource.HostPath hostPath) {
      if (hostPath.path().isEmpty()) {
        v.required("spec.hostPath.path");
      }
    } else if (source instanceof PersistentVolumeSource.Local local) {
      if (local.path().isEmpty()) {
        v.required("spec.local.path");
      }
      if (affinity == null) {
        v.required("spec.nodeAffinity", "Local volumes require node affinity");
      }
    }
    v.throwIfAny();
  }
}
