package io.fleetkit.queueing.manifest;

import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.queueing.Topology;
import java.util.Objects;

/**
 * A Kueue {@code Topology} read from a manifest: its metadata and the queueing module's {@link Topology} (its levels,
 * validated as Kueue's CRD does), which ResourceFlavors name in {@code spec.topologyName} for topology-aware
 * scheduling.
 *
 * @param apiVersion the version it was written in, one of {@link KueueObject#VERSIONS}
 * @param metadata its metadata; the name is the record's
 * @param spec the desired state
 */
public record TopologyObject(String apiVersion, ObjectMeta metadata, Topology spec)
    implements KueueObject<TopologyObject> {
  public TopologyObject {
    Objects.requireNonNull(spec, "spec");
    KueueObject.check(Topology.KIND, apiVersion, metadata, spec.name(), "");
  }

  /** The object of {@code spec} in Kueue's storage version, with only a name as metadata. */
  public static TopologyObject of(Topology spec) {
    return new TopologyObject(V1BETA2, ObjectMeta.of(spec.name()), spec);
  }

  @Override
  public String kind() {
    return Topology.KIND;
  }

  @Override
  public boolean namespaced() {
    return false;
  }

  @Override
  public TopologyObject withMetadata(ObjectMeta newMetadata) {
    return new TopologyObject(apiVersion, newMetadata, spec);
  }
}
