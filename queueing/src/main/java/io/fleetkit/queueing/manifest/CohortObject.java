package io.fleetkit.queueing.manifest;

import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.queueing.Cohort;
import java.util.Objects;

/**
 * A Kueue {@code Cohort} read from a manifest: its metadata and the queueing module's {@link Cohort}.
 *
 * @param apiVersion the version it was written in, one of {@link KueueObject#VERSIONS}
 * @param metadata its metadata; the name is the record's
 * @param spec the desired state
 */
public record CohortObject(String apiVersion, ObjectMeta metadata, Cohort spec)
    implements KueueObject<CohortObject> {
  public CohortObject {
    Objects.requireNonNull(spec, "spec");
    KueueObject.check(Cohort.KIND, apiVersion, metadata, spec.name(), "");
  }

  /** The object of {@code spec} in Kueue's storage version, with only a name as metadata. */
  public static CohortObject of(Cohort spec) {
    return new CohortObject(V1BETA2, ObjectMeta.of(spec.name()), spec);
  }

  @Override
  public String kind() {
    return Cohort.KIND;
  }

  @Override
  public boolean namespaced() {
    return false;
  }

  @Override
  public CohortObject withMetadata(ObjectMeta newMetadata) {
    return new CohortObject(apiVersion, newMetadata, spec);
  }
}
