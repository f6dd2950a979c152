package io.fleetkit.api.core;

import io.fleetkit.api.Violations;
import io.fleetkit.api.Violations.NameRule;
import io.fleetkit.api.internal.VolumeFileChecks;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.scheduling.SchedulingValidation;
import java.util.Objects;

/**
 * A PersistentVolume ({@code v1}, cluster-scoped): a piece of storage that a claim can bind.
 *
 * <p>The constructor checks Kubernetes' rules and reports every violation at once: the name is a DNS-1123
 * subdomain, {@code capacity} holds exactly {@code storage}, greater than zero, at least one access mode
 * (ReadWriteOncePod alone), node affinity with terms whose expressions are valid, a host path given without
 * {@code ..} and with a known {@code type} (the rules of a pod's hostPath volume), a local volume has node
 * affinity, a claim reference names its claim. The deprecated Recycle reclaim policy is rejected (and, as
 * Kubernetes does, named again for a host path of {@code /}).
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
      positiveCapacity(v, spec.capacity().get(VolumeRules.STORAGE));
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
    } else if (affinity != null) { // ValidateNodeSelector's terms: each expression's key, operator and values
      var terms = affinity.required().nodeSelectorTerms();
      for (int i = 0; i < terms.size(); i++) {
        v.addAll(SchedulingValidation.validateNodeSelectorTerm(terms.get(i),
            "spec.nodeAffinity.required.nodeSelectorTerms[" + i + "]"));
      }
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
      VolumeFileChecks.hostPath(hostPath.path(), hostPath.type(), "spec.hostPath", v);
      if (spec.persistentVolumeReclaimPolicy() == PersistentVolumeReclaimPolicy.Recycle
          && isRoot(hostPath.path())) {
        v.add("spec.persistentVolumeReclaimPolicy", "Forbidden: may not be 'recycle' for a hostPath mount of '/'",
            null);
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

  /**
   * Kubernetes' capacity rules for a PersistentVolume ({@code validateBasicResource} and
   * {@code ValidatePositiveQuantityValue}): a negative quantity is no valid resource quantity, and none may be zero.
   */
  private static void positiveCapacity(Violations v, Quantity storage) {
    if (storage.isNegative()) {
      v.add("spec.capacity.storage", "must be a valid resource quantity", storage.value());
    }
    if (storage.signum() <= 0) {
      v.add("spec.capacity.storage", "must be greater than zero", storage);
    }
  }

  /** Whether Go's {@code path.Clean} makes {@code path} {@code /}: an absolute path whose elements cancel out. */
  private static boolean isRoot(String path) {
    if (!path.startsWith("/")) {
      return false;
    }
    int depth = 0;
    for (String element : path.split("/")) {
      if (element.equals("..")) {
        depth = Math.max(0, depth - 1); // ".." at the root stays at the root
      } else if (!element.isEmpty() && !element.equals(".")) {
        depth++;
      }
    }
    return depth == 0;
  }
}
