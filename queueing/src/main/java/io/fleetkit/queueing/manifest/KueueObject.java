package io.fleetkit.queueing.manifest;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Objects;
import java.util.Set;

/**
 * One of Kueue's objects ({@code kueue.x-k8s.io}) as an {@link ApiObject}: its metadata, the apiVersion it was written
 * in, and as its {@link #spec()} the queueing module's own record of the kind (a {@link
 * io.fleetkit.queueing.ClusterQueue}, {@link io.fleetkit.queueing.LocalQueue}, ...), which holds and validates every
 * desired field. Kueue's status is not modelled: {@link #status()} is {@code null}.
 *
 * @param <T> the implementing record
 */
public sealed interface KueueObject<T extends KueueObject<T>> extends ApiObject<T>
    permits ClusterQueueObject, LocalQueueObject, ResourceFlavorObject, CohortObject, WorkloadPriorityClassObject,
    AdmissionCheckObject, TopologyObject {
  /** Kueue's API group. */
  String GROUP = "kueue.x-k8s.io";
  /** The version Kueue stores (and FleetKit writes by default). */
  String V1BETA2 = GROUP + "/v1beta2";
  /** The version Kueue still serves. */
  String V1BETA1 = GROUP + "/v1beta1";
  /** The versions every kind of this package is read in. */
  Set<String> VERSIONS = Set.of(V1BETA1, V1BETA2);

  @Override
  default @org.jspecify.annotations.Nullable Object status() {
    return null;
  }

  @SuppressWarnings("unchecked")
  @Override
  default T withStatusOf(T other) {
    return (T) this;
  }

  /**
   * Checks what every Kueue object shares: a served apiVersion, and a name (and namespace) that are the queueing
   * record's.
   *
   * @throws IllegalArgumentException naming the object and the field when they are not
   */
  static void check(String kind, String apiVersion, ObjectMeta metadata, String name, String namespace) {
    Objects.requireNonNull(apiVersion, "apiVersion");
    Objects.requireNonNull(metadata, "metadata");
    String object = kind + " " + (namespace.isEmpty() ? name : namespace + "/" + name);
    if (!VERSIONS.contains(apiVersion)) {
      throw new IllegalArgumentException(object + ": apiVersion \"" + apiVersion + "\" must be " + V1BETA1 + " or "
          + V1BETA2);
    }
    if (!metadata.name().equals(name)) {
      throw new IllegalArgumentException(object + ": metadata.name \"" + metadata.name()
          + "\" must be the name of the " + kind + ", " + name);
    }
    if (!metadata.namespace().equals(namespace)) {
      throw new IllegalArgumentException(object + ": metadata.namespace \"" + metadata.namespace() + "\" must be \""
          + namespace + "\"");
    }
  }
}
