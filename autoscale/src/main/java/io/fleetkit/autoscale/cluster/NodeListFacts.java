package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.autoscale.cluster.simulator.SimulatedNodes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What the autoscaler's loop reads of every node of a node list: its pool ({@link NodePool#POOL_LABEL}), whether it
 * is starting ({@link SimulatedNodes#isStarting}), whether it is being deleted, whether it is not Ready and when it was
 * created; and from those the pool sizes
 * (nodes of the pool not being deleted), the ready nodes (those not starting) and the starting pool nodes.
 *
 * <p>A node object is immutable, so its facts hold while a list holds the same object. {@link #update} takes the
 * facts of an unchanged node from the previous list by walking both lists side by side: a node is read only when its
 * object is not the one at the matching place of the previous list. A store lists nodes in name order, so a list differs
 * from the previous one at the nodes added, removed or changed; a list out of name order is still read correctly,
 * with more of its nodes read.
 *
 * <p>Not thread-safe: one per autoscaler, used inside its loop.
 */
final class NodeListFacts {
  private @Nullable List<Node> list;
  private Node[] nodes = new Node[0];
  private int size;
  /** Per node, the index of its pool in {@link #poolNames}, or -1 when it has no pool label. */
  private int[] pool = new int[0];
  private boolean[] starting = new boolean[0];
  private boolean[] deleting = new boolean[0];
  /** Per node, whether its Ready condition is not True (and it is not being deleted), and its creation time. */
  private boolean[] notReady = new boolean[0];
  private @Nullable Instant[] created = new Instant[0];
  private final Map<String, Integer> poolIds = new HashMap<>();
  private final List<String> poolNames = new ArrayList<>();
  /** Per pool index, the nodes of {@link #nodes} in the pool and not being deleted. */
  private int[] poolSizes = new int[0];
  private @Nullable List<Node> ready;
  private @Nullable List<Node> startingPooled;

  /** Makes the facts those of {@code nodes}; nothing is read when it is the list of the last update. */
  void update(List<Node> nodes) {
    if (nodes == list) {
      return;
    }
    int n = nodes.size();
    Node[] nn = new Node[n];
    int[] np = new int[n];
    boolean[] ns = new boolean[n];
    boolean[] nd = new boolean[n];
    boolean[] nr = new boolean[n];
    Instant[] nc = new Instant[n];
    int j = 0;
    for (int i = 0; i < n; i++) {
      Node a = nodes.get(i);
      nn[i] = a;
      if (j < size && this.nodes[j] == a) { // the same object: the same facts
        np[i] = pool[j];
        ns[i] = starting[j];
        nd[i] = deleting[j];
        nr[i] = notReady[j];
        nc[i] = created[j];
        j++;
        continue;
      }
      // passes the previous list's nodes named before a (gone, when the lists are in name order) and the one a
      // replaces; in a list out of name order this may pass nodes met later, which are then read
      while (j < size && this.nodes[j].name().compareTo(a.name()) < 0) {
        j++;
      }
      if (j < size && this.nodes[j].name().equals(a.name())) {
        j++;
      }
      read(a, i, np, ns, nd);
      nr[i] = !nd[i] && !a.isReady();
      nc[i] = a.metadata().creationTimestamp();
    }
    this.list = nodes;
    this.nodes = nn;
    this.size = n;
    this.pool = np;
    this.starting = ns;
    this.deleting = nd;
    this.notReady = nr;
    this.created = nc;
    int[] sizes = new int[poolNames.size()];
    for (int i = 0; i < n; i++) {
      if (np[i] >= 0 && !nd[i]) {
        sizes[np[i]]++;
      }
    }
    this.poolSizes = sizes;
    this.ready = null;
    this.startingPooled = null;
  }

  private void read(Node a, int i, int[] np, boolean[] ns, boolean[] nd) {
    String p = a.metadata().labels().get(NodePool.POOL_LABEL);
    np[i] = p == null ? -1 : poolIds.computeIfAbsent(p, k -> {
      poolNames.add(k);
      return poolNames.size() - 1;
    });
    ns[i] = SimulatedNodes.isStarting(a);
    nd[i] = a.metadata().deletionTimestamp() != null;
  }

  /** The nodes of the list in pool {@code poolName} and not being deleted. */
  int poolSize(String poolName) {
    Integer id = poolIds.get(poolName);
    return id == null || id >= poolSizes.length ? 0 : poolSizes[id];
  }

  /**
   * The health of every pool named in {@code pools} ({@link NodeGroupHealth#of}), counted from the facts kept per
   * node: one pass over arrays, no node read.
   */
  Map<String, NodeGroupHealth.PoolHealth> poolHealth(Iterable<String> pools, Instant now, AutoscalerOptions options,
      NodeGroupConfig config) {
    Duration[] startup = startupTimes(config);
    int[][] counts = new int[poolNames.size()][];
    for (int i = 0; i < size; i++) {
      int p = pool[i];
      if (p < 0) {
        continue;
      }
      int[] c = counts[p];
      if (c == null) {
        c = new int[5];
        counts[p] = c;
      }
      if (deleting[i]) {
        c[4]++;
        continue;
      }
      if (!notReady[i]) {
        c[0]++;
      } else if (ClusterHealth.startedRecently(created[i], now, startup[p])) {
        c[2]++;
      } else {
        c[1]++;
      }
      if (starting[i]) {
        c[3]++;
      }
    }
    Map<String, NodeGroupHealth.PoolHealth> out = new HashMap<>();
    for (String name : pools) {
      Integer id = poolIds.get(name);
      int[] c = id == null ? null : counts[id];
      out.put(name, NodeGroupHealth.of(c == null ? new int[5] : c, options));
    }
    return out;
  }

  /** The nodes of the list. */
  int size() {
    return size;
  }

  /**
   * The nodes of the list that count as unready at {@code now} ({@link ClusterHealth#unready}), each with its pool's
   * start-up time ({@code config}).
   */
  int unready(Instant now, NodeGroupConfig config) {
    Duration[] startup = startupTimes(config);
    Duration outside = config.maxNodeStartupTime(null);
    int count = 0;
    for (int i = 0; i < size; i++) {
      if (notReady[i] && !ClusterHealth.startedRecently(created[i], now, pool[i] < 0 ? outside : startup[pool[i]])) {
        count++;
      }
    }
    return count;
  }

  /** Each pool's (by id) {@code maxNodeStartupTime}. */
  private Duration[] startupTimes(NodeGroupConfig config) {
    Duration[] startup = new Duration[poolNames.size()];
    for (int p = 0; p < startup.length; p++) {
      startup[p] = config.maxNodeStartupTime(poolNames.get(p));
    }
    return startup;
  }

  /** The nodes of the list not starting, in list order: the same list object until the next change. */
  List<Node> ready() {
    List<Node> r = ready;
    if (r == null) {
      List<Node> out = new ArrayList<>(size);
      for (int i = 0; i < size; i++) {
        if (!starting[i]) {
          out.add(nodes[i]);
        }
      }
      r = Collections.unmodifiableList(out);
      ready = r;
    }
    return r;
  }

  /** The starting nodes of the list that carry a pool label, in list order. */
  List<Node> startingPooled() {
    List<Node> r = startingPooled;
    if (r == null) {
      List<Node> out = new ArrayList<>();
      for (int i = 0; i < size; i++) {
        if (starting[i] && pool[i] >= 0) {
          out.add(nodes[i]);
        }
      }
      r = out.isEmpty() ? List.of() : Collections.unmodifiableList(out);
      startingPooled = r;
    }
    return r;
  }

  @Override
  public String toString() {
    return "NodeListFacts(" + size + " nodes, pools " + poolNames + " sizes " + Arrays.toString(poolSizes) + ")";
  }
}
