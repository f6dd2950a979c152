package io.fleetkit.scheduler.plugins.imagelocality;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerImage;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PluginFactory;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreScorePlugin;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.StateKey;
import io.fleetkit.api.framework.Status;
import io.fleetkit.scheduler.nodetable.NodeImages;
import io.fleetkit.scheduler.nodetable.NodeTable;
import io.fleetkit.scheduler.nodetable.TableScore;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Prefers nodes that already hold the pod's container images, as kube-scheduler's {@code ImageLocality}
 * ({@code pkg/scheduler/framework/plugins/imagelocality/image_locality.go}).
 *
 * <ul>
 *   <li>Each image of the pod's init containers and containers (by {@link #normalizedImageName}, duplicates counted
 *       as often as they appear) that the node reports in {@code status.images} adds its size scaled by its spread,
 *       the share of the cluster's nodes that report it ({@code NumNodes / total nodes}), so that an image on one node
 *       out of many does not pull every replica there (upstream's "node heating").
 *   <li>The sum, clamped to [{@value #MIN_THRESHOLD} bytes (23 MiB), {@value #MAX_CONTAINER_THRESHOLD} bytes
 *       (1000 MiB) x the number of init containers and containers], maps linearly onto [0, 100]. No NormalizeScore.
 * </ul>
 *
 * <p>Upstream since kubernetes PR 130231 also scores image volumes ({@code volumes[].image.reference}); FleetKit's
 * volumes have no image source, so there is nothing to add.
 *
 * <p><b>Cost.</b> How many nodes report each image is kept by the engine's {@link NodeTable} ({@link NodeImages}) as
 * nodes are added, updated and removed, as upstream's cache keeps {@code imageStates}: never recomputed over the nodes
 * in a cycle. With no node reporting any image (benchmarks, simulations), PreScore is one field read and returns Skip,
 * so Score never runs and nothing is allocated. When some nodes report images but none of the pod's, PreScore is one
 * hash lookup per container and Skips too. Otherwise PreScore is O(containers) and Score per node is one hash lookup
 * per container whose image some node has (nothing for a node that reports no image), and {@link #scoreKey} lets the
 * engine keep those scores across the cycles of identical pods, scoring again only nodes that changed. Over a
 * snapshot without a {@code NodeTable} (a plugin harness), PreScore walks every node's images once instead.
 *
 * <p>Thread-safe: the per-cycle state is written once in PreScore and only read in Score; the image numbering of
 * {@link #scoreKey} is a concurrent map written on the scheduling thread.
 */
public final class ImageLocalityPlugin implements PreScorePlugin, TableScore {
  /** The name this plugin is registered under. */
  public static final String NAME = "ImageLocality";
  /** Lower bound of the summed scaled image sizes: at or below it a node scores 0 (23 MiB). */
  public static final long MIN_THRESHOLD = 23L * 1024 * 1024;
  /** Upper bound per container (init containers included): at or above the total a node scores 100 (1000 MiB). */
  public static final long MAX_CONTAINER_THRESHOLD = 1000L * 1024 * 1024;

  /** Creates the plugin for a profile (no arguments). */
  public static final PluginFactory FACTORY = handle -> new ImageLocalityPlugin(handle::snapshot);

  private static final StateKey<PreScoreState> KEY = StateKey.of("PreScore" + NAME, PreScoreState.class);

  /** Past this many distinct image names numbered for {@link #scoreKey}, cycles go without a key. */
  private static final int MAX_IMAGE_IDS = 1 << 16;

  private final Supplier<Snapshot> snapshot;
  /** Image names numbered for {@link #scoreKey} (written on the scheduling thread only). */
  private final ConcurrentHashMap<String, Long> imageIds = new ConcurrentHashMap<>();

  /** A plugin reading the cycle's snapshot from {@code snapshot} (the framework handle's, in a profile). */
  public ImageLocalityPlugin(Supplier<Snapshot> snapshot) {
    this.snapshot = snapshot;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> feasibleNodes) {
    Snapshot snapshot = this.snapshot.get();
    NodeTable table = NodeTable.of(snapshot);
    if (table != null && table.images().nodesWithImages() == 0) {
      return Status.skip(); // every node scores 0
    }
    PreScoreState s = PreScoreState.of(pod.pod().spec(), snapshot, table);
    if (s == null) {
      return Status.skip(); // no node has any of the pod's images: every node scores 0
    }
    state.write(KEY, s);
    return Status.success();
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    PreScoreState s = stateOf(state, pod);
    if (s == null || node.node().status().images().isEmpty()) {
      return 0;
    }
    long sum = 0;
    for (int k = 0; k < s.names.length; k++) {
      if (s.numNodes[k] > 0) {
        long size = sizeOn(node.node().status().images(), s.names[k]);
        if (size >= 0) {
          sum = add(sum, scaledImageScore(size, s.numNodes[k], s.totalNodes));
        }
      }
    }
    return calculatePriority(sum, s.names.length);
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeTable table, int node) {
    NodeImages images = table.images();
    if (!images.any(node)) {
      return 0;
    }
    PreScoreState s = stateOf(state, pod);
    if (s == null) {
      return 0;
    }
    long sum = 0;
    for (int k = 0; k < s.names.length; k++) {
      if (s.numNodes[k] > 0) {
        long size = images.size(node, s.names[k]);
        if (size >= 0) {
          sum = add(sum, scaledImageScore(size, s.numNodes[k], s.totalNodes));
        }
      }
    }
    return calculatePriority(sum, s.names.length);
  }

  /**
   * A node's score depends, besides its own images (its row), on the pod's image names and how many of the snapshot's
   * nodes report each, and on the node count: the key numbers them, so that the engine keeps each node's score for
   * the replicas of one workload and scores again only the nodes that changed. Null without PreScore state or once
   * {@value #MAX_IMAGE_IDS} names were numbered.
   */
  @Override
  public long @Nullable [] scoreKey(CycleState state, PodInfo pod) {
    PreScoreState s = state.read(KEY);
    if (s == null) {
      return null;
    }
    long[] key = new long[2 + 2 * s.names.length];
    key[0] = s.totalNodes;
    key[1] = s.names.length;
    for (int k = 0; k < s.names.length; k++) {
      Long id = imageIds.get(s.names[k]);
      if (id == null) {
        if (imageIds.size() >= MAX_IMAGE_IDS) {
          return null;
        }
        id = (long) imageIds.size();
        imageIds.put(s.names[k], id);
      }
      key[2 + 2 * k] = id;
      key[3 + 2 * k] = s.numNodes[k];
    }
    return key;
  }

  /** Every node scores 0 when none reports an image. */
  @Override
  public long uniformScore(CycleState state, PodInfo pod, NodeTable table) {
    return table.images().nodesWithImages() == 0 ? 0 : NOT_UNIFORM;
  }

  /** This cycle's state, or (a framework that skipped PreScore) the same computed now. */
  private @Nullable PreScoreState stateOf(CycleState state, PodInfo pod) {
    PreScoreState s = state.read(KEY);
    if (s != null) {
      return s;
    }
    Snapshot snapshot = this.snapshot.get();
    return PreScoreState.of(pod.pod().spec(), snapshot, NodeTable.of(snapshot));
  }

  /**
   * Upstream's {@code normalizedImageName}: a name without a tag (no {@code :} after the last {@code /}) gets
   * {@code :latest}; a tagged or digest reference ({@code name@sha256:...}) is kept as it is.
   */
  public static String normalizedImageName(String name) {
    return name.lastIndexOf(':') <= name.lastIndexOf('/') ? name + ":latest" : name;
  }

  /** Upstream's {@code scaledImageScore}: the size times the share of nodes holding it, in double, truncated. */
  static long scaledImageScore(long size, int numNodes, int totalNodes) {
    double spread = (double) numNodes / (double) totalNodes;
    return (long) ((double) size * spread);
  }

  /** Upstream's {@code calculatePriority}: the clamped sum mapped linearly onto [0, 100]. */
  static long calculatePriority(long sumScores, int numContainers) {
    long maxThreshold = MAX_CONTAINER_THRESHOLD * numContainers;
    long sum = Math.max(MIN_THRESHOLD, Math.min(sumScores, maxThreshold));
    return MAX_NODE_SCORE * (sum - MIN_THRESHOLD) / (maxThreshold - MIN_THRESHOLD);
  }

  private static long add(long a, long b) {
    long r = a + b;
    return r < 0 ? Long.MAX_VALUE : r; // both are non-negative: a negative sum overflowed
  }

  /** The size {@code images} give for {@code name} (the first image listing it), or -1. */
  private static long sizeOn(List<ContainerImage> images, String name) {
    for (int i = 0; i < images.size(); i++) {
      if (images.get(i).names().contains(name)) {
        return images.get(i).sizeBytes();
      }
    }
    return -1;
  }

  @Override
  public String toString() {
    return NAME;
  }

  /**
   * The pod's normalised image names (init containers first, then containers), how many nodes report each, and the
   * snapshot's node count.
   */
  private record PreScoreState(String[] names, int[] numNodes, int totalNodes) {
    /** The state, or {@code null} when no node reports any of the pod's images (or the pod has no container). */
    static @Nullable PreScoreState of(PodSpec spec, Snapshot snapshot, @Nullable NodeTable table) {
      int n = spec.initContainers().size() + spec.containers().size();
      int total = snapshot.size();
      if (n == 0 || total == 0) {
        return null;
      }
      String[] names = new String[n];
      int k = 0;
      for (Container c : spec.initContainers()) {
        names[k++] = normalizedImageName(c.image());
      }
      for (Container c : spec.containers()) {
        names[k++] = normalizedImageName(c.image());
      }
      int[] numNodes = new int[n];
      boolean any = false;
      if (table != null) {
        for (int i = 0; i < n; i++) {
          numNodes[i] = table.images().nodeCount(names[i]);
          any |= numNodes[i] > 0;
        }
      } else {
        Map<String, Integer> counted = countByWalking(names, snapshot);
        for (int i = 0; i < n; i++) {
          numNodes[i] = counted.get(names[i]);
          any |= numNodes[i] > 0;
        }
      }
      return any ? new PreScoreState(names, numNodes, total) : null;
    }

    /** How many of the snapshot's nodes report each of {@code names} (each node once per name). */
    private static Map<String, Integer> countByWalking(String[] names, Snapshot snapshot) {
      String[] distinct = Arrays.stream(names).distinct().toArray(String[]::new);
      int[] counts = new int[distinct.length];
      for (NodeInfo node : snapshot.nodes()) {
        List<ContainerImage> images = node.node().status().images();
        if (images.isEmpty()) {
          continue;
        }
        for (int j = 0; j < distinct.length; j++) {
          if (sizeOn(images, distinct[j]) >= 0) {
            counts[j]++;
          }
        }
      }
      Map<String, Integer> out = new HashMap<>();
      for (int j = 0; j < distinct.length; j++) {
        out.put(distinct[j], counts[j]);
      }
      return out;
    }
  }
}
