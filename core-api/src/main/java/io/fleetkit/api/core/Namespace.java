package io.fleetkit.api.core;

import io.fleetkit.api.Violations;
import io.fleetkit.api.Violations.NameRule;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A namespace (core/v1, cluster-scoped): a name scope for namespaced objects, with labels that pod affinity terms'
 * {@code namespaceSelector} match, and a phase. A namespace being deleted is {@link NamespacePhase#Terminating}: no
 * new objects may be created in it while its content is removed.
 *
 * <p>Two finalizer lists keep a namespace being deleted, as in Kubernetes. {@code spec.finalizers} are the
 * namespace's own: the store puts {@value #KUBERNETES_FINALIZER} there when it creates a namespace, only the
 * {@code namespaces/finalize} write ({@link io.fleetkit.api.store.ObjectStore#finalizeNamespace(Namespace)})
 * changes them, and the namespace controller removes {@value #KUBERNETES_FINALIZER} once the namespace's content
 * is gone. {@code metadata.finalizers} are ordinary object finalizers, removed by whoever added them with an update.
 * The store removes a namespace being deleted once both lists are empty.
 *
 * <p>The constructor checks Kubernetes' {@code ValidateNamespace}: the name is a DNS-1123 label, labels are valid,
 * each {@code spec.finalizers} entry is a qualified name and, without a {@code /}, one of the standard finalizer
 * names.
 *
 * <p>The constructor throws {@link io.fleetkit.api.ValidationException} when a rule is broken
 */
public record Namespace(ObjectMeta metadata, NamespaceSpec spec, NamespaceStatus status)
    implements ApiObject<Namespace> {
  public static final String API_VERSION = "v1";
  public static final String KIND = "Namespace";
  /** The finalizer that makes the namespace controller delete the namespace's content first. */
  public static final String KUBERNETES_FINALIZER = "kubernetes";
  /** Finalizer names that need no domain prefix (Kubernetes' {@code IsStandardFinalizerName}). */
  public static final Set<String> STANDARD_FINALIZERS = Set.of(KUBERNETES_FINALIZER, "orphan", "foregroundDeletion");
  /** The label Kubernetes puts on every namespace, holding its name (used by namespace selectors). */
  public static final String NAME_LABEL = "kubernetes.io/metadata.name";

  public Namespace {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    Violations v = Violations.forObject(KIND, metadata);
    v.nameAndNamespace(metadata, false, NameRule.DNS1123_LABEL);
    v.labels("metadata.labels", metadata.labels());
    List<String> finalizers = spec.finalizers();
    for (int i = 0; i < finalizers.size(); i++) {
      String f = finalizers.get(i);
      String field = "spec.finalizers[" + i + "]";
      v.qualifiedName(field, f);
      if (f.indexOf('/') < 0 && !f.isEmpty() && !STANDARD_FINALIZERS.contains(f)) {
        v.add(field, "name is neither a standard finalizer name nor is it fully qualified", f);
      }
    }
    v.throwIfAny();
  }

  /** An active namespace named {@code name} with {@code labels} and the {@value #KUBERNETES_FINALIZER} finalizer. */
  public static Namespace of(String name, Map<String, String> labels) {
    return new Namespace(ObjectMeta.of(name).withLabels(labels), new NamespaceSpec(List.of(KUBERNETES_FINALIZER)),
        NamespaceStatus.ACTIVE);
  }

  /** An active namespace named {@code name} without labels. */
  public static Namespace of(String name) {
    return of(name, Map.of());
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
  public Namespace withMetadata(ObjectMeta m) {
    return new Namespace(m, spec, status);
  }

  @Override
  public Namespace withStatusOf(Namespace other) {
    return new Namespace(metadata, spec, other.status);
  }

  public Namespace withSpec(NamespaceSpec s) {
    return new Namespace(metadata, s, status);
  }

  public Namespace withStatus(NamespaceStatus s) {
    return new Namespace(metadata, spec, s);
  }

  /** Whether {@code spec.finalizers} is empty: nothing but {@code metadata.finalizers} keeps the namespace. */
  public boolean finalized() {
    return spec.finalizers().isEmpty();
  }

  /** Whether the namespace is being deleted: phase Terminating, or a deletion timestamp set. */
  public boolean terminating() {
    return status.phase() == NamespacePhase.Terminating || metadata.deletionTimestamp() != null;
  }

  /**
   * The labels a namespace selector sees: this namespace's labels plus {@value #NAME_LABEL} (Kubernetes sets that
   * label on every namespace).
   */
  public Map<String, String> selectorLabels() {
    if (metadata.name().equals(metadata.labels().get(NAME_LABEL))) {
      return metadata.labels();
    }
    java.util.HashMap<String, String> m = new java.util.HashMap<>(metadata.labels());
    m.put(NAME_LABEL, metadata.name());
    return Map.copyOf(m);
  }
}
