package io.fleetkit.queueing.manifest;

import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.queueing.LocalQueue;
import java.util.Objects;

/**
 * A Kueue {@code LocalQueue} read from a manifest: its metadata and the queueing module's {@link LocalQueue}.
 *
 * @param apiVersion the version it was written in, one of {@link KueueObject#VERSIONS}
 * @param metadata its metadata; the name and namespace are the record's
 * @param spec the desired state
 */
public record LocalQueueObject(String apiVersion, ObjectMeta metadata, LocalQueue spec)
    implements KueueObject<LocalQueueObject> {
  public LocalQueueObject {
    Objects.requireNonNull(spec, "spec");
    KueueObject.check(LocalQueue.KIND, apiVersion, metadata, spec.name(), spec.namespace());
  }

  /** The object of {@code spec} in Kueue's storage version, with only a name and a namespace as metadata. */
  public static LocalQueueObject of(LocalQueue spec) {
    return new LocalQueueObject(V1BETA2, ObjectMeta.of(spec.namespace(), spec.name()), spec);
  }

  @Override
  public String kind() {
    return LocalQueue.KIND;
  }

  @Override
  public boolean namespaced() {
    return true;
  }

  @Override
  public LocalQueueObject withMetadata(ObjectMeta newMetadata) {
    return new LocalQueueObject(apiVersion, newMetadata, spec);
  }
}
