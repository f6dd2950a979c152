package io.fleetkit.api.meta;

import io.fleetkit.api.labels.Validation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Kubernetes-style object metadata. Immutable; use {@link #toBuilder()} or the {@code withX} methods for variants.
 *
 * <p>{@code uid}, {@code resourceVersion}, {@code generation}, {@code creationTimestamp},
 * {@code deletionTimestamp} and {@code deletionGracePeriodSeconds} are owned by the object store: values a caller
 * sets on create are replaced.
 *
 * @param namespace empty for cluster-scoped kinds
 * @param resourceVersion empty until stored; a decimal number assigned by the store
 * @param deletionTimestamp when the object was marked for deletion; for a pod deleted gracefully, the time its grace
 *     period ends (the mark's time plus {@code deletionGracePeriodSeconds})
 * @param deletionGracePeriodSeconds the grace period of the deletion that marked the object (0 for an object marked
 *     only to wait for its finalizers), {@code null} while it is not marked
 */
public record ObjectMeta(
    String name,
    String namespace,
    String uid,
    String resourceVersion,
    long generation,
    Map<String, String> labels,
    Map<String, String> annotations,
    List<OwnerReference> ownerReferences,
    List<String> finalizers,
    @Nullable Instant creationTimestamp,
    @Nullable Instant deletionTimestamp,
    @Nullable Long deletionGracePeriodSeconds) {

  public ObjectMeta {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(uid, "uid");
    Objects.requireNonNull(resourceVersion, "resourceVersion");
    labels = Map.copyOf(labels);
    annotations = Map.copyOf(annotations);
    ownerReferences = List.copyOf(ownerReferences);
    finalizers = List.copyOf(finalizers);
  }

  /** Metadata without {@code deletionGracePeriodSeconds}. */
  public ObjectMeta(String name, String namespace, String uid, String resourceVersion, long generation,
      Map<String, String> labels, Map<String, String> annotations, List<OwnerReference> ownerReferences,
      List<String> finalizers, @Nullable Instant creationTimestamp, @Nullable Instant deletionTimestamp) {
    this(name, namespace, uid, resourceVersion, generation, labels, annotations, ownerReferences, finalizers,
        creationTimestamp, deletionTimestamp, null);
  }

  /** Metadata for a namespaced object. */
  public static ObjectMeta of(String namespace, String name) {
    return new ObjectMeta(name, namespace, "", "", 0, Map.of(), Map.of(), List.of(), List.of(), null, null, null);
  }

  /** Metadata for a cluster-scoped object. */
  public static ObjectMeta of(String name) {
    return of("", name);
  }

  /** {@code namespace/name}, or {@code name} for cluster-scoped objects. */
  public String key() {
    return namespace.isEmpty() ? name : namespace + "/" + name;
  }

  /** The controller owner reference, if any. */
  public @Nullable OwnerReference controllerRef() {
    for (OwnerReference r : ownerReferences) {
      if (r.controller()) {
        return r;
      }
    }
    return null;
  }

  /**
   * Whether the controller owner reference names the object of uid {@code ownerUid} (apimachinery's
   * {@code metav1.IsControlledBy}).
   */
  public boolean isControlledBy(String ownerUid) {
    OwnerReference r = controllerRef();
    return r != null && r.uid().equals(ownerUid);
  }

  public ObjectMeta withLabels(Map<String, String> newLabels) {
    return toBuilder().labels(newLabels).build();
  }

  public ObjectMeta withResourceVersion(String rv) {
    return toBuilder().resourceVersion(rv).build();
  }

  public Builder toBuilder() {
    return new Builder(this);
  }

  /**
   * {@code name}, or when it is longer than an object name may be (253 characters), its start and a hash of it (still
   * unique in practice), as the names of objects made for a node (slices, the pods of a template node) are shortened.
   */
  public static String shortenedName(String name) {
    if (name.length() <= Validation.DNS1123_SUBDOMAIN_MAX_LENGTH) {
      return name;
    }
    String hash = Integer.toHexString(name.hashCode());
    int end = Validation.DNS1123_SUBDOMAIN_MAX_LENGTH - 1 - hash.length();
    while (end > 0 && !Character.isLetterOrDigit(name.charAt(end - 1))) {
      end--;
    }
    return name.substring(0, end) + "-" + hash;
  }

  public static Builder builder() {
    return new Builder(of(""));
  }

  /** Mutable builder; not thread-safe. */
  public static final class Builder {
    private String name;
    private String namespace;
    private String uid;
    private String resourceVersion;
    private long generation;
    private final Map<String, String> labels;
    private final Map<String, String> annotations;
    private final List<OwnerReference> ownerReferences;
    private final List<String> finalizers;
    private @Nullable Instant creationTimestamp;
    private @Nullable Instant deletionTimestamp;
    private @Nullable Long deletionGracePeriodSeconds;

    private Builder(ObjectMeta m) {
      name = m.name;
      namespace = m.namespace;
      uid = m.uid;
      resourceVersion = m.resourceVersion;
      generation = m.generation;
      labels = new LinkedHashMap<>(m.labels);
      annotations = new LinkedHashMap<>(m.annotations);
      ownerReferences = new ArrayList<>(m.ownerReferences);
      finalizers = new ArrayList<>(m.finalizers);
      creationTimestamp = m.creationTimestamp;
      deletionTimestamp = m.deletionTimestamp;
      deletionGracePeriodSeconds = m.deletionGracePeriodSeconds;
    }

    public Builder name(String v) { name = v; return this; }
    public Builder namespace(String v) { namespace = v; return this; }
    public Builder uid(String v) { uid = v; return this; }
    public Builder resourceVersion(String v) { resourceVersion = v; return this; }
    public Builder generation(long v) { generation = v; return this; }
    public Builder labels(Map<String, String> v) { labels.clear(); labels.putAll(v); return this; }
    public Builder label(String k, String v) { labels.put(k, v); return this; }
    public Builder annotations(Map<String, String> v) { annotations.clear(); annotations.putAll(v); return this; }
    public Builder annotation(String k, String v) { annotations.put(k, v); return this; }
    public Builder ownerReferences(List<OwnerReference> v) { ownerReferences.clear(); ownerReferences.addAll(v); return this; }
    public Builder ownerReference(OwnerReference v) { ownerReferences.add(v); return this; }
    public Builder finalizers(List<String> v) { finalizers.clear(); finalizers.addAll(v); return this; }
    public Builder finalizer(String v) { finalizers.add(v); return this; }
    public Builder creationTimestamp(@Nullable Instant v) { creationTimestamp = v; return this; }
    public Builder deletionTimestamp(@Nullable Instant v) { deletionTimestamp = v; return this; }
    public Builder deletionGracePeriodSeconds(@Nullable Long v) { deletionGracePeriodSeconds = v; return this; }

    public ObjectMeta build() {
      return new ObjectMeta(name, namespace, uid, resourceVersion, generation, labels, annotations,
          ownerReferences, finalizers, creationTimestamp, deletionTimestamp, deletionGracePeriodSeconds);
    }
  }
}
