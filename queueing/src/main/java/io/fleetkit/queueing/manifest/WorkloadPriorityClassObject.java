package io.fleetkit.queueing.manifest;

import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.queueing.WorkloadPriorityClass;
import java.util.Objects;

/**
 * A Kueue {@code WorkloadPriorityClass} read from a manifest: its metadata and the queueing module's {@link WorkloadPriorityClass}.
 *
 * @param apiVersion the version it was written in, one of {@link KueueObject#VERSIONS}
 * @param metadata its metadata; the name is the record's
 * @param spec the desired state
 */
public record WorkloadPriorityClassObject(String apiVersion, ObjectMeta metadata, WorkloadPriorityClass spec)
    implements KueueObject<WorkloadPriorityClassObject> {
  public WorkloadPriorityClassObject {
    Objects.requireNonNull(spec, "spec");
    KueueObject.check(WorkloadPriorityClass.KIND, apiVersion, metadata, spec.name(), "");
  }

  /** The object of {@code spec} in Kueue's storage version, with only a name as metadata. */
  public static WorkloadPriorityClassObject of(WorkloadPriorityClass spec) {
    return new WorkloadPriorityClassObject(V1BETA2, ObjectMeta.of(spec.name()), spec);
  }

  @Override
  public String kind() {
    return WorkloadPriorityClass.KIND;
  }

  @Override
  public boolean namespaced() {
    return false;
  }

  @Override
  public WorkloadPriorityClassObject withMetadata(ObjectMeta newMetadata) {
    return new WorkloadPriorityClassObject(apiVersion, newMetadata, spec);
  }
}
