package io.fleetkit.scheduler.plugins.interpodaffinity;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.scheduler.nodetable.NodeTable;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What each node's pods carry, memoized across scheduling cycles by position in {@code Snapshot.nodes()} and
 * validated by the {@link NodeInfo} object and its {@link NodeInfo#generation()} (in the spirit of upstream's
 * {@code nodememo}): whether the node holds a pod with a required anti-affinity term keyed by
 * {@code kubernetes.io/hostname} ({@link #HOST_ANTI}) or by another key ({@link #NON_HOST_ANTI}), and whether it holds
 * a pod whose terms count in scoring ({@link #SCORING}: required affinity or any preferred term).
 *
 * <p>This turns PreFilter's and PreScore's walk over every pod with (anti-)affinity into a walk over node references
 * that visits only the nodes that changed since the last cycle and the nodes that can contribute. Not thread-safe:
 * callers hold its monitor across {@link #refresh} and the reads that follow.
 */
final class NodeMemo {
  static final int NON_HOST_ANTI = 1;
  static final int HOST_ANTI = 2;
  static final int SCORING = 4;
  private static final int KINDS = 3;

  private NodeInfo[] nodes = new NodeInfo[0];
  private long[] generations = new long[0];
  private byte[] flags = new byte[0];
  private int size;
  /** Incremented by every {@link #refresh}: a cycle that refreshed can tell whether someone refreshed since. */
  private long version;
  /** How many current nodes have each flag bit. */
  private final int[] counts = new int[KINDS];
  /**
   * The positions refreshed since {@link #logBase}, in order: the change log that {@link MatchIndex} and
   * {@link ScoreIndex} replay to update only the nodes that changed. Cleared (and {@link #logBase} advanced) when it
   * grows past a few times the node count; a reader that fell behind the base rebuilds from every node.
   */
  private int[] log = new int[64];
  private int logLength;
  private long logBase;

  /** The table the memo last followed, and how far into its change log ({@code -1}: not following one). */
  private @Nullable NodeTable table;
  private long tableSeen = -1;

  /**
   * Brings the memo up to date with {@code all} (the snapshot's nodes, in order), visiting only the positions
   * {@code table}'s change log names when {@code all} is that table's nodes and the memo followed it since the log's
   * base; every position otherwise.
   */
  void refresh(List<NodeInfo> all, @Nullable NodeTable table) {
    if (table == null || table != this.table || tableSeen < table.logBase() || all.size() < size) {
      refresh(all);
    } else {
      version++;
      trimLog(all.size());
      int n = all.size();
      for (int i = size; i < n; i++) {
        size = i;
        visit(i, all.get(i));
      }
      size = n;
      for (long seq = tableSeen, end = table.logEnd(); seq < end; seq++) {
        int i = table.changedAt(seq);
        if (i < n) {
          visit(i, all.get(i)); // a position logged twice is visited once: the second visit finds it current
        }
      }
    }
    this.table = table;
    tableSeen = table == null ? -1 : table.logEnd();
  }

  /** Brings the memo up to date with {@code all} (the snapshot's nodes, in order), visiting every position. */
  void refresh(List<NodeInfo> all) {
    version++;
    int n = all.size();
    trimLog(n);
    for (int i = n; i < size; i++) {
      count(flags[i], -1);
      nodes[i] = null;
      flags[i] = 0;
      append(i);
    }
    for (int i = 0; i < n; i++) {
      visit(i, all.get(i));
    }
    size = n;
  }

  private void trimLog(int n) {
    if (nodes.length < n) {
      nodes = Arrays.copyOf(nodes, n);
      generations = Arrays.copyOf(generations, n);
      flags = Arrays.copyOf(flags, n);
    }
    if (logLength > Math.max(1024, 4 * Math.max(n, size))) {
      logBase += logLength;
      logLength = 0;
    }
  }

  /** Records {@code node} at position {@code i} unless it is already the one recorded there. */
  private void visit(int i, NodeInfo node) {
    if (i < size && nodes[i] == node && generations[i] == node.generation()) {
      return;
    }
    if (i < size) {
      count(flags[i], -1);
    }
    append(i);
    byte f = flagsOf(node);
    nodes[i] = node;
    generations[i] = node.generation();
    flags[i] = f;
    count(f, 1);
  }

  private void append(int position) {
    if (logLength == log.length) {
      log = Arrays.copyOf(log, logLength * 2);
    }
    log[logLength++] = position;
  }

  int size() {
    return size;
  }

  /** The sequence number of the oldest change still in the log. */
  long logBase() {
    return logBase;
  }

  /** The sequence number the next change will get: a reader that has seen up to here is current. */
  long logEnd() {
    return logBase + logLength;
  }

  /** The position changed at sequence number {@code seq} ({@link #logBase()} &lt;= seq &lt; {@link #logEnd()}). */
  int changedAt(long seq) {
    return log[(int) (seq - logBase)];
  }

  /** The node at {@code i}, or {@code null} past the end (a node removed since a reader last looked). */
  @Nullable NodeInfo nodeOrNull(int i) {
    return i < size ? nodes[i] : null;
  }

  long version() {
    return version;
  }

  NodeInfo node(int i) {
    return nodes[i];
  }

  boolean has(int i, int flag) {
    return (flags[i] & flag) != 0;
  }

  /** Whether some node has {@code flag} (a single bit). */
  boolean any(int flag) {
    return counts[Integer.numberOfTrailingZeros(flag)] > 0;
  }

  private void count(byte f, int delta) {
    for (int k = 0; k < KINDS; k++) {
      if ((f & (1 << k)) != 0) {
        counts[k] += delta;
      }
    }
  }

  private static byte flagsOf(NodeInfo node) {
    int f = 0;
    List<PodInfo> anti = node.podsWithRequiredAntiAffinity();
    for (int j = 0, m = anti.size(); j < m; j++) {
      Pod p = anti.get(j).pod();
      if (PodTerms.hasNonHostScopedRequiredAntiAffinity(p)) {
        f |= NON_HOST_ANTI;
      }
      if (PodTerms.hasHostScopedRequiredAntiAffinity(p)) {
        f |= HOST_ANTI;
      }
    }
    List<PodInfo> aff = node.podsWithAffinity();
    for (int j = 0, m = aff.size(); j < m; j++) {
      if (PodTerms.hasScoringTerms(aff.get(j).pod())) {
        f |= SCORING;
        break;
      }
    }
    return (byte) f;
  }
}
