package io.fleetkit.autoscale.cluster.simulator;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.scheduling.Taint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * An immutable node view of a {@link SimulatedCluster}: a change makes a new view with a fresh, globally unique
 * generation, so that plugins caching per node generation never see stale data. A view may be read from any thread;
 * new views are made from it by the thread that owns the simulation (see {@link #withPod}).
 *
 * <p>A view made by adding a pod keeps the summed requests' cpu, memory and ephemeral storage as numbers and makes
 * the {@link #requested()} list on first read, by the same additions in the same order as the view it was made from
 * would have (a base list plus the pods appended since): the Filter plugins read the numbers of the node they check,
 * while most views made during a drain simulation are never read. A view made by adding keeps the base of the view it
 * was made from (the base holds no added pod), so that taking the last added pod back ({@link #withoutLast}) gives
 * the view before it exactly.
 */
final class SimNodeInfo implements NodeInfo {
  private static final AtomicLong GENERATIONS = new AtomicLong();

  private final Node node;
  /**
   * The pods are the first {@code pods.size()} entries of this array. A view made by adding a pod writes it into the
   * next entry when that entry is still free (no other view was made from this one by adding), sharing the array;
   * entries below a view's size never change. Views are made by one thread (the simulation's).
   */
  private final PodInfo[] podArray;
  private final List<PodInfo> pods;
  private final List<PodInfo> withAffinity;
  private final List<PodInfo> withAnti;
  /** The summed requests of the first {@link #baseCount} pods; the rest are added on the first read. */
  private final ResourceList base;
  private final int baseCount;
  /** The summed requests, once made (the same value from any thread). */
  private @Nullable ResourceList requested;
  private final long requestedCpu;
  private final long requestedMem;
  private final long requestedEphemeral;
  private final long nonZeroCpu;
  private final long nonZeroMem;
  private final long generation;

  private SimNodeInfo(Node node, PodInfo[] podArray, int podCount, List<PodInfo> withAffinity,
      List<PodInfo> withAnti, ResourceList base, int baseCount, long requestedCpu, long requestedMem,
      long requestedEphemeral, long nonZeroCpu, long nonZeroMem) {
    this.node = node;
    this.podArray = podArray;
    this.pods = podCount == 0 ? List.of() : new Prefix(podArray, podCount);
    this.withAffinity = withAffinity;
    this.withAnti = withAnti;
    this.base = base;
    this.baseCount = baseCount;
    this.requested = baseCount == pods.size() ? base : null;
    this.requestedCpu = requestedCpu;
    this.requestedMem = requestedMem;
    this.requestedEphemeral = requestedEphemeral;
    this.nonZeroCpu = nonZeroCpu;
    this.nonZeroMem = nonZeroMem;
    this.generation = GENERATIONS.incrementAndGet();
  }

  private SimNodeInfo(Node node, PodInfo[] podArray, int podCount, List<PodInfo> withAffinity,
      List<PodInfo> withAnti, ResourceList requested, long nonZeroCpu, long nonZeroMem) {
    this(node, podArray, podCount, withAffinity, withAnti, requested, podCount, requested.milliCpu(),
        requested.memoryBytes(), requested.ephemeralStorageBytes(), nonZeroCpu, nonZeroMem);
  }

  private static final PodInfo[] NO_PODS = {};

  static SimNodeInfo empty(Node node) {
    return new SimNodeInfo(node, NO_PODS, 0, List.of(), List.of(), ResourceList.EMPTY, 0, 0);
  }

  /**
   * {@code node} with {@code pods} (in that order), built at once: the same view as adding them one by one. The
   * summed cpu, memory and ephemeral storage are numbers; the {@link #requested()} list is made when read.
   */
  static SimNodeInfo of(Node node, List<PodInfo> pods) {
    if (pods.isEmpty()) {
      return empty(node);
    }
    List<PodInfo> affinity = new ArrayList<>();
    List<PodInfo> anti = new ArrayList<>();
    long reqCpu = 0;
    long reqMem = 0;
    long reqEphemeral = 0;
    long cpu = 0;
    long mem = 0;
    for (PodInfo p : pods) {
      if (p instanceof SimulationPodInfo s ? s.hasAffinity() : NodeInfos.hasAffinity(p.pod())) {
        affinity.add(p);
      }
      if (p instanceof SimulationPodInfo s ? s.hasRequiredAntiAffinity() : NodeInfos.hasRequiredAntiAffinity(p.pod())) {
        anti.add(p);
      }
      ResourceList r = p.requests();
      reqCpu = saturatedAdd(reqCpu, r.milliCpu());
      reqMem = saturatedAdd(reqMem, r.memoryBytes());
      reqEphemeral = saturatedAdd(reqEphemeral, r.ephemeralStorageBytes());
      cpu += p.nonZeroMilliCpu();
      mem += p.nonZeroMemory();
    }
    PodInfo[] array = pods.toArray(new PodInfo[pods.size() + Math.max(4, pods.size() / 2)]);
    return new SimNodeInfo(node, array, pods.size(),
        affinity.isEmpty() ? List.of() : java.util.Collections.unmodifiableList(affinity),
        anti.isEmpty() ? List.of() : java.util.Collections.unmodifiableList(anti), ResourceList.EMPTY, 0, reqCpu,
        reqMem, reqEphemeral, cpu, mem);
  }

  /**
   * This view plus {@code p}. The summed cpu, memory and ephemeral storage are those {@code ResourceList.add} gives
   * (a saturating sum per resource); the list itself is made when read.
   */
  SimNodeInfo withPod(PodInfo p) {
    ResourceList r = p.requests();
    PodInfo[] array = podArray;
    int n = pods.size();
    if (n < array.length && array[n] == null) {
      array[n] = p; // the next entry is free: this is the first view made from this one by adding
    } else {
      PodInfo[] bigger = new PodInfo[Math.max(4, n * 2)];
      System.arraycopy(array, 0, bigger, 0, n);
      bigger[n] = p;
      array = bigger;
    }
    boolean affinity;
    boolean anti;
    if (p instanceof SimulationPodInfo s) {
      affinity = s.hasAffinity();
      anti = s.hasRequiredAntiAffinity();
    } else {
      affinity = NodeInfos.hasAffinity(p.pod());
      anti = NodeInfos.hasRequiredAntiAffinity(p.pod());
    }
    return new SimNodeInfo(node, array, n + 1,
        affinity ? append(withAffinity, p) : withAffinity,
        anti ? append(withAnti, p) : withAnti,
        base, baseCount,
        saturatedAdd(requestedCpu, r.milliCpu()), saturatedAdd(requestedMem, r.memoryBytes()),
        saturatedAdd(requestedEphemeral, r.ephemeralStorageBytes()),
        nonZeroCpu + p.nonZeroMilliCpu(), nonZeroMem + p.nonZeroMemory());
  }

  /**
   * This view plus the first {@code k} pods of {@code add}, in that order: the view {@link #withPod} one by one would
   * end with (the same pods, affinity lists, summed numbers and {@link #requested()} list), made at once.
   */
  SimNodeInfo withPods(PodInfo[] add, int k) {
    if (k == 1) {
      return withPod(add[0]);
    }
    PodInfo[] array = podArray;
    int n = pods.size();
    if (n + k <= array.length && array[n] == null) {
      System.arraycopy(add, 0, array, n, k); // no view was made from this one by adding: the entries are free
    } else {
      PodInfo[] bigger = new PodInfo[Math.max(4, (n + k) * 2)];
      System.arraycopy(array, 0, bigger, 0, n);
      System.arraycopy(add, 0, bigger, n, k);
      array = bigger;
    }
    List<PodInfo> affinity = withAffinity;
    List<PodInfo> anti = withAnti;
    long cpu = requestedCpu;
    long mem = requestedMem;
    long ephemeral = requestedEphemeral;
    long nzCpu = nonZeroCpu;
    long nzMem = nonZeroMem;
    for (int i = 0; i < k; i++) {
      PodInfo p = add[i];
      if (p instanceof SimulationPodInfo s ? s.hasAffinity() : NodeInfos.hasAffinity(p.pod())) {
        affinity = append(affinity, p);
      }
      if (p instanceof SimulationPodInfo s ? s.hasRequiredAntiAffinity() : NodeInfos.hasRequiredAntiAffinity(p.pod())) {
        anti = append(anti, p);
      }
      ResourceList r = p.requests();
      cpu = saturatedAdd(cpu, r.milliCpu());
      mem = saturatedAdd(mem, r.memoryBytes());
      ephemeral = saturatedAdd(ephemeral, r.ephemeralStorageBytes());
      nzCpu += p.nonZeroMilliCpu();
      nzMem += p.nonZeroMemory();
    }
    return new SimNodeInfo(node, array, n + k, affinity, anti, base, baseCount, cpu, mem, ephemeral, nzCpu, nzMem);
  }

  /** This view without the pod keyed {@code podKey}; {@code this} when it is not here. */
  SimNodeInfo withoutPod(String podKey) {
    int at = -1;
    for (int i = 0; i < pods.size(); i++) {
      if (podArray[i].key().equals(podKey)) {
        at = i;
        break;
      }
    }
    return without(at);
  }

  /**
   * This view without the last pod that is {@code pod} (the same object); this view when it holds none. When that pod
   * is the last one and was added to a view of the others ({@link #withPod}, {@link #withPods}), the result is the
   * view they made before: the same pods, affinity lists, summed numbers and {@link #requested()} list (which a removal
   * by {@link #withoutPod} makes by subtracting, keeping the pod's resources as zero entries). That is how a
   * placement is undone.
   */
  SimNodeInfo withoutLast(PodInfo pod) {
    int n = pods.size() - 1;
    if (n >= 0 && podArray[n] == pod && baseCount <= n) {
      ResourceList r = pod.requests();
      long cpu = requestedCpu - r.milliCpu();
      long mem = requestedMem - r.memoryBytes();
      long ephemeral = requestedEphemeral - r.ephemeralStorageBytes();
      if (saturated(requestedCpu) || saturated(requestedMem) || saturated(requestedEphemeral)) {
        // a saturated sum cannot be taken back: summed again from the base, as the additions made it
        cpu = base.milliCpu();
        mem = base.memoryBytes();
        ephemeral = base.ephemeralStorageBytes();
        for (int i = baseCount; i < n; i++) {
          ResourceList q = podArray[i].requests();
          cpu = saturatedAdd(cpu, q.milliCpu());
          mem = saturatedAdd(mem, q.memoryBytes());
          ephemeral = saturatedAdd(ephemeral, q.ephemeralStorageBytes());
        }
      }
      return new SimNodeInfo(node, podArray, n, removeLast(withAffinity, pod), removeLast(withAnti, pod), base,
          baseCount, cpu, mem, ephemeral, nonZeroCpu - pod.nonZeroMilliCpu(), nonZeroMem - pod.nonZeroMemory());
    }
    int at = n;
    while (at >= 0 && podArray[at] != pod) {
      at--;
    }
    return without(at);
  }

  /** Whether a sum is at the long range's end, where {@link #saturatedAdd} may have cut it. */
  static boolean saturated(long sum) {
    return sum == Long.MAX_VALUE || sum == Long.MIN_VALUE;
  }

  /** This view without the pod at index {@code at} of {@link #pods()}; this view when {@code at} is negative. */
  private SimNodeInfo without(int at) {
    if (at < 0) {
      return this;
    }
    PodInfo gone = podArray[at];
    int n = pods.size() - 1;
    PodInfo[] rest = new PodInfo[Math.max(4, n + 1)];
    System.arraycopy(podArray, 0, rest, 0, at);
    System.arraycopy(podArray, at + 1, rest, at, n - at);
    return new SimNodeInfo(node, rest, n, remove(withAffinity, gone), remove(withAnti, gone),
        requested().subtract(gone.requests()), nonZeroCpu - gone.nonZeroMilliCpu(), nonZeroMem - gone.nonZeroMemory());
  }

  /** {@code a + b} saturating at the long range, as {@code ResourceList.add} sums a resource. */
  static long saturatedAdd(long a, long b) {
    long r = a + b;
    if (((a ^ r) & (b ^ r)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return r;
  }

  private static List<PodInfo> append(List<PodInfo> list, PodInfo p) {
    List<PodInfo> out = new ArrayList<>(list.size() + 1);
    out.addAll(list);
    out.add(p);
    return java.util.Collections.unmodifiableList(out);
  }

  /** {@code list} without the last entry that is {@code p} (the same object), or {@code list} when none is. */
  private static List<PodInfo> removeLast(List<PodInfo> list, PodInfo p) {
    int at = list.size() - 1;
    while (at >= 0 && list.get(at) != p) {
      at--;
    }
    if (at < 0) {
      return list;
    }
    if (list.size() == 1) {
      return List.of();
    }
    List<PodInfo> out = new ArrayList<>(list);
    out.remove(at);
    return java.util.Collections.unmodifiableList(out);
  }

  private static List<PodInfo> remove(List<PodInfo> list, PodInfo p) {
    if (!list.contains(p)) {
      return list;
    }
    List<PodInfo> out = new ArrayList<>(list);
    out.remove(p);
    return java.util.Collections.unmodifiableList(out);
  }

  @Override public Node node() { return node; }
  @Override public String name() { return node.metadata().name(); }
  @Override public Map<String, String> labels() { return node.metadata().labels(); }
  @Override public ResourceList allocatable() { return node.allocatable(); }
  @Override
  public ResourceList requested() {
    ResourceList r = requested;
    if (r == null) {
      r = base;
      for (int i = baseCount; i < pods.size(); i++) {
        r = r.add(pods.get(i).requests());
      }
      requested = r;
    }
    return r;
  }

  @Override public long requestedMilliCpu() { return requestedCpu; }
  @Override public long requestedMemory() { return requestedMem; }
  @Override public long requestedEphemeralStorage() { return requestedEphemeral; }
  @Override public long nonZeroRequestedMilliCpu() { return nonZeroCpu; }
  @Override public long nonZeroRequestedMemory() { return nonZeroMem; }
  @Override public List<PodInfo> pods() { return pods; }
  @Override public int podCount() { return pods.size(); }
  @Override public List<Taint> taints() { return node.spec().taints(); }
  @Override public List<PodInfo> podsWithAffinity() { return withAffinity; }
  @Override public List<PodInfo> podsWithRequiredAntiAffinity() { return withAnti; }
  @Override public long generation() { return generation; }

  @Override
  public String toString() {
    return "SimNodeInfo(" + name() + ", " + pods.size() + " pods)";
  }

  /** The first {@code size} entries of an array, read-only. */
  private static final class Prefix extends java.util.AbstractList<PodInfo> implements java.util.RandomAccess {
    private final PodInfo[] array;
    private final int size;

    Prefix(PodInfo[] array, int size) {
      this.array = array;
      this.size = size;
    }

    @Override
    public PodInfo get(int index) {
      java.util.Objects.checkIndex(index, size);
      return array[index];
    }

    @Override
    public int size() {
      return size;
    }
  }
}
