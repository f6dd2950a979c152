package io.fleetkit.scheduler.internal;

import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.Status;
import io.fleetkit.scheduler.nodetable.NodeTable;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The Filter half of a scheduling cycle, kube's {@code findNodesThatPassFilters}: Filter runs over the candidate nodes
 * from a start offset that rotates from cycle to cycle, in chunks on the {@link ParallelRunner}, until kube's
 * {@code numFeasibleNodesToFind} nodes fit; pods nominated to a node by preemption count there for pods of lower or
 * equal priority ({@code addNominatedPods}). The cut-off is deterministic: whatever the threads' timing, the same
 * nodes are examined and found feasible.
 *
 * <p>Holds the buffers reused across cycles. Confined to the scheduling thread; the worker threads write only their
 * own slots of the status buffers.
 */
final class FeasibleNodes {
  /** {@code failedPlugin} value for a status already attributed to its plugin. */
  private static final int ATTRIBUTED = Integer.MAX_VALUE;
  /** The shortest range {@link #filterSerial} filters at once. */
  private static final int MIN_SERIAL_RANGE = 16;

  private final ClusterSnapshot snapshot;
  private final Nominator nominator;
  private final ParallelRunner runner;
  /**
   * Below this many node×plugin evaluations a cycle filters on the calling thread alone (a hand-off to the pool costs
   * about as much as 500 cheap evaluations).
   */
  private final int inlineWork;
  private long nextStartNodeIndex;

  /** PreFilter's narrowing: the allowed nodes' positions in the snapshot, ascending. */
  private int[] candidates = new int[0];
  private Status[] statuses = new Status[0];
  private int[] failedPlugin = new int[0];
  private int[] feasibleIdx = new int[0];
  /**
   * The snapshot position of the node examined at each position of the last find (as {@link #indexAt}), written by
   * {@link #runFilters} for every position it examines.
   */
  private int[] nodeAt = new int[0];
  private final FeasibleList feasibleList = new FeasibleList();
  private final AtomicInteger feasibleFound = new AtomicInteger();
  /** See {@link Prefetch}; never read. */
  @SuppressWarnings("unused")
  private int prefetchSink;

  // What the last find() examined: every node (all) or the first n candidates.
  private boolean all = true;
  private int n;
  private int start;
  private int cutoff;
  private @Nullable Status error;

  FeasibleNodes(ClusterSnapshot snapshot, Nominator nominator, ParallelRunner runner, int inlineWork,
      long firstStartIndex) {
    this.snapshot = snapshot;
    this.nominator = nominator;
    this.runner = runner;
    this.inlineWork = inlineWork;
    this.nextStartNodeIndex = firstStartIndex;
  }

  /**
   * Filters the snapshot's nodes, or only those named in {@code allowed} (PreFilter's narrowing), for {@code pod}.
   * Returns how many fit ({@link #node}), or -1 when a Filter plugin failed with an error ({@link #error()}).
   */
  int find(Framework fw, ArrayCycleState state, PodInfo pod, @Nullable Set<String> allowed) {
    int numAll = snapshot.size();
    if (allowed == null) {
      all = true;
      n = numAll;
    } else {
      if (candidates.length < allowed.size()) {
        candidates = new int[Math.max(allowed.size(), candidates.length * 2)];
      }
      int m = 0;
      for (String name : allowed) {
        int i = snapshot.indexOf(name);
        if (i >= 0) {
          candidates[m++] = i;
        }
      }
      Arrays.sort(candidates, 0, m);
      all = false;
      n = m;
    }
    if (statuses.length < n) {
      int len = Math.max(n, statuses.length * 2);
      statuses = new Status[len];
      failedPlugin = new int[len];
      feasibleIdx = new int[len];
      nodeAt = new int[len];
    }
    error = null;
    int toFind = Diagnosis.numFeasibleNodesToFind(fw.percentageOfNodesToScore(), n);
    start = n == 0 ? 0 : (int) (nextStartNodeIndex % n);
    int processed = runFilters(fw, state, pod, toFind);
    int found = 0;
    int errorAt = -1;
    cutoff = processed;
    int[] failed = failedPlugin;
    int[] at = nodeAt; // every examined position's node (runFilters wrote it)
    int[] feasible = feasibleIdx;
    int[] failedAt = fw.filterFailureCounts();
    if (failedAt == null) {
      for (int pos = 0; pos < processed; pos++) {
        if (failed[pos] < 0) {
          feasible[found++] = at[pos];
          if (found == toFind) {
            cutoff = pos + 1;
            break;
          }
        } else if (errorAt < 0 && statuses[pos].code() == Status.Code.ERROR) {
          errorAt = pos;
        }
      }
    } else {
      // the same walk, counting each plugin's rejections on the way (scheduler_plugin_evaluation_total), then the
      // examined positions past the cut-off: one pass over the search instead of two
      int plugins = failedAt.length;
      for (int pos = 0; pos < processed; pos++) {
        int f = failed[pos];
        if (f < 0) {
          feasible[found++] = at[pos];
          if (found == toFind) {
            cutoff = pos + 1;
            break;
          }
        } else {
          if (f < plugins) {
            failedAt[f]++;
          }
          if (errorAt < 0 && statuses[pos].code() == Status.Code.ERROR) {
            errorAt = pos;
          }
        }
      }
      for (int pos = cutoff; pos < processed; pos++) {
        int f = failed[pos];
        if (f >= 0 && f < plugins) {
          failedAt[f]++;
        }
      }
      fw.countFilterEvaluations(state.skipFilter, failedAt, processed);
    }
    if (errorAt >= 0) {
      error = attributed(fw, errorAt);
      return -1;
    }
    nextStartNodeIndex = (nextStartNodeIndex + cutoff) % numAll;
    feasibleList.size = found;
    return found;
  }

  /** The Filter error that made {@link #find} return -1. */
  Status error() {
    if (error == null) {
      throw new IllegalStateException("feasible nodes: the last find had no error");
    }
    return error;
  }

  /** The {@code k}-th feasible node found. */
  NodeInfo node(int k) {
    return snapshot.table.view(feasibleIdx[k]);
  }

  /** The feasible nodes' positions in the snapshot's {@link io.fleetkit.scheduler.nodetable.NodeTable}. */
  int[] indices() {
    return feasibleIdx;
  }

  /** The feasible nodes found, as the list PreScore and NormalizeScore receive. */
  List<NodeInfo> list() {
    return feasibleList;
  }

  /** Forgets the last cycle's feasible nodes. */
  void clear() {
    feasibleList.size = 0;
  }

  /** The snapshot position of the node examined at {@code pos}. */
  private int indexAt(int pos) {
    int w = start + pos;
    if (w >= n) {
      w -= n;
    }
    return all ? w : candidates[w];
  }

  /**
   * Why no node fit, after {@link #find} returned 0: each examined node's status, the count of nodes per reason (plus
   * the nodes PreFilter's narrowing by {@code narrowedBy} left out), the plugins that rejected, and whether every
   * rejection was unresolvable. Node statuses are collected only when PostFilter needs them.
   */
  record Rejections(Map<String, Status> nodeStatuses, Map<String, Integer> reasons, Set<String> rejectors,
      Set<String> pending, boolean allUnresolvable) {}

  Rejections rejections(Framework fw, @Nullable List<String> narrowedBy) {
    Map<String, Integer> reasons = new HashMap<>();
    Map<String, Status> nodeStatuses = fw.hasPostFilters() ? new HashMap<>(cutoff * 2) : null;
    Set<String> rejectors = new HashSet<>(4);
    if (narrowedBy != null) {
      rejectors.addAll(narrowedBy);
    }
    Set<String> pending = null;
    boolean allUnresolvable = true;
    for (int pos = 0; pos < cutoff; pos++) {
      Status s = attributed(fw, pos);
      if (s.plugin() != null) {
        rejectors.add(s.plugin());
        if (s.code() == Status.Code.PENDING) {
          if (pending == null) {
            pending = new HashSet<>(2);
          }
          pending.add(s.plugin());
        }
      }
      for (String reason : s.reasons()) {
        reasons.merge(reason, 1, Integer::sum);
      }
      if (s.code() != Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE) {
        allUnresolvable = false;
      }
      if (nodeStatuses != null) {
        nodeStatuses.put(snapshot.table.view(indexAt(pos)).name(), s);
      }
    }
    int numAll = snapshot.size();
    if (narrowedBy != null && numAll > n) {
      reasons.merge("node(s) didn't satisfy plugin(s) " + Diagnosis.goList(new TreeSet<>(narrowedBy)), numAll - n,
          Integer::sum);
    }
    return new Rejections(nodeStatuses == null ? Map.of() : nodeStatuses, reasons, Set.copyOf(rejectors),
        pending == null ? Set.of() : Set.copyOf(pending), allUnresolvable);
  }

  private Status attributed(Framework fw, int pos) {
    int p = failedPlugin[pos];
    Status s = statuses[pos];
    return p == ATTRIBUTED || p < 0 ? s : s.withPlugin(fw.filterName(p));
  }

  /** Runs Filter from {@code start}, wrapping, until {@code toFind} nodes fit; returns the nodes examined. */
  private int runFilters(Framework fw, ArrayCycleState state, PodInfo pod, int toFind) {
    int n = this.n;
    if (n == 0) {
      return 0;
    }
    boolean all = this.all;
    int[] cand = candidates;
    NodeTable table = snapshot.table;
    int start = this.start;
    boolean[] skip = state.skipFilter;
    Status[] st = statuses;
    int[] failed = failedPlugin;
    boolean nominated = !nominator.isEmpty();
    boolean prefetch = nominated || fw.filtersReadViews(skip);
    if (!fw.hasFilters() && !nominated) {
      int k = Math.min(n, toFind);
      Arrays.fill(failed, 0, k, -1);
      for (int pos = 0; pos < k; pos++) {
        nodeAt[pos] = indexAt(pos);
      }
      return k;
    }
    int work = Math.max(1, fw.filterCount()) * Math.min(n, Math.max(toFind, 1));
    boolean serial = work <= inlineWork || runner.parallelism() == 1;
    if (serial && !nominated) {
      return filterSerial(fw, state, skip, pod, table, toFind);
    }
    feasibleFound.set(0);
    int chunk = serial
        ? Math.max(toFind, 64)
        : Math.max(16, Math.min(toFind, n) / (runner.parallelism() * 2));
    ParallelRunner.Job[] self = new ParallelRunner.Job[1];
    int[] at = nodeAt;
    ParallelRunner.Job job = ParallelRunner.job(n, chunk, nominated ? (from, to) -> {
      int local = 0;
      int touched = 0;
      for (int pos = from; pos < to; pos++) {
        int w = start + pos;
        if (w >= n) {
          w -= n;
        }
        int i = all ? w : cand[w];
        at[pos] = i;
        if (prefetch && pos + Prefetch.DISTANCE < to) {
          int ahead = w + Prefetch.DISTANCE;
          if (ahead >= n) {
            ahead -= n;
          }
          touched += Prefetch.touch(table.view(all ? ahead : cand[ahead]));
        }
        int r = nominated
            ? filterWithNominated(fw, state, skip, pod, table.view(i), st, pos)
            : fw.runFilter(state, skip, pod, table, i, st, pos);
        failed[pos] = r;
        if (r < 0) {
          local++;
        }
      }
      prefetchSink = touched;
      if (local > 0 && feasibleFound.addAndGet(local) >= toFind) {
        self[0].stop();
      }
    } : (from, to) -> {
      placeNodes(at, from, to);
      fw.runFilterRange(state, skip, pod, table, at, from, to, st, failed, false);
      int local = 0;
      for (int pos = from; pos < to; pos++) {
        if (failed[pos] < 0) {
          local++;
        }
      }
      if (local > 0 && feasibleFound.addAndGet(local) >= toFind) {
        self[0].stop();
      }
    });
    self[0] = job;
    runner.run(job);
    return job.processed();
  }

  /**
   * Writes into {@code at[from..to)} the node index examined at each position: positions count from {@link #start}
   * and wrap at {@link #n}, over every node or over {@link #candidates}.
   */
  private void placeNodes(int[] at, int from, int to) {
    int n = this.n;
    int start = this.start;
    boolean all = this.all;
    int[] cand = candidates;
    for (int pos = from; pos < to; pos++) {
      int w = start + pos;
      if (w >= n) {
        w -= n;
      }
      at[pos] = all ? w : cand[w];
    }
  }

  /**
   * {@link #runFilters} on the calling thread alone: ranges of positions from {@code start}, each filtered plugin by
   * plugin, until {@code toFind} nodes fit or every node was examined; returns the nodes examined. The first range is
   * {@code toFind} long (when every node fits, nothing is examined in vain); each further one is sized from the share
   * of nodes that fitted so far, plus an eighth, so that a window with full or excluded nodes costs about one more
   * range instead of another {@code toFind} nodes. The ranges only decide how many nodes past the cut-off are
   * examined for nothing: {@link #find} cuts at the {@code toFind}-th feasible node in order, whatever they were.
   */
  private int filterSerial(Framework fw, ArrayCycleState state, boolean @Nullable [] skip, PodInfo pod,
      NodeTable table, int toFind) {
    int n = this.n;
    int[] at = nodeAt;
    int[] failed = failedPlugin;
    Status[] st = statuses;
    int processed = 0;
    int found = 0;
    while (processed < n && found < toFind) {
      int need = toFind - found;
      long size;
      if (processed == 0) {
        size = Math.max(need, MIN_SERIAL_RANGE);
      } else if (found == 0) {
        size = 2L * processed;
      } else {
        long estimate = ((long) need * processed + found - 1) / found;
        size = Math.max(MIN_SERIAL_RANGE, estimate + (estimate >> 3));
      }
      int from = processed;
      int to = (int) Math.min(n, from + size);
      placeNodes(at, from, to);
      fw.runFilterRange(state, skip, pod, table, at, from, to, st, failed, true);
      processed = to;
      if (processed == n) {
        break; // nothing left to examine: find() counts
      }
      for (int pos = from; pos < to; pos++) {
        if (failed[pos] < 0) {
          found++;
        }
      }
    }
    return processed;
  }

  /**
   * kube's {@code addNominatedPods} + two-pass Filter: with the nominated pods of higher or equal priority added the
   * node must fit, and without them too.
   */
  private int filterWithNominated(Framework fw, ArrayCycleState state, boolean @Nullable [] skip, PodInfo pod,
      NodeInfo node, Status[] st, int pos) {
    List<PodInfo> noms = nominator.forNode(node.name());
    List<PodInfo> added = null;
    if (noms != null) {
      for (PodInfo np : noms) {
        if (np.priority() >= pod.priority() && !np.key().equals(pod.key())) {
          if (added == null) {
            added = new ArrayList<>(2);
          }
          added.add(np);
        }
      }
    }
    if (added == null) {
      return fw.runFilter(state, skip, pod, node, st, pos);
    }
    List<PodInfo> all = new ArrayList<>(node.pods());
    all.addAll(added);
    NodeInfo withNominated = NodeInfos.of(node.node(), all);
    ArrayCycleState copy = (ArrayCycleState) state.copy();
    for (PodInfo np : added) {
      Status s = fw.runPreFilterExtensionAddPod(copy, pod, np, withNominated);
      if (!s.isSuccess()) {
        st[pos] = s;
        return ATTRIBUTED;
      }
    }
    int r = fw.runFilter(copy, skip, pod, withNominated, st, pos);
    if (r >= 0) {
      return r;
    }
    return fw.runFilter(state, skip, pod, node, st, pos);
  }

  /** The feasible nodes as a List of their views (fetched on demand); reused every cycle. */
  private final class FeasibleList extends AbstractList<NodeInfo> implements RandomAccess {
    int size;

    @Override
    public NodeInfo get(int index) {
      if (index >= size) {
        throw new IndexOutOfBoundsException("feasible node " + index + " of " + size);
      }
      return node(index);
    }

    @Override
    public int size() {
      return size;
    }
  }
}
