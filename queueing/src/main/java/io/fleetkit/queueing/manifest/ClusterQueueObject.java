package io.fleetkit.queueing.manifest;

import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.labels.LabelSelectorOperator;
import io.fleetkit.api.labels.LabelSelectorRequirement;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A Kueue {@code ClusterQueue} read from a manifest: its metadata and the queueing module's {@link ClusterQueue}.
 *
 * @param apiVersion the version it was written in, one of {@link KueueObject#VERSIONS}
 * @param metadata its metadata; the name is the record's
 * @param spec the desired state
 */
public record ClusterQueueObject(String apiVersion, ObjectMeta metadata, ClusterQueue spec)
    implements KueueObject<ClusterQueueObject> {
  /**
   * The namespace selector of a ClusterQueue whose manifest leaves {@code spec.namespaceSelector} out: Kueue's nothing
   * selector, which matches no namespace (the queue admits no workload). Written as two requirements no label set
   * meets, so that every consumer of a {@link LabelSelector} sees the same answer; a manifest writer leaves it out.
   */
  public static final LabelSelector NO_NAMESPACE = new LabelSelector(Map.of(), List.of(
      new LabelSelectorRequirement(io.fleetkit.api.core.Namespace.NAME_LABEL, LabelSelectorOperator.Exists, List.of()),
      new LabelSelectorRequirement(io.fleetkit.api.core.Namespace.NAME_LABEL, LabelSelectorOperator.DoesNotExist, List.of())));
  public ClusterQueueObject {
    Objects.requireNonNull(spec, "spec");
    KueueObject.check(ClusterQueue.KIND, apiVersion, metadata, spec.name(), "");
  }

  /** The object of {@code spec} in Kueue's storage version, with only a name as metadata. */
  public static ClusterQueueObject of(ClusterQueue spec) {
    return new ClusterQueueObject(V1BETA2, ObjectMeta.of(spec.name()), spec);
  }

  @Override
  public String kind() {
    return ClusterQueue.KIND;
  }

  @Override
  public boolean namespaced() {
    return false;
  }

  @Override
  public ClusterQueueObject withMetadata(ObjectMeta newMetadata) {
    return new ClusterQueueObject(apiVersion, newMetadata, spec);
  }
}
