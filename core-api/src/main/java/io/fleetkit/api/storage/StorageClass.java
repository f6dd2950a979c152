package io.fleetkit.api.storage;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeReclaimPolicy;
import io.fleetkit.api.Violations.NameRule;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A StorageClass ({@code storage.k8s.io/v1}, cluster-scoped): how volumes of a class are provisioned and bound.
 * It has no status.
 *
 * <p>The constructor checks Kubernetes' rules and reports every violation at once: the name is a DNS-1123
 * subdomain, the provisioner a qualified name, the reclaim policy Retain or Delete (Recycle is deprecated), each
 * allowed-topology term has requirements with a qualified key and unique values. Field paths are Kubernetes'
 * (top level, e.g. {@code reclaimPolicy}).
 *
 * <p>The constructor throws {@link io.fleetkit.api.ValidationException} when a rule is broken.
 */
public record StorageClass(ObjectMeta metadata, StorageClassSpec spec) implements ApiObject<StorageClass> {
  public static final String API_VERSION = "storage.k8s.io/v1";
  public static final String KIND = "StorageClass";

  public StorageClass {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    validate(metadata, spec);
  }

  public static StorageClass of(ObjectMeta metadata, StorageClassSpec spec) {
    return new StorageClass(metadata, spec);
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

  /** Always {@code null}: a StorageClass has no status. */
  @Override
  public @Nullable Object status() {
    return null;
  }

  @Override
  public StorageClass withMetadata(ObjectMeta m) {
    return new StorageClass(m, spec);
  }

  public StorageClass withSpec(StorageClassSpec s) {
    return new StorageClass(metadata, s);
  }

  /** This object: a StorageClass has no status. */
  @Override
  public StorageClass withStatusOf(StorageClass other) {
    return this;
  }

  public String provisioner() {
    return spec.provisioner();
  }

  public PersistentVolumeReclaimPolicy reclaimPolicy() {
    return spec.reclaimPolicy();
  }

  public VolumeBindingMode volumeBindingMode() {
    return spec.volumeBindingMode();
  }

  /** Whether this class is annotated as the default class. */
  public boolean isDefault() {
    return StorageAnnotations.isDefaultClass(metadata);
  }

  /**
   * Whether a node with {@code nodeLabels} is within {@code allowedTopologies} (always, when there are none).
   */
  public boolean allowsTopology(Map<String, String> nodeLabels) {
    List<TopologySelectorTerm> terms = spec.allowedTopologies();
    return terms.isEmpty() || terms.stream().anyMatch(t -> t.matches(nodeLabels));
  }

  private static void validate(ObjectMeta metadata, StorageClassSpec spec) {
    Violations v = Violations.forObject(KIND, metadata);
    v.nameAndNamespace(metadata, false, NameRule.DNS1123_SUBDOMAIN);
    if (spec.provisioner().isEmpty()) {
      v.required("provisioner");
    } else {
      v.qualifiedName("provisioner", spec.provisioner().toLowerCase(Locale.ROOT));
    }
    for (String key : spec.parameters().keySet()) {
      if (key.isEmpty()) {
        v.add("parameters", "keys must not be empty", key);
      }
    }
    if (spec.reclaimPolicy() == PersistentVolumeReclaimPolicy.Recycle) {
      v.add("reclaimPolicy", PersistentVolume.RECYCLE_DEPRECATED, "Recycle");
    }
    List<TopologySelectorTerm> terms = spec.allowedTopologies();
    for (int i = 0; i < terms.size(); i++) {
      String termPath = "allowedTopologies[" + i + "].matchLabelExpressions";
      List<TopologySelectorLabelRequirement> reqs = terms.get(i).matchLabelExpressions();
      if (reqs.isEmpty()) {
        v.required(termPath, "must contain at least one requirement");
      }
      Set<String> keys = new HashSet<>();
      for (int j = 0; j < reqs.size(); j++) {
        TopologySelectorLabelRequirement r = reqs.get(j);
        String reqPath = termPath + "[" + j + "]";
        v.qualifiedName(reqPath + ".key", r.key());
        if (!keys.add(r.key())) {
          v.add(reqPath + ".key", Violations.DUPLICATE, r.key());
        }
        if (r.values().isEmpty()) {
          v.required(reqPath + ".values", "must specify as least one value");
        }
        Set<String> values = new HashSet<>();
        for (int k = 0; k < r.values().size(); k++) {
          if (!values.add(r.values().get(k))) {
            v.add(reqPath + ".values[" + k + "]", Violations.DUPLICATE, r.values().get(k));
          }
        }
      }
    }
    v.throwIfAny();
  }
}
