package io.fleetkit.autoscale.cluster.simulator;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitPlugin;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * The numbers of a {@link SimulatedCluster}'s slots, in one row of numbers per slot, and the placements not yet made
 * into views. The drain simulation's fast search ({@link FilterShapes}) decides {@code NodeResourcesFit} on these rows
 * instead of reading each visited node's view, node and allocatable objects; a placement of a pod without
 * (anti-)affinity terms appends the pod to its slot's deferred list and adds its requests here, and the slot's view is
 * made from the deferred pods only when something reads it ({@link SimulatedCluster}'s {@code current}).
 *
 * <p>Each slot holds what its view (the slot's view plus its deferred pods) gives: the pod count, the allocatable
 * pods, cpu, memory and ephemeral storage of its node and the summed requests as {@link SimNodeInfo#withPod} sums them
 * (saturating per resource, in the order added); whether the view holds pods with affinity or required anti-affinity
 * terms (deferred pods have none); and the version of its node object, which changes whenever the slot gets a view of
 * another node object, so that facts computed from the node alone can be kept by version. A slot's numbers can be
 * {@linkplain #save saved} before it changes and {@linkplain #restore restored}, which is how the simulation's
 * rollback gives each changed slot its numbers back without reading its view.
 *
 * <p>Not thread-safe: one per simulation, used by its thread.
 */
final class SlotNumbers {
  /**
   * The numbers of each slot, one row of {@link #ROW} longs per slot (a search visits a slot's numbers together, so
   * they share a row instead of sitting in one array each): the pod count, the allocatable pods, cpu, memory and
   * ephemeral storage, and the summed cpu, memory and ephemeral storage requests.
   */
  private static final int ROW = 8;
  private static final int PODS = 0;
  private static final int ALLOC_PODS = 1;
  private static final int ALLOC_CPU = 2;
  private static final int REQ_CPU = 3;
  private static final int ALLOC_MEM = 4;
  private static final int REQ_MEM = 5;
  private static final int ALLOC_EPH = 6;
  private static final int REQ_EPH = 7;
  private static final byte AFFINITY = 1;
  private static final byte ANTI = 2;
  private long[] rows = new long[16 * ROW];
  /** Per slot: {@link #AFFINITY} and {@link #ANTI} when its view holds pods with such terms. */
  private byte[] flags = new byte[16];
  private @Nullable Node[] nodes = new Node[16];
  private int[] nodeVersion = new int[16];
  private int versions;
  /**
   * The deferred placements since {@link #clearDeferred()}, in the order made: a log of (slot, pod) entries, each
   * slot's entries chained through {@link #logNext} from {@link #firstEntry} (-1 ends a chain).
   */
  private int[] logSlot = new int[64];
  private @Nullable PodInfo[] logPod = new PodInfo[64];
  private int[] logNext = new int[64];
  private int logSize;
  private int[] firstEntry = new int[16];
  private int[] lastEntry = new int[16];
  private int[] deferredCount = new int[16];
  /** The numbers {@link #save} recorded, in the order recorded: rows, flags, node objects and versions. */
  private long[] savedRows = new long[16 * ROW];
  private byte[] savedFlags = new byte[16];
  private @Nullable Node[] savedNodes = new Node[16];
  private int[] savedVersions = new int[16];
  private int saved;

  private void ensure(int slot) {
    if (slot < flags.length) {
      return;
    }
    int n = Math.max(slot + 1, flags.length * 2);
    rows = Arrays.copyOf(rows, n * ROW);
    flags = Arrays.copyOf(flags, n);
    nodes = Arrays.copyOf(nodes, n);
    nodeVersion = Arrays.copyOf(nodeVersion, n);
    firstEntry = Arrays.copyOf(firstEntry, n);
    lastEntry = Arrays.copyOf(lastEntry, n);
    deferredCount = Arrays.copyOf(deferredCount, n);
  }

  /** Makes {@code slot} hold {@code view}'s numbers ({@code null}: the slot holds no node); drops its deferred pods. */
  void set(int slot, @Nullable SimNodeInfo view) {
    ensure(slot);
    deferredCount[slot] = 0;
    int r = slot * ROW;
    if (view == null) {
      nodes[slot] = null;
      rows[r + PODS] = 0;
      return;
    }
    Node node = view.node();
    if (nodes[slot] != node) {
      nodes[slot] = node;
      nodeVersion[slot] = ++versions;
    }
    ResourceList a = node.allocatable();
    rows[r + PODS] = view.podCount();
    rows[r + ALLOC_PODS] = a.pods();
    rows[r + ALLOC_CPU] = a.milliCpu();
    rows[r + ALLOC_MEM] = a.memoryBytes();
    rows[r + ALLOC_EPH] = a.ephemeralStorageBytes();
    rows[r + REQ_CPU] = view.requestedMilliCpu();
    rows[r + REQ_MEM] = view.requestedMemory();
    rows[r + REQ_EPH] = view.requestedEphemeralStorage();
    flags[slot] = (byte) ((view.podsWithAffinity().isEmpty() ? 0 : AFFINITY)
        | (view.podsWithRequiredAntiAffinity().isEmpty() ? 0 : ANTI));
  }

  /**
   * Records the numbers of {@code slot}, which holds a node and no deferred pod, as the {@link #saved()}-th record:
   * {@link #restore} gives them back without reading the slot's view.
   */
  void save(int slot) {
    int i = saved++;
    if (i == savedFlags.length) {
      savedRows = Arrays.copyOf(savedRows, 2 * i * ROW);
      savedFlags = Arrays.copyOf(savedFlags, 2 * i);
      savedNodes = Arrays.copyOf(savedNodes, 2 * i);
      savedVersions = Arrays.copyOf(savedVersions, 2 * i);
    }
    System.arraycopy(rows, slot * ROW, savedRows, i * ROW, ROW);
    savedFlags[i] = flags[slot];
    savedNodes[i] = nodes[slot];
    savedVersions[i] = nodeVersion[slot];
  }

  /** How many records {@link #save} holds. */
  int saved() {
    return saved;
  }

  /**
   * Makes {@code slot} hold the numbers of the {@code record}-th {@link #save} (of this slot): as {@link #set} with
   * the view the slot held then, including its node version (the same node object); drops the slot's deferred pods.
   */
  void restore(int record, int slot) {
    deferredCount[slot] = 0;
    System.arraycopy(savedRows, record * ROW, rows, slot * ROW, ROW);
    flags[slot] = savedFlags[record];
    nodes[slot] = savedNodes[record];
    nodeVersion[slot] = savedVersions[record];
  }

  /** Forgets every {@link #save} record. */
  void clearSaved() {
    Arrays.fill(savedNodes, 0, saved, null);
    saved = 0;
  }

  /**
   * Whether {@code slot}'s numbers (its deferred pods included) are those {@link #set} gives for {@code view}, node
   * version aside (a check for tests).
   */
  boolean holds(int slot, @Nullable SimNodeInfo view) {
    SlotNumbers fresh = new SlotNumbers();
    fresh.set(0, view);
    if (view == null) {
      return nodes[slot] == null && rows[slot * ROW + PODS] == 0;
    }
    return nodes[slot] == view.node() && flags[slot] == fresh.flags[0]
        && Arrays.equals(rows, slot * ROW, slot * ROW + ROW, fresh.rows, 0, ROW);
  }

  /**
   * Defers the placement of {@code pod} (which has no affinity or anti-affinity terms) on {@code slot}, adding its
   * requests ({@code cpu}, {@code memory} and {@code storage}: those of {@code pod.requests()}) as
   * {@link SimNodeInfo#withPod} would.
   */
  void defer(int slot, PodInfo pod, long cpu, long memory, long storage) {
    int e = logSize++;
    if (e == logSlot.length) {
      logSlot = Arrays.copyOf(logSlot, e * 2);
      logPod = Arrays.copyOf(logPod, e * 2);
      logNext = Arrays.copyOf(logNext, e * 2);
    }
    logSlot[e] = slot;
    logPod[e] = pod;
    logNext[e] = -1;
    if (deferredCount[slot]++ == 0) {
      firstEntry[slot] = e;
    } else {
      logNext[lastEntry[slot]] = e;
    }
    lastEntry[slot] = e;
    int r = slot * ROW;
    rows[r + PODS]++;
    rows[r + REQ_CPU] = SimNodeInfo.saturatedAdd(rows[r + REQ_CPU], cpu);
    rows[r + REQ_MEM] = SimNodeInfo.saturatedAdd(rows[r + REQ_MEM], memory);
    rows[r + REQ_EPH] = SimNodeInfo.saturatedAdd(rows[r + REQ_EPH], storage);
  }

  /**
   * Undoes the last {@link #defer} on {@code slot}, whose view is {@code view}, when it deferred {@code pod} (the same
   * object) and that pod is still deferred: the pod leaves the slot's deferred list and its requests the slot's
   * numbers, which are then what they were before (a sum at the long range's end, which saturation may have cut, is
   * summed again from the view's numbers and the pods still deferred).
   *
   * @return whether it was undone (else nothing changed)
   */
  boolean undefer(int slot, SimNodeInfo view, PodInfo pod) {
    int k = deferredCount(slot);
    if (k == 0 || logPod[lastEntry[slot]] != pod) {
      return false;
    }
    int e = lastEntry[slot];
    if (k > 1) {
      int prev = firstEntry[slot];
      while (logNext[prev] != e) {
        prev = logNext[prev];
      }
      logNext[prev] = -1;
      lastEntry[slot] = prev;
    }
    deferredCount[slot] = k - 1;
    logPod[e] = null;
    if (e == logSize - 1) {
      logSize--;
    } else {
      logSlot[e] = Integer.MAX_VALUE; // a dead entry: no slot's chain holds it
    }
    int r = slot * ROW;
    rows[r + PODS]--;
    ResourceList q = pod.requests();
    if (SimNodeInfo.saturated(rows[r + REQ_CPU]) || SimNodeInfo.saturated(rows[r + REQ_MEM])
        || SimNodeInfo.saturated(rows[r + REQ_EPH])) {
      long cpu = view.requestedMilliCpu();
      long mem = view.requestedMemory();
      long eph = view.requestedEphemeralStorage();
      for (int i = k > 1 ? firstEntry[slot] : -1; i >= 0; i = logNext[i]) {
        ResourceList a = java.util.Objects.requireNonNull(logPod[i]).requests();
        cpu = SimNodeInfo.saturatedAdd(cpu, a.milliCpu());
        mem = SimNodeInfo.saturatedAdd(mem, a.memoryBytes());
        eph = SimNodeInfo.saturatedAdd(eph, a.ephemeralStorageBytes());
      }
      rows[r + REQ_CPU] = cpu;
      rows[r + REQ_MEM] = mem;
      rows[r + REQ_EPH] = eph;
    } else {
      rows[r + REQ_CPU] -= q.milliCpu();
      rows[r + REQ_MEM] -= q.memoryBytes();
      rows[r + REQ_EPH] -= q.ephemeralStorageBytes();
    }
    return true;
  }

  /** How many pods wait in {@code slot}'s deferred list. */
  int deferredCount(int slot) {
    return slot < deferredCount.length ? deferredCount[slot] : 0;
  }

  /** The log entry of {@code slot}'s first deferred pod (read with {@link #pod} and {@link #next}). */
  int firstEntry(int slot) {
    return firstEntry[slot];
  }

  /** The entry after {@code entry} in its slot's chain, or -1. */
  int next(int entry) {
    return logNext[entry];
  }

  /** The pod of a log entry. */
  PodInfo pod(int entry) {
    return java.util.Objects.requireNonNull(logPod[entry]);
  }

  /** Marks {@code slot}'s deferred pods as made into its view (its numbers already count them). */
  void madeIntoView(int slot) {
    deferredCount[slot] = 0;
  }

  /** The number of log entries (deferred placements since {@link #clearDeferred()}). */
  int entries() {
    return logSize;
  }

  /** The slot of a log entry (its pod may have been made into the view or dropped since). */
  int slotOf(int entry) {
    return logSlot[entry];
  }

  /** Empties the log; call once no slot has deferred pods left. */
  void clearDeferred() {
    Arrays.fill(logPod, 0, logSize, null);
    logSize = 0;
  }

  /** Whether the view of {@code slot} holds pods with affinity terms. */
  boolean affinity(int slot) {
    return (flags[slot] & AFFINITY) != 0;
  }

  /** Whether the view of {@code slot} holds pods with required anti-affinity terms. */
  boolean antiAffinity(int slot) {
    return (flags[slot] & ANTI) != 0;
  }

  /** The version of the node object in {@code slot}: it changes whenever the slot gets another node object. */
  int nodeVersion(int slot) {
    return nodeVersion[slot];
  }

  /**
   * Whether a pod requesting {@code cpu} millicores, {@code memory} and {@code storage} bytes (and no other resource)
   * passes {@code NodeResourcesFit}'s Filter on the slot: the plugin's own rules
   * ({@link NodeResourcesFitPlugin#roomForOneMorePod}, {@link NodeResourcesFitPlugin#requestFits}) on the slot's
   * numbers.
   */
  boolean fits(int slot, long cpu, long memory, long storage) {
    int r = slot * ROW;
    return NodeResourcesFitPlugin.roomForOneMorePod(rows[r + PODS], rows[r + ALLOC_PODS])
        && NodeResourcesFitPlugin.requestFits(cpu, rows[r + ALLOC_CPU], rows[r + REQ_CPU])
        && NodeResourcesFitPlugin.requestFits(memory, rows[r + ALLOC_MEM], rows[r + REQ_MEM])
        && NodeResourcesFitPlugin.requestFits(storage, rows[r + ALLOC_EPH], rows[r + REQ_EPH]);
  }
}
