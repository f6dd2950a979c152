package io.fleetkit.storage.scheduling;

import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.EnqueueExtensions;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PluginFactory;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreFilterPlugin;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.StateKey;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.storage.TopologyLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * kube-scheduler's {@code VolumeZone}: the zone and region labels of a pod's bound volumes
 * ({@code topology.kubernetes.io/zone|region} and the deprecated {@code failure-domain.beta.kubernetes.io/*}; a
 * value may list several zones joined by {@code __}) must match the node's. A node with none of these labels
 * passes. Unbound claims are left to VolumeBinding. Rejects with {@value #REASON_CONFLICT}, unresolvable.
 * Thread-safe.
 */
public final class VolumeZonePlugin implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
  public static final String NAME = "VolumeZone";
  public static final String REASON_CONFLICT = "node(s) had no available volume zone";
  private static final List<String> KEYS = List.of(TopologyLabels.ZONE, TopologyLabels.REGION, TopologyLabels.BETA_ZONE,
      TopologyLabels.BETA_REGION);
  private static final Status CONFLICT = Status.unresolvable(REASON_CONFLICT).withPlugin(NAME);

  /** A topology requirement of a bound volume. */
  private record Requirement(String key, Set<String> values) {}

  /** PreFilter's result. */
  private record Requirements(List<Requirement> list) {}

  private static final StateKey<Requirements> KEY = StateKey.of("PreFilter" + NAME, Requirements.class);

  private final ObjectStore store;

  VolumeZonePlugin(ObjectStore store) {
    this.store = store;
  }

  public static PluginFactory factory(ObjectStore store) {
    return handle -> new VolumeZonePlugin(store);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Set<ClusterEvent> eventsToRegister() {
    return Set.of(ClusterEvent.STORAGE, ClusterEvent.NODE_ADD, ClusterEvent.NODE_UPDATE);
  }

  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, Snapshot snapshot) {
    List<String> names = PodClaims.of(pod.pod());
    List<Requirement> reqs = new ArrayList<>();
    for (String name : names) {
      Optional<PersistentVolumeClaim> c = store.get(PersistentVolumeClaim.class, pod.pod().metadata().namespace(),
          name);
      if (c.isEmpty() || c.get().spec().volumeName().isEmpty()) {
        continue;
      }
      Optional<PersistentVolume> pv = store.get(PersistentVolume.class, "", c.get().spec().volumeName());
      if (pv.isEmpty()) {
        continue;
      }
      Map<String, String> labels = pv.get().metadata().labels();
      for (String k : KEYS) {
        String v = labels.get(k);
        if (v != null) {
          reqs.add(new Requirement(k, Set.of(v.split("__"))));
        }
      }
    }
    if (reqs.isEmpty()) {
      return PreFilterResult.skip();
    }
    state.write(KEY, new Requirements(List.copyOf(reqs)));
    return PreFilterResult.success();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    Requirements reqs = state.read(KEY);
    if (reqs == null) {
      return Status.success();
    }
    Map<String, String> labels = node.labels();
    boolean constrained = false;
    for (String k : KEYS) {
      if (labels.containsKey(k)) {
        constrained = true;
        break;
      }
    }
    if (!constrained) {
      return Status.success();
    }
    for (Requirement r : reqs.list()) {
      String v = labels.get(r.key());
      if (v == null || !r.values().contains(v)) {
        return CONFLICT;
      }
    }
    return Status.success();
  }
}
