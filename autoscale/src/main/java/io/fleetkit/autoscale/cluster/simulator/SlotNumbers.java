package io.fleetkit.autoscale.cluster.simulator;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitPlugin;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * The numbers of a {@link SimulatedCluster}'s slots, one array per number (struct of arrays), and the placements not
 * yet made into views. The drain simulation's fast search ({@link FilterShapes}) decides {@code NodeResourcesFit} on
 * these arrays instead of reading each visited node's view, node and allocatable objects; a placement of a pod
 * without (anti-)affinity terms appends the pod to its slot's deferred list and adds its requests here, and the
 * slot's view is made from the deferred pods only when something reads it ({@link SimulatedCluster}'s
 * {@code current}).
 *
 * <p>Each slot holds what its view (the slot's view plus its deferred pods) gives: the pod count, the allocatable
 * pods, cpu, memory and ephemeral storage of its node and the summed requests as {@link SimNodeInfo#withPod} sums them
 * (saturating per resource, in the order added); whether the view holds pods with affinity or required anti-affinity
 * terms (deferred pods have none); and the version of its node object, which changes whenever the slot gets a view of
 * another node object, so that facts computed from the node alone can be kept by version.
 *
 * <p>Not thread-safe: one per simulation, used by its thread.
 */
final class SlotNumbers {
  private int[] podCount = new int[16];
  private long[] allocPods = new long[16];
  private long[] allocCpu = new long[16];
  private long[] reqCpu = new long[16];
  private long[] allocMem = new long[16];
  private long[] reqMem = new long[16];
  private long[] allocEph = new long[16];
  private long[] reqEph = new long[16];
  private boolean[] affinity = new boolean[16];
  private boolean[] anti = new boolean[16];
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

  private void ensure(int slot) {
    if (slot < podCount.length) {
      return;
    }
    int n = Math.max(slot + 1, podCount.length * 2);
    podCount = Arrays.copyOf(podCount, n);
    allocPods = Arrays.copyOf(allocPods, n);
    allocCpu = Arrays.copyOf(allocCpu, n);
    reqCpu = Arrays.copyOf(reqCpu, n);
    allocMem = Arrays.copyOf(allocMem, n);
    reqMem = Arrays.copyOf(reqMem, n);
    allocEph = Arrays.copyOf(allocEph, n);
    reqEph = Arrays.copyOf(reqEph, n);
    affinity = Arrays.copyOf(affinity, n);
    anti = Arrays.copyOf(anti, n);
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
    if (view == null) {
      nodes[slot] = null;
      podCount[slot] = 0;
      return;
    }
    Node node = view.node();
    if (nodes[slot] != node) {
      nodes[slot] = node;
      nodeVersion[slot] = ++versions;
    }
    ResourceList a = node.allocatable();
    podCount[slot] = view.podCount();
    allocPods[slot] = a.pods();
    allocCpu[slot] = a.milliCpu();
    allocMem[slot] = a.memoryBytes();
    allocEph[slot] = a.ephemeralStorageBytes();
    reqCpu[slot] = view.requestedMilliCpu();
    reqMem[slot] = view.requestedMemory();
    reqEph[slot] = view.requestedEphemeralStorage();
    affinity[slot] = !view.podsWithAffinity().isEmpty();
    anti[slot] = !view.podsWithRequiredAntiAffinity().isEmpty();
  }

  /**
   * Defers the placement of {@code pod} (which has no affinity or anti-affinity terms) on {@code slot}, adding its
   * requests as {@link SimNodeInfo#withPod} would.
   */
  void defer(int slot, PodInfo pod) {
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
    ResourceList r = pod.requests();
    podCount[slot]++;
    reqCpu[slot] = SimNodeInfo.saturatedAdd(reqCpu[slot], r.milliCpu());
    reqMem[slot] = SimNodeInfo.saturatedAdd(reqMem[slot], r.memoryBytes());
    reqEph[slot] = SimNodeInfo.saturatedAdd(reqEph[slot], r.ephemeralStorageBytes());
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
    return affinity[slot];
  }

  /** Whether the view of {@code slot} holds pods with required anti-affinity terms. */
  boolean antiAffinity(int slot) {
    return anti[slot];
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
    return NodeResourcesFitPlugin.roomForOneMorePod(podCount[slot], allocPods[slot])
        && NodeResourcesFitPlugin.requestFits(cpu, allocCpu[slot], reqCpu[slot])
        && NodeResourcesFitPlugin.requestFits(memory, allocMem[slot], reqMem[slot])
        && NodeResourcesFitPlugin.requestFits(storage, allocEph[slot], reqEph[slot]);
  }
}
