package io.fleetkit.scheduler.nodetable;

import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.resource.ResourceList;
import java.util.Arrays;

/**
 * One snapshot's nodes in struct-of-arrays form: position {@code i} holds node {@code i}'s object view
 * ({@link #view}) and, in primitive arrays, the fields Filter and Score read for every node. Walking positions in
 * order reads each array sequentially, so the hardware prefetcher streams them; the views, scattered over the heap,
 * are each a cache miss on first touch and dominate a cycle that reads them.
 *
 * <p>Written only by the engine between cycles ({@link #set}, O(changed nodes) per snapshot update); read-only while
 * a cycle runs, from any thread.
 */
public final class NodeTable {
  private static final byte UNSCHEDULABLE = 1;
  private static final byte TAINTED = 2;

  private NodeInfo[] views = new NodeInfo[0];
  private long[] allocatableCpu = new long[0];
  private long[] allocatableMemory = new long[0];
  private long[] allocatableStorage = new long[0];
  private long[] allocatablePods = new long[0];
  private long[] requestedCpu = new long[0];
  private long[] requestedMemory = new long[0];
  private long[] requestedStorage = new long[0];
  private long[] nonZeroCpu = new long[0];
  private long[] nonZeroMemory = new long[0];
  private int[] podCount = new int[0];
  private long[] freeCpu = new long[0];
  private long[] freeMemory = new long[0];
  private long[] freeStorage = new long[0];
  private long[] freePods = new long[0];
  private byte[] flags = new byte[0];
  /** Per position, the {@link #rowVersion} stamp of its last {@link #set}. */
  private long[] rowVersions = new long[0];
  /** The last stamp given out; stamps start at 1, so 0 never names a row. */
  private long lastVersion;

  /** The object view of the node at {@code i}: what the plugin API passes. */
  public NodeInfo view(int i) {
    return views[i];
  }

  public long allocatableMilliCpu(int i) {
    return allocatableCpu[i];
  }

  public long allocatableMemory(int i) {
    return allocatableMemory[i];
  }

  public long allocatableEphemeralStorage(int i) {
    return allocatableStorage[i];
  }

  public long allocatablePods(int i) {
    return allocatablePods[i];
  }

  public long requestedMilliCpu(int i) {
    return requestedCpu[i];
  }

  public long requestedMemory(int i) {
    return requestedMemory[i];
  }

  public long requestedEphemeralStorage(int i) {
    return requestedStorage[i];
  }

  public long nonZeroRequestedMilliCpu(int i) {
    return nonZeroCpu[i];
  }

  public long nonZeroRequestedMemory(int i) {
    return nonZeroMemory[i];
  }

  public int podCount(int i) {
    return podCount[i];
  }

  /**
   * {@code allocatableMilliCpu(i) - requestedMilliCpu(i)}: what is left (negative when over-committed), or
   * {@link Long#MIN_VALUE} when the difference overflows; likewise the other {@code free} amounts. A test
   * {@code request <= free} is thus exact or, at the overflow sentinel, says "does not fit": callers judge such a node
   * on its full numbers.
   */
  public long freeMilliCpu(int i) {
    return freeCpu[i];
  }

  /** {@code allocatableMemory(i) - requestedMemory(i)}. */
  public long freeMemory(int i) {
    return freeMemory[i];
  }

  /** {@code allocatableEphemeralStorage(i) - requestedEphemeralStorage(i)}. */
  public long freeEphemeralStorage(int i) {
    return freeStorage[i];
  }

  /** {@code allocatablePods(i) - podCount(i)}: how many more pods fit by count. */
  public long freePods(int i) {
    return freePods[i];
  }

  /** The node's {@code spec.unschedulable}. */
  public boolean unschedulable(int i) {
    return (flags[i] & UNSCHEDULABLE) != 0;
  }

  /** Whether the node has any taint (of any effect). */
  public boolean tainted(int i) {
    return (flags[i] & TAINTED) != 0;
  }

  /**
   * A stamp that changes whenever position {@code i} is {@link #set} (to a new view, or to a different node after the
   * positions were rebuilt) and never repeats within this table: equal stamps mean the same view, so anything
   * computed from the row alone still holds. Stamps are positive.
   */
  public long rowVersion(int i) {
    return rowVersions[i];
  }

  /** How many positions the table has room for: every position passed to it is below this. */
  public int capacity() {
    return views.length;
  }

  /** Room for {@code n} nodes (the current positions are kept). */
  public void ensureCapacity(int n) {
    if (views.length >= n) {
      return;
    }
    int len = Math.max(n, views.length * 2);
    views = Arrays.copyOf(views, len);
    allocatableCpu = Arrays.copyOf(allocatableCpu, len);
    allocatableMemory = Arrays.copyOf(allocatableMemory, len);
    allocatableStorage = Arrays.copyOf(allocatableStorage, len);
    allocatablePods = Arrays.copyOf(allocatablePods, len);
    requestedCpu = Arrays.copyOf(requestedCpu, len);
    requestedMemory = Arrays.copyOf(requestedMemory, len);
    requestedStorage = Arrays.copyOf(requestedStorage, len);
    nonZeroCpu = Arrays.copyOf(nonZeroCpu, len);
    nonZeroMemory = Arrays.copyOf(nonZeroMemory, len);
    podCount = Arrays.copyOf(podCount, len);
    freeCpu = Arrays.copyOf(freeCpu, len);
    freeMemory = Arrays.copyOf(freeMemory, len);
    freeStorage = Arrays.copyOf(freeStorage, len);
    freePods = Arrays.copyOf(freePods, len);
    flags = Arrays.copyOf(flags, len);
    rowVersions = Arrays.copyOf(rowVersions, len);
  }

  /** Drops the views at positions {@code from} and beyond (nodes removed from the snapshot). */
  public void clearFrom(int from) {
    if (from < views.length) {
      Arrays.fill(views, from, views.length, null);
    }
  }

  /** {@code a - b}, or {@link Long#MIN_VALUE} when it overflows. */
  private static long minus(long a, long b) {
    long r = a - b;
    return ((a ^ b) & (a ^ r)) < 0 ? Long.MIN_VALUE : r;
  }

  /** Places {@code view} at position {@code i} and copies its hot fields into the arrays. */
  public void set(int i, NodeInfo view) {
    ResourceList a = view.allocatable();
    views[i] = view;
    rowVersions[i] = ++lastVersion;
    allocatableCpu[i] = a.milliCpu();
    allocatableMemory[i] = a.memoryBytes();
    allocatableStorage[i] = a.ephemeralStorageBytes();
    allocatablePods[i] = a.pods();
    requestedCpu[i] = view.requestedMilliCpu();
    requestedMemory[i] = view.requestedMemory();
    requestedStorage[i] = view.requestedEphemeralStorage();
    nonZeroCpu[i] = view.nonZeroRequestedMilliCpu();
    nonZeroMemory[i] = view.nonZeroRequestedMemory();
    podCount[i] = view.podCount();
    freeCpu[i] = minus(allocatableCpu[i], requestedCpu[i]);
    freeMemory[i] = minus(allocatableMemory[i], requestedMemory[i]);
    freeStorage[i] = minus(allocatableStorage[i], requestedStorage[i]);
    freePods[i] = minus(allocatablePods[i], podCount[i]);
    flags[i] = (byte) ((view.unschedulable() ? UNSCHEDULABLE : 0) | (view.taints().isEmpty() ? 0 : TAINTED));
  }
}
