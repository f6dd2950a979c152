package io.fleetkit.simulator;

import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.api.store.ListResult;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.store.WatchEventType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The pod side of a {@link SeriesRecorder} sample, kept from a pod watch instead of a pass over every pod per sample:
 * each pod's contribution (pending or bound, running, its requests on its node, a running GPU pod, a running stream
 * Job, its scheduling time) is recorded when the watch delivers it and taken back when it changes or goes, so a
 * sample costs the nodes and the pods scheduled since the last one. {@link #totals} and {@link #fromScratch} give
 * the same figures (the property test compares them over random pod changes). The store must deliver its watch
 * events before a write returns (the simulation's direct mode). Not thread-safe.
 */
final class PodTotals implements AutoCloseable {
  /** Store listing order: namespace, then name. */
  private static final Comparator<Pod> LISTING_ORDER = Comparator.comparing((Pod p) -> p.metadata().namespace())
      .thenComparing(p -> p.metadata().name());

  /**
   * The figures of every pod at one instant: pending (not bound, not finished), running (bound, not finished,
   * phase Running), the requests of the bound unfinished pods, in total and per node ({cpu milli, gpu}), the
   * running pods that hold GPUs (listing order) and the stream Jobs with a running pod ({@code namespace/job}).
   */
  record Totals(int pending, int running, long cpuRequested, long gpuRequested, long memRequested,
      Map<String, List<Long>> perNode, List<Pod> gpuRunning, Set<String> runningJobs) {}

  /** What one pod adds. */
  private record Contribution(boolean pending, boolean running, @Nullable String node, long cpu, long gpu, long mem,
      boolean gpuRunning, @Nullable String job) {
    static final Contribution NONE = new Contribution(false, false, null, 0, 0, 0, false, null);
  }

  private final Watch watch;
  /** What each counted pod adds, by uid (so are the maps below: a pod's uid is the same string at every version). */
  private final Map<String, Contribution> byPod = new HashMap<>();
  private final Map<String, long[]> perNode = new HashMap<>();
  private final TreeMap<Pod, Pod> gpuRunning = new TreeMap<>(LISTING_ORDER);
  /** The pods in {@link #gpuRunning} by uid. */
  private final Map<String, Pod> gpuRunningByKey = new HashMap<>();
  private final Map<String, Integer> runningJobs = new HashMap<>();
  /** Pods scheduled after {@link #sampledUntil} (their PodScheduled transition): uid to {created, scheduled}. */
  private final Map<String, Instant[]> recentlyScheduled = new HashMap<>();
  private @Nullable Instant sampledUntil;
  private int pending;
  private int running;
  private long cpuRequested;
  private long gpuRequested;
  private long memRequested;

  PodTotals(ObjectStore store) {
    ListResult<Pod> all = store.list(Pod.class);
    for (Pod p : all.items()) {
      add(p);
    }
    watch = store.watch(Pod.class, all.resourceVersion(), this::onEvent);
  }

  private void onEvent(WatchEvent<Pod> e) {
    Pod p = e.object();
    remove(p.metadata().uid());
    if (e.type() != WatchEventType.DELETED) {
      add(p);
    }
  }

  private void add(Pod p) {
    String key = p.metadata().uid();
    Contribution c = contribution(p);
    if (c != Contribution.NONE) {
      byPod.put(key, c);
      apply(c, 1);
      if (c.gpuRunning()) {
        gpuRunning.put(p, p);
        gpuRunningByKey.put(key, p);
      }
    }
    Instant[] scheduled = scheduled(p);
    if (scheduled != null && (sampledUntil == null || scheduled[1].isAfter(sampledUntil))) {
      recentlyScheduled.put(key, scheduled);
    }
  }

  private void remove(String key) {
    Contribution c = byPod.remove(key);
    if (c != null) {
      apply(c, -1);
      if (c.gpuRunning()) {
        gpuRunning.remove(gpuRunningByKey.remove(key));
      }
    }
    recentlyScheduled.remove(key);
  }

  private void apply(Contribution c, int sign) {
    if (c.pending()) {
      pending += sign;
    }
    if (c.running()) {
      running += sign;
    }
    if (c.node() != null) {
      cpuRequested += sign * c.cpu();
      gpuRequested += sign * c.gpu();
      memRequested += sign * c.mem();
      long[] n = perNode.computeIfAbsent(c.node(), k -> new long[3]);
      n[0] += sign * c.cpu();
      n[1] += sign * c.gpu();
      n[2] += sign; // pods counted: the entry goes with its last pod
      if (n[2] == 0) {
        perNode.remove(c.node());
      }
    }
    if (c.job() != null) {
      runningJobs.merge(c.job(), sign, Integer::sum);
      if (runningJobs.get(c.job()) == 0) {
        runningJobs.remove(c.job());
      }
    }
  }

  /** One pod's part of the figures, as {@link #fromScratch} counts it. */
  private static Contribution contribution(Pod p) {
    PodPhase phase = p.status().phase();
    boolean bound = !p.spec().nodeName().isEmpty();
    boolean gpuRunning = phase == PodPhase.Running && bound && heldGpus(p) > 0;
    String job = phase == PodPhase.Running && p.metadata().labels().containsKey(JobArrivals.STREAM_LABEL)
        ? p.metadata().namespace() + "/" + p.metadata().labels().get(JobArrivals.JOB_LABEL) : null;
    if (phase == PodPhase.Succeeded || phase == PodPhase.Failed) {
      return gpuRunning || job != null ? new Contribution(false, false, null, 0, 0, 0, gpuRunning, job)
          : Contribution.NONE;
    }
    if (!bound) {
      return new Contribution(true, false, null, 0, 0, 0, gpuRunning, job);
    }
    ResourceList r = p.spec().effectiveRequests();
    return new Contribution(false, phase == PodPhase.Running, p.spec().nodeName(), r.milliCpu(),
        r.value(ResourceNames.NVIDIA_GPU), r.memoryBytes(), gpuRunning, job);
  }

  /** {created, PodScheduled True transition} of a pod that has both, else null. */
  private static Instant @Nullable [] scheduled(Pod p) {
    PodCondition sc = p.status().condition(PodCondition.POD_SCHEDULED);
    Instant created = p.metadata().creationTimestamp();
    if (sc != null && sc.status() == ConditionStatus.True && sc.lastTransitionTime() != null && created != null) {
      return new Instant[] {created, sc.lastTransitionTime()};
    }
    return null;
  }

  /** The GPUs a pod holds: its whole {@code nvidia.com/gpu} plus its shares ({@code fleetkit.io/gpu-milli}). */
  static double heldGpus(Pod p) {
    ResourceList r = p.spec().effectiveRequests();
    return GpuRequests.whole(r) + GpuRequests.milli(r) / (double) GpuRequests.MILLI_PER_DEVICE;
  }

  int pending() {
    return pending;
  }

  int running() {
    return running;
  }

  long cpuRequested() {
    return cpuRequested;
  }

  long gpuRequested() {
    return gpuRequested;
  }

  long memRequested() {
    return memRequested;
  }

  /** The cpu (milli) requested by unfinished pods bound to {@code node}. */
  long nodeCpu(String node) {
    long[] n = perNode.get(node);
    return n == null ? 0 : n[0];
  }

  /** The GPUs requested by unfinished pods bound to {@code node}. */
  long nodeGpu(String node) {
    long[] n = perNode.get(node);
    return n == null ? 0 : n[1];
  }

  /** The nodes with unfinished pods bound to them. */
  Set<String> nodes() {
    return perNode.keySet();
  }

  /** The running pods that hold GPUs, in listing order. */
  Collection<Pod> gpuRunning() {
    return gpuRunning.keySet();
  }

  /** Whether the stream Job {@code namespace/job} has a running pod. */
  boolean jobRunning(String key) {
    return runningJobs.containsKey(key);
  }

  /**
   * The scheduling latencies (creation to PodScheduled, milliseconds) of the pods that exist now and were scheduled
   * in {@code (prev, now]}, in no particular order; then forgets the pods scheduled up to {@code now}. With
   * {@code prev} null (the first sample) none.
   */
  List<Long> latencies(@Nullable Instant prev, Instant now) {
    List<Long> out = new ArrayList<>();
    for (Iterator<Instant[]> it = recentlyScheduled.values().iterator(); it.hasNext(); ) {
      Instant[] s = it.next();
      if (prev != null && s[1].isAfter(prev) && !s[1].isAfter(now)) {
        out.add(Duration.between(s[0], s[1]).toMillis());
      }
      if (!s[1].isAfter(now)) {
        it.remove();
      }
    }
    sampledUntil = now;
    return out;
  }

  /** The figures now. */
  Totals totals() {
    Map<String, List<Long>> nodes = new TreeMap<>();
    perNode.forEach((n, v) -> nodes.put(n, List.of(v[0], v[1])));
    return new Totals(pending, running, cpuRequested, gpuRequested, memRequested, nodes, List.copyOf(gpuRunning.keySet()),
        new TreeSet<>(runningJobs.keySet()));
  }

  /** The figures of {@code pods} (a store listing), counted pod by pod. */
  static Totals fromScratch(List<Pod> pods) {
    int pending = 0;
    int running = 0;
    long cpu = 0;
    long gpu = 0;
    long mem = 0;
    Map<String, long[]> perNode = new TreeMap<>();
    List<Pod> gpuRunning = new ArrayList<>();
    Set<String> jobs = new TreeSet<>();
    for (Pod p : pods) {
      PodPhase phase = p.status().phase();
      if (phase == PodPhase.Running && !p.spec().nodeName().isEmpty() && heldGpus(p) > 0) {
        gpuRunning.add(p);
      }
      if (phase == PodPhase.Running && p.metadata().labels().containsKey(JobArrivals.STREAM_LABEL)) {
        jobs.add(p.metadata().namespace() + "/" + p.metadata().labels().get(JobArrivals.JOB_LABEL));
      }
      if (phase == PodPhase.Succeeded || phase == PodPhase.Failed) {
        continue;
      }
      if (p.spec().nodeName().isEmpty()) {
        pending++;
        continue;
      }
      if (phase == PodPhase.Running) {
        running++;
      }
      ResourceList r = p.spec().effectiveRequests();
      cpu += r.milliCpu();
      gpu += r.value(ResourceNames.NVIDIA_GPU);
      mem += r.memoryBytes();
      long[] n = perNode.computeIfAbsent(p.spec().nodeName(), k -> new long[2]);
      n[0] += r.milliCpu();
      n[1] += r.value(ResourceNames.NVIDIA_GPU);
    }
    Map<String, List<Long>> nodes = new TreeMap<>();
    perNode.forEach((n, v) -> nodes.put(n, List.of(v[0], v[1])));
    return new Totals(pending, running, cpu, gpu, mem, nodes, gpuRunning, jobs);
  }

  /** The scheduling latencies {@link #latencies} gives, from every pod of a listing. */
  static List<Long> latenciesFromScratch(List<Pod> pods, @Nullable Instant prev, Instant now) {
    List<Long> out = new ArrayList<>();
    if (prev == null) {
      return out;
    }
    for (Pod p : pods) {
      Instant[] s = scheduled(p);
      if (s != null && s[1].isAfter(prev) && !s[1].isAfter(now)) {
        out.add(Duration.between(s[0], s[1]).toMillis());
      }
    }
    return out;
  }

  @Override
  public void close() {
    watch.close();
  }
}
