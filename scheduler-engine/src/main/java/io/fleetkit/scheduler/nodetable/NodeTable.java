package io.fleetkit.scheduler.nodetable;

import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.resource.ResourceList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One snapshot's nodes in struct-of-arrays form: position {@code i} holds node {@code i}'s object view
 * ({@link #view}) and, in primitive arrays, the fields Filter and Score read for every node. Walking positions in
 * order reads each array sequentially, so the hardware prefetcher streams them; the views, scattered over the heap,
 * are each a cache miss on first touch and dominate a cycle that reads them.
 *
 * <p>For the plugins that keep state across cycles, the table logs the positions it (re)places ({@link #logEnd},
 * {@link #changedAt}), so that such state is brought up to date in O(changed nodes) instead of a walk over every
 * node; and for the topology-aware plugins it numbers the values of a node label ({@link #domains}), so that Filter
 * and Score compare ints per node instead of looking labels up by string; and it indexes the container images the
 * nodes report ({@link #images}), with how many nodes report each, as kube-scheduler's cache does for ImageLocality.
 *
 * <p>Written only by the engine between cycles ({@link #set}, {@link #removeRows}, {@link #clearFrom}: O(changed nodes)
 * per snapshot update, plus a block move of the columns when rows are removed); read-only while
 * a cycle runs, from any thread, except that {@link #domains} may register a new label key (synchronized).
 */
public final class NodeTable {
  private static final byte UNSCHEDULABLE = 1;
  private static final byte TAINTED = 2;
  private static final byte AFFINITY_PODS = 4;
  private static final byte ANTI_AFFINITY_PODS = 8;
  /** The change log is cut (and {@link #logBase} advanced) past this many entries per node. */
  private static final int LOG_PER_NODE = 4;

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
  /** How many positions hold an unschedulable node, and how many a tainted one (flags of cleared positions are 0). */
  private int unschedulableCount;
  private int taintedCount;
  /** One past the highest position ever {@link #set} and not cleared. */
  private int high;
  private int[] log = new int[64];
  private int logLength;
  private long logBase;
  /** Label key to its numbered values; replaced (copy on write) when a key is registered. */
  private volatile Map<String, Domains> domains = Map.of();
  /** The nodes' container images, for the ImageLocality score. */
  private final NodeImages images = new NodeImages();

  /**
   * A {@link io.fleetkit.api.framework.Snapshot} whose {@code nodes().get(i)} is {@code nodeTable().view(i)}: plugins
   * that find their snapshot to be one may keep per-position state and read the table in PreFilter and PreScore.
   */
  public interface Source {
    NodeTable nodeTable();
  }

  /** The table behind {@code snapshot}, or {@code null} when it has none. */
  public static @Nullable NodeTable of(Object snapshot) {
    return snapshot instanceof Source s ? s.nodeTable() : null;
  }
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
   * How many positions hold a node with {@code spec.unschedulable}: when none does, a plugin's range over the table
   * can answer for every node at once.
   */
  public int unschedulableCount() {
    return unschedulableCount;
  }

  /** How many positions hold a node with a taint; when none does, no node is {@link #tainted}. */
  public int taintedCount() {
    return taintedCount;
  }

  /** Whether the node holds a pod with (anti-)affinity ({@code podsWithAffinity()} is not empty). */
  public boolean hasAffinityPods(int i) {
    return (flags[i] & AFFINITY_PODS) != 0;
  }

  /** Whether the node holds a pod with required anti-affinity ({@code podsWithRequiredAntiAffinity()} not empty). */
  public boolean hasRequiredAntiAffinityPods(int i) {
    return (flags[i] & ANTI_AFFINITY_PODS) != 0;
  }

  /**
   * The sequence number of the oldest position still in the change log; a reader that has seen less must walk every
   * position again.
   */
  public long logBase() {
    return logBase;
  }

  /** The sequence number the next change will get: a reader that has seen up to here is current. */
  public long logEnd() {
    return logBase + logLength;
  }

  /**
   * The position (re)placed or cleared at sequence number {@code seq} ({@link #logBase()} &lt;= seq &lt;
   * {@link #logEnd()}); its view is then {@link #view} or, cleared, {@code null}.
   */
  public int changedAt(long seq) {
    return log[(int) (seq - logBase)];
  }

  /**
   * The numbered values of node label {@code key}, registered on first use and kept up to date by {@link #set} from
   * then on. Thread-safe.
   */
  public Domains domains(String key) {
    Domains d = domains.get(key);
    return d != null ? d : register(key);
  }

  private synchronized Domains register(String key) {
    Domains d = domains.get(key);
    if (d == null) {
      d = new Domains(key, views.length);
      for (int i = 0; i < high; i++) {
        if (views[i] != null) {
          d.set(i, views[i]);
        }
      }
      Map<String, Domains> copy = new HashMap<>(domains);
      copy.put(key, d);
      domains = Map.copyOf(copy);
    }
    return d;
  }

  /** The container images the nodes report, by position and by name; kept up to date by {@link #set} and removals. */
  public NodeImages images() {
    return images;
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
    for (Domains d : domains.values()) {
      d.grow(len);
    }
    rowVersions = Arrays.copyOf(rowVersions, len);
    images.grow(len);
  }

  /** Drops the views at positions {@code from} and beyond (nodes removed from the snapshot). */
  public void clearFrom(int from) {
    if (from < views.length) {
      Arrays.fill(views, from, views.length, null);
    }
    for (int i = from; i < high; i++) {
      append(i);
      setFlags(i, (byte) 0);
      images.clear(i);
      for (Domains d : domains.values()) {
        d.clear(i);
      }
    }
    high = Math.min(high, from);
  }

  /**
   * Removes the rows at {@code positions[0..count)} (ascending, distinct, each holding a row): the rows after each move
   * down to close the gaps, keeping their order, and the last {@code count} positions are cleared. Every position from
   * the first removed one on is logged ({@link #changedAt}) and each moved row gets a new {@link #rowVersion}, as if
   * the rows had been {@link #set} again; the copy is a block move per array, not a pass over the views.
   */
  public void removeRows(int[] positions, int count) {
    if (count == 0) {
      return;
    }
    for (int j = 0; j < count; j++) {
      int p = positions[j];
      if (p < 0 || p >= high || views[p] == null || (j > 0 && p <= positions[j - 1])) {
        throw new IllegalArgumentException("node table: positions to remove must be ascending rows below " + high
            + "; position " + p + " at index " + j + " is not");
      }
      setFlags(p, (byte) 0); // the counts lose the removed rows; the moved rows keep theirs
      images.clear(p);
    }
    int oldHigh = high;
    for (int j = 0; j < count; j++) {
      int from = positions[j] + 1;
      int to = j + 1 < count ? positions[j + 1] : oldHigh;
      if (to > from) {
        moveRows(from, from - (j + 1), to - from);
      }
    }
    int newHigh = oldHigh - count;
    for (int i = positions[0]; i < newHigh; i++) {
      rowVersions[i] = ++lastVersion;
      append(i);
    }
    Arrays.fill(views, newHigh, oldHigh, null);
    Arrays.fill(flags, newHigh, oldHigh, (byte) 0); // copies of moved rows' flags: the counts do not include them
    for (int i = newHigh; i < oldHigh; i++) {
      append(i);
      images.drop(i); // a removed row (cleared above) or a copy of a moved one (counted where it moved)
      for (Domains d : domains.values()) {
        d.clear(i);
      }
    }
    high = newHigh;
  }

  /** Copies rows {@code [from, from + len)} to {@code [to, to + len)} in every column. */
  private void moveRows(int from, int to, int len) {
    System.arraycopy(views, from, views, to, len);
    System.arraycopy(allocatableCpu, from, allocatableCpu, to, len);
    System.arraycopy(allocatableMemory, from, allocatableMemory, to, len);
    System.arraycopy(allocatableStorage, from, allocatableStorage, to, len);
    System.arraycopy(allocatablePods, from, allocatablePods, to, len);
    System.arraycopy(requestedCpu, from, requestedCpu, to, len);
    System.arraycopy(requestedMemory, from, requestedMemory, to, len);
    System.arraycopy(requestedStorage, from, requestedStorage, to, len);
    System.arraycopy(nonZeroCpu, from, nonZeroCpu, to, len);
    System.arraycopy(nonZeroMemory, from, nonZeroMemory, to, len);
    System.arraycopy(podCount, from, podCount, to, len);
    System.arraycopy(freeCpu, from, freeCpu, to, len);
    System.arraycopy(freeMemory, from, freeMemory, to, len);
    System.arraycopy(freeStorage, from, freeStorage, to, len);
    System.arraycopy(freePods, from, freePods, to, len);
    System.arraycopy(flags, from, flags, to, len);
    images.move(from, to, len);
    for (Domains d : domains.values()) {
      d.move(from, to, len);
    }
  }

  /** Writes position {@code i}'s flags, keeping the counts of unschedulable and tainted positions. */
  private void setFlags(int i, byte f) {
    byte old = flags[i];
    unschedulableCount += (f & UNSCHEDULABLE) - (old & UNSCHEDULABLE);
    taintedCount += ((f & TAINTED) - (old & TAINTED)) >> 1;
    flags[i] = f;
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
    setFlags(i, (byte) ((view.unschedulable() ? UNSCHEDULABLE : 0) | (view.taints().isEmpty() ? 0 : TAINTED)
        | (view.podsWithAffinity().isEmpty() ? 0 : AFFINITY_PODS)
        | (view.podsWithRequiredAntiAffinity().isEmpty() ? 0 : ANTI_AFFINITY_PODS)));
    images.set(i, view);
    high = Math.max(high, i + 1);
    append(i);
    boolean bloated = false;
    Map<String, Domains> ds = domains;
    if (!ds.isEmpty()) { // the common case without topology plugins: no iterator to allocate
      for (Domains d : ds.values()) {
        d.set(i, view);
        bloated |= d.count() > 2 * high + 64;
      }
    }
    if (bloated) {
      renumber();
    }
  }

  /** Replaces every bloated {@link Domains} by a fresh numbering of the current positions' values. */
  private synchronized void renumber() {
    Map<String, Domains> copy = new HashMap<>(domains);
    for (Map.Entry<String, Domains> e : copy.entrySet()) {
      if (e.getValue().count() > 2 * high + 64) {
        Domains d = new Domains(e.getKey(), views.length);
        for (int i = 0; i < high; i++) {
          if (views[i] != null) {
            d.set(i, views[i]);
          }
        }
        e.setValue(d);
      }
    }
    domains = Map.copyOf(copy);
  }

  private void append(int position) {
    if (logLength > Math.max(1024, LOG_PER_NODE * views.length)) {
      logBase += logLength;
      logLength = 0;
    }
    if (logLength == log.length) {
      log = Arrays.copyOf(log, logLength * 2);
    }
    log[logLength++] = position;
  }

  /**
   * The values of one node label, numbered densely in order of first appearance: {@link #id} of a position is its
   * node's value's number, or -1 when the node lacks the label. Numbers are never reused while this object lives;
   * when values of departed nodes pile up (more than twice the positions), the table renumbers into a new
   * {@code Domains} for the key, so a reader that kept numbers from an old one compares identities
   * ({@link NodeTable#domains}). Written by the table; read-only during a cycle.
   */
  public static final class Domains {
    private final String key;
    private final HashMap<String, Integer> ids = new HashMap<>();
    private String[] values = new String[8];
    private int[] byPosition;

    private Domains(String key, int capacity) {
      this.key = key;
      this.byPosition = new int[capacity];
      Arrays.fill(byPosition, -1);
    }

    /** The label key. */
    public String key() {
      return key;
    }

    /** The number of the value at position {@code i}, or -1 when that node lacks the label (or there is none). */
    public int id(int i) {
      return i < byPosition.length ? byPosition[i] : -1;
    }

    /** The number of {@code value}, or -1 when no node has had it. */
    public int idOf(String value) {
      Integer id = ids.get(value);
      return id == null ? -1 : id;
    }

    /** How many values are numbered: every {@link #id} is below this. */
    public int count() {
      return ids.size();
    }

    /** The value numbered {@code id}. */
    public String value(int id) {
      return values[id];
    }

    private void grow(int len) {
      int old = byPosition.length;
      if (len > old) {
        byPosition = Arrays.copyOf(byPosition, len);
        Arrays.fill(byPosition, old, len, -1);
      }
    }

    private void move(int from, int to, int len) {
      System.arraycopy(byPosition, from, byPosition, to, len);
    }

    private void clear(int i) {
      if (i < byPosition.length) {
        byPosition[i] = -1;
      }
    }

    private void set(int i, NodeInfo view) {
      grow(i + 1);
      String v = view.labels().get(key);
      if (v == null) {
        byPosition[i] = -1;
        return;
      }
      Integer id = ids.get(v);
      if (id == null) {
        id = ids.size();
        ids.put(v, id);
        if (id == values.length) {
          values = Arrays.copyOf(values, id * 2);
        }
        values[id] = v;
      }
      byPosition[i] = id;
    }
  }
}
