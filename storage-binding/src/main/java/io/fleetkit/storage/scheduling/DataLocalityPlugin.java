package io.fleetkit.storage.scheduling;

import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PluginFactory;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreScorePlugin;
import io.fleetkit.api.framework.ScorePlugin;
import io.fleetkit.api.framework.StateKey;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.storage.TopologyLabels;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Prefers nodes near the data a pod needs (FleetKit's own plugin; kube has none). Two signals, averaged into
 * [0, 100]:
 *
 * <ul>
 *   <li><b>Datasets.</b> A pod names the datasets it reads in the annotation {@value #DATASETS_ANNOTATION}
 *       (comma-separated, e.g. {@code imagenet,laion-400m}). A node holding dataset {@code D} carries the label
 *       {@code data.fleetkit.io/D} (any value): 100 for that dataset. A zone holding it is declared in the plugin
 *       arguments, {@code zones: {<zone>: "D1,D2"}} (or a list): 50 for nodes of that zone
 *       ({@code topology.kubernetes.io/zone}). Otherwise 0.
 *   <li><b>Volume topology.</b> Each bound volume of the pod pinned to zones scores 100 on nodes of those zones.
 * </ul>
 *
 * A pod with neither signal is not scored (PreScore skips). Thread-safe.
 */
public final class DataLocalityPlugin implements PreScorePlugin, ScorePlugin {
  public static final String NAME = "DataLocality";
  /** The pod annotation naming its datasets. */
  public static final String DATASETS_ANNOTATION = "data.fleetkit.io/datasets";
  /** The node label prefix declaring a dataset held on the node; the dataset name follows. */
  public static final String NODE_LABEL_PREFIX = "data.fleetkit.io/";
  /** The plugin argument mapping a zone to the datasets it holds. */
  public static final String ARG_ZONES = "zones";

  private record PodData(List<String> datasets, List<Set<String>> volumeZones) {}

  private static final StateKey<PodData> KEY = StateKey.of("PreScore" + NAME, PodData.class);

  private final ObjectStore store;
  /** Dataset to the zones holding it. */
  private final Map<String, Set<String>> zonesByDataset;

  DataLocalityPlugin(ObjectStore store, Map<String, Set<String>> zonesByDataset) {
    this.store = store;
    this.zonesByDataset = zonesByDataset;
  }

  /** A factory reading the {@value #ARG_ZONES} argument from the profile. */
  public static PluginFactory factory(ObjectStore store) {
    return handle -> new DataLocalityPlugin(store, parseZones(handle.pluginArgs(NAME).get(ARG_ZONES)));
  }

  private static Map<String, Set<String>> parseZones(@Nullable Object arg) {
    Map<String, Set<String>> out = new HashMap<>();
    if (arg == null) {
      return out;
    }
    if (!(arg instanceof Map<?, ?> zones)) {
      throw new IllegalArgumentException("plugin " + NAME + ": argument " + ARG_ZONES
          + " must map zones to datasets, was " + arg);
    }
    zones.forEach((zone, value) -> {
      Collection<?> names = value instanceof Collection<?> c ? c : List.of(String.valueOf(value).split(","));
      for (Object n : names) {
        String d = String.valueOf(n).trim();
        if (!d.isEmpty()) {
          out.computeIfAbsent(d, k -> new HashSet<>()).add(String.valueOf(zone));
        }
      }
    });
    return out;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> feasibleNodes) {
    List<String> datasets = new ArrayList<>();
    String ann = pod.pod().metadata().annotations().get(DATASETS_ANNOTATION);
    if (ann != null) {
      for (String d : ann.split(",")) {
        if (!d.trim().isEmpty()) {
          datasets.add(d.trim());
        }
      }
    }
    List<Set<String>> zones = new ArrayList<>();
    for (String claim : PodClaims.of(pod.pod())) {
      Optional<PersistentVolumeClaim> c = store.get(PersistentVolumeClaim.class, pod.pod().metadata().namespace(),
          claim);
      if (c.isPresent() && !c.get().spec().volumeName().isEmpty()) {
        Optional<PersistentVolume> pv = store.get(PersistentVolume.class, "", c.get().spec().volumeName());
        pv.map(VolumeTopology::zones).filter(z -> !z.isEmpty()).ifPresent(zones::add);
      }
    }
    if (datasets.isEmpty() && zones.isEmpty()) {
      return Status.skip();
    }
    state.write(KEY, new PodData(List.copyOf(datasets), List.copyOf(zones)));
    return Status.success();
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    PodData data = state.read(KEY);
    if (data == null) {
      return 0;
    }
    Map<String, String> labels = node.labels();
    String zone = labels.get(TopologyLabels.ZONE);
    long total = 0;
    for (String d : data.datasets()) {
      if (labels.containsKey(NODE_LABEL_PREFIX + d)) {
        total += MAX_NODE_SCORE;
      } else if (zone != null && zonesByDataset.getOrDefault(d, Set.of()).contains(zone)) {
        total += MAX_NODE_SCORE / 2;
      }
    }
    for (Set<String> z : data.volumeZones()) {
      if (zone != null && z.contains(zone)) {
        total += MAX_NODE_SCORE;
      }
    }
    return total / (data.datasets().size() + data.volumeZones().size());
  }
}
