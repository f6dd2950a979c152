package io.fleetkit.storage;

import io.fleetkit.api.core.VolumeNodeAffinity;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import java.util.List;

/** Well-known topology label keys and a helper to pin a volume to one topology value. */
public final class TopologyLabels {
  /** The zone label on nodes and volumes. */
  public static final String ZONE = "topology.kubernetes.io/zone";
  /** The region label on nodes and volumes. */
  public static final String REGION = "topology.kubernetes.io/region";
  /** Deprecated spelling of {@link #ZONE}, still honoured by VolumeZone. */
  public static final String BETA_ZONE = "failure-domain.beta.kubernetes.io/zone";
  /** Deprecated spelling of {@link #REGION}, still honoured by VolumeZone. */
  public static final String BETA_REGION = "failure-domain.beta.kubernetes.io/region";

  private TopologyLabels() {}

  /** Node affinity requiring label {@code key} to be one of {@code values}. */
  public static VolumeNodeAffinity affinity(String key, String... values) {
    NodeSelectorRequirement r = new NodeSelectorRequirement(key, NodeSelectorOperator.In, List.of(values));
    return new VolumeNodeAffinity(new NodeSelector(List.of(new NodeSelectorTerm(List.of(r), List.of()))));
  }
}
