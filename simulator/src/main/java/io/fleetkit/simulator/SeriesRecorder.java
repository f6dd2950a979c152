package io.fleetkit.simulator;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.api.simulation.WorkloadLoad;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.text.GoFloats;
import io.fleetkit.queueing.controller.QueueLabels;
import io.fleetkit.queueing.AdmissionEngine;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.DoubleBinaryOperator;
import java.util.function.Supplier;

/**
 * Samples a simulated cluster into {@link TimeSeries}: one pass over the nodes and one over the pods per sample.
 * A series that first appears later (a new pool, a new workload) gets zeros for the earlier samples. Not
 * thread-safe.
 */
final class SeriesRecorder {
  static final String PODS = "Pods";
  static final String WORKLOADS = "Ready vs desired";
  /** The per-workload lines' chart when a run has more than one workload (the totals stay in {@link #WORKLOADS}). */
  static final String WORKLOADS_EACH = "Ready vs desired per workload";
  static final String NODES = "Nodes";
  static final String CPU = "CPU";
  static final String GPU = "GPU";
  static final String LOAD = "Load";
  static final String COST = "Cost";
  /** The cumulative cost's own chart: on the cost per hour's axis, a day's total flattens the hourly rate. */
  static final String COST_TOTAL = "Cumulative cost";
  static final String MEMORY = "Memory";
  static final String POOL_USE = "Requested share per pool";
  static final String LATENCY = "Scheduling latency";
  static final String QUEUES = "Queues";
  static final String QUEUE_WAIT = "Queue wait";
  static final String JOBS = "Job streams";
  static final String WORK_QUEUES = "Work queues";
  static final String DESIRED_ALL = "desired (all workloads)";
  /** A pod annotation: the share of its GPUs it keeps busy, 0 to 1 (the {@code gpu used} series). */
  static final String GPU_UTILIZATION = "simulate.fleetkit.io/gpu-utilization";
  static final String READY_ALL = "ready (all workloads)";
  /** Nodes of no NodePool. */
  static final String NO_POOL = "(no pool)";

  private final ObjectStore store;
  private final LoadMetrics metrics;
  private final List<WorkloadLoad> loads;
  /**
   * Whether a load gives requests a CPU or a memory cost: without one the usage is not modelled, and {@code cpu used}
   * or {@code memory used} is left out rather than read as 0.
   */
  private final boolean cpuModelled;
  private final boolean memoryModelled;
  private final List<Duration> times = new ArrayList<>();
  private final Map<String, Builder> series = new LinkedHashMap<>();
  /** The nodes' cost, from {@link #start}. */
  private @Nullable NodeCost nodeCost;
  /** Whether a NodePool had a price at some sample; until then the cost series are not shown. */
  private boolean priced;
  private @Nullable AdmissionEngine queueEngine;
  private List<String> clusterQueues = List.of();
  private List<String> jobStreams = List.of();
  private @Nullable QueueScaling queueScaling;
  private @Nullable Instant start;
  private @Nullable StartupPhases startupPhases;
  /** The pods' figures, kept from a pod watch. */
  private final PodTotals pods;

  /** Also samples the Kueue-style queues (pending and admitted workloads, wait) of {@code engine}. */
  void queues(AdmissionEngine engine, List<String> names) {
    queueEngine = engine;
    clusterQueues = List.copyOf(names);
  }

  /** Also samples the Jobs of these streams ({@code namespace/name}). */
  void jobStreams(List<String> names) {
    jobStreams = List.copyOf(names);
  }

  /** Also samples the KEDA-style work queues. */
  void queueScaling(QueueScaling scaling) {
    queueScaling = scaling;
  }

  /** Counts starting nodes of pools with start-up phases by phase ({@code provisioning nodes POOL}, ...). */
  void startupPhases(StartupPhases phases) {
    startupPhases = phases;
  }

  /**
   * Starts on the simulation's clock: its instant now is the start (for the scheduling latency and queue wait of
   * each interval), from which the nodes' cost is counted ({@link NodeCost}).
   */
  void start(Supplier<Instant> clock) {
    start = clock.get();
    nodeCost = new NodeCost(store, clock, start);
  }

  private record Builder(String chart, String unit, List<Double> values) {}

  SeriesRecorder(ObjectStore store, LoadMetrics metrics, List<WorkloadLoad> loads) {
    this.store = store;
    this.metrics = metrics;
    this.loads = List.copyOf(loads);
    this.pods = new PodTotals(store);
    this.cpuModelled = this.loads.stream().anyMatch(l -> l.cpuMilliPerRequest() > 0);
    this.memoryModelled = this.loads.stream().anyMatch(l -> l.memoryPerRequest() > 0);
  }

  private void put(String name, String chart, String unit, double value) {
    Builder b = series.computeIfAbsent(name, n -> {
      List<Double> values = new ArrayList<>();
      for (int i = 1; i < times.size(); i++) {
        values.add(0.0);
      }
      return new Builder(chart, unit, values);
    });
    b.values().add(value);
  }

  /** Takes one sample at simulated time {@code at}. */
  void sample(Duration at) {
    times.add(at);
    Map<String, Double> prices = new HashMap<>();
    for (NodePool p : store.list(NodePool.class).items()) {
      prices.put(p.metadata().name(), p.spec().pricePerHour());
      priced |= p.spec().pricePerHour() > 0;
    }
    Map<String, int[]> pools = new TreeMap<>();
    Map<String, int[]> phases = new TreeMap<>(); // pool -> nodes per start-up phase
    for (NodePool p : store.list(NodePool.class).items()) {
      pools.put(p.metadata().name(), new int[2]);
    }
    long cpuAllocatable = 0;
    long gpuAllocatable = 0;
    double costPerHour = 0;
    for (Node n : store.list(Node.class).items()) {
      String pool = n.metadata().labels().getOrDefault(NodePool.POOL_LABEL, NO_POOL);
      int[] counts = pools.computeIfAbsent(pool, k -> new int[2]);
      costPerHour += prices.getOrDefault(pool, 0.0);
      if (n.isReady()) {
        counts[0]++;
        ResourceList a = n.allocatable();
        cpuAllocatable += a.milliCpu();
        gpuAllocatable += a.value(ResourceNames.NVIDIA_GPU);
      } else {
        io.fleetkit.api.simulation.StartupPhase ph = startupPhases == null || start == null ? null
            : startupPhases.phase(n, start.plus(at));
        if (ph == null) {
          counts[1]++;
        } else {
          phases.computeIfAbsent(pool, k -> new int[4])[ph.ordinal()]++;
        }
      }
    }
    Instant now = start == null ? null : start.plus(at);
    Instant prev = start == null || times.size() < 2 ? null : start.plus(times.get(times.size() - 2));
    Map<String, long[]> poolUse = new TreeMap<>(); // pool -> {cpu requested, gpu requested}
    Map<String, String> poolOf = new HashMap<>();
    Map<String, long[]> gpuPerNode = new HashMap<>(); // node -> {allocatable, requested}
    for (Node n : store.list(Node.class).items()) {
      if (n.isReady()) {
        poolOf.put(n.name(), n.metadata().labels().getOrDefault(NodePool.POOL_LABEL, NO_POOL));
        long g = n.allocatable().value(ResourceNames.NVIDIA_GPU);
        if (g > 0) {
          gpuPerNode.put(n.name(), new long[] {g, 0});
        }
      }
    }
    // the pods' part, kept from the pod watch (PodTotals): per ready node its unfinished pods' requests
    for (String node : pods.nodes()) {
      String pool = poolOf.get(node);
      if (pool != null) {
        poolUse.computeIfAbsent(pool, k -> new long[2])[0] += pods.nodeCpu(node);
      }
      long[] g = gpuPerNode.get(node);
      if (g != null) {
        g[1] += pods.nodeGpu(node);
      }
    }
    List<Long> latencies = now == null ? new ArrayList<>() : pods.latencies(prev, now);
    Collection<Pod> gpuRunning = pods.gpuRunning();
    int pending = pods.pending();
    int running = pods.running();
    long cpuRequested = pods.cpuRequested();
    long gpuRequested = pods.gpuRequested();
    long memRequested = pods.memRequested();
    put("pending pods", PODS, "pods", pending);
    put("running pods", PODS, "pods", running);
    int desiredAll = 0;
    int readyAll = 0;
    for (Deployment d : store.list(Deployment.class).items()) {
      desiredAll += d.spec().replicas();
      readyAll += d.status().readyReplicas();
    }
    for (StatefulSet s : store.list(StatefulSet.class).items()) {
      desiredAll += s.spec().replicas();
      readyAll += s.status().readyReplicas();
    }
    List<Rollout> rollouts = store.list(Rollout.class).items();
    for (Rollout r : rollouts) {
      desiredAll += r.spec().replicas();
      readyAll += r.status().readyReplicas();
    }
    put(DESIRED_ALL, WORKLOADS, "replicas", desiredAll);
    put(READY_ALL, WORKLOADS, "replicas", readyAll);
    for (Deployment d : store.list(Deployment.class).items()) {
      put("desired " + d.metadata().key(), WORKLOADS, "replicas", d.spec().replicas());
      put("ready " + d.metadata().key(), WORKLOADS, "replicas", d.status().readyReplicas());
    }
    for (StatefulSet s : store.list(StatefulSet.class).items()) {
      put("desired " + workload("StatefulSet", s.metadata().key()), WORKLOADS, "replicas", s.spec().replicas());
      put("ready " + workload("StatefulSet", s.metadata().key()), WORKLOADS, "replicas", s.status().readyReplicas());
    }
    for (Rollout r : rollouts) {
      put("desired " + workload(Rollout.KIND, r.metadata().key()), WORKLOADS, "replicas", r.spec().replicas());
      put("ready " + workload(Rollout.KIND, r.metadata().key()), WORKLOADS, "replicas", r.status().readyReplicas());
    }
    pools.forEach((pool, c) -> {
      put("ready nodes " + pool, NODES, "nodes", c[0]);
      put("not ready nodes " + pool, NODES, "nodes", c[1]);
      if (startupPhases != null && startupPhases.of(pool) != null) {
        int[] ph = phases.getOrDefault(pool, new int[4]);
        for (io.fleetkit.api.simulation.StartupPhase s : io.fleetkit.api.simulation.StartupPhase.values()) {
          if (s != io.fleetkit.api.simulation.StartupPhase.Ready) {
            put(s.label() + " nodes " + pool, NODES, "nodes", ph[s.ordinal()]);
          }
        }
      }
    });
    double cpuUsed = 0;
    metrics.refresh();
    Map<WorkloadLoad, Double> busy = new LinkedHashMap<>(); // load -> served / capacity of its serving pods
    for (WorkloadLoad l : loads) {
      double rate = metrics.rate(l);
      double capacity = metrics.capacity(l);
      double served = Math.min(rate, capacity);
      busy.put(l, capacity > 0 && !Double.isInfinite(capacity) ? served / capacity : 1.0);
      cpuUsed += served * l.cpuMilliPerRequest();
      String key = workload(l.kind(), l.namespace() + "/" + l.name());
      put("requests/s " + key, LOAD, "requests/s", rate);
      put("unserved requests/s " + key, LOAD, "requests/s", rate - served);
    }
    put("cpu allocatable", CPU, "cores", cpuAllocatable / 1000.0);
    put("cpu requested", CPU, "cores", cpuRequested / 1000.0);
    if (cpuModelled) {
      put("cpu used", CPU, "cores", Math.round(cpuUsed) / 1000.0);
    }
    put("gpu allocatable", GPU, "GPUs", gpuAllocatable);
    put("gpu requested", GPU, "GPUs", gpuRequested);
    put("gpu used", GPU, "GPUs", round2(gpuUsed(gpuRunning, busy)));
    long memAllocatable = 0;
    Map<String, Long> poolCpu = new TreeMap<>();
    for (Node n : store.list(Node.class).items()) {
      if (n.isReady()) {
        memAllocatable += n.allocatable().memoryBytes();
        poolCpu.merge(poolOf.get(n.name()), n.allocatable().milliCpu(), Long::sum);
      }
    }
    double memUsed = 0;
    for (WorkloadLoad l : loads) {
      if (l.memoryPerRequest() > 0) {
        memUsed += metrics.rate(l) * l.memoryPerRequest();
      }
    }
    put("memory allocatable", MEMORY, "GiB", round2(memAllocatable / GIB));
    put("memory requested", MEMORY, "GiB", round2(memRequested / GIB));
    if (memoryModelled) {
      put("memory used", MEMORY, "GiB", round2(memUsed / GIB));
    }
    long fragmented = 0;
    for (long[] g : gpuPerNode.values()) {
      if (g[1] > 0 && g[1] < g[0]) {
        fragmented += g[0] - g[1];
      }
    }
    put("gpu free on partly used nodes", GPU, "GPUs", fragmented);
    poolCpu.forEach((pool, alloc) -> {
      long[] u = poolUse.get(pool);
      put("cpu requested % " + pool, POOL_USE, "%", alloc == 0 ? 0 : round2(100.0 * (u == null ? 0 : u[0]) / alloc));
    });
    latencies.sort(null);
    put("scheduling latency p50", LATENCY, "s", percentile(latencies, 0.5));
    put("scheduling latency p99", LATENCY, "s", percentile(latencies, 0.99));
    put("scheduling latency max", LATENCY, "s", percentile(latencies, 1.0));
    sampleQueues(now, prev);
    put("cost per hour", COST, "$/h", Math.round(costPerHour * 1e6) / 1e6);
    double cumulativeCost = nodeCost == null ? 0 : nodeCost.total();
    put("cumulative cost", COST_TOTAL, "$", Math.round(cumulativeCost * 100) / 100.0);
    // a series with nothing to report this time (a pool without ready nodes, a pool's nodes all gone) reads 0
    for (Builder b : series.values()) {
      while (b.values().size() < times.size()) {
        b.values().add(0.0);
      }
    }
  }

  private static final double GIB = 1024.0 * 1024 * 1024;

  private static double round2(double v) {
    return Math.round(v * 100) / 100.0;
  }

  /** The nearest-rank percentile of sorted milliseconds, in seconds; 0 when there are none. */
  private static double percentile(List<Long> sortedMillis, double q) {
    if (sortedMillis.isEmpty()) {
      return 0;
    }
    int rank = (int) Math.ceil(q * sortedMillis.size());
    return sortedMillis.get(Math.max(0, Math.min(sortedMillis.size() - 1, rank - 1))) / 1000.0;
  }

  private void sampleQueues(@Nullable Instant now, @Nullable Instant prev) {
    AdmissionEngine engine = queueEngine;
    if (engine != null) {
      Map<String, long[]> waits = new TreeMap<>(); // queue -> {longest pending ms, admitted count, admitted wait ms}
      for (String q : clusterQueues) {
        waits.put(q, new long[3]);
      }
      for (Job j : store.list(Job.class).items()) {
        String lq = j.metadata().labels().get(QueueLabels.QUEUE_NAME);
        Instant created = j.metadata().creationTimestamp();
        if (lq == null || created == null || now == null) {
          continue;
        }
        String admission = j.metadata().annotations().get(QueueLabels.ADMISSION);
        String admittedAt = j.metadata().annotations().get(QueueLabels.ADMITTED_AT);
        if (admission != null && admittedAt != null) {
          long[] w = waits.get(admission.substring(0, Math.max(0, admission.indexOf('/'))));
          Instant t = Instant.parse(admittedAt);
          if (w != null && prev != null && t.isAfter(prev) && !t.isAfter(now)) {
            w[1]++;
            w[2] += Duration.between(created, t).toMillis();
          }
        } else if (!j.status().isFinished()) {
          long[] w = waits.get(lq); // scenario queues: the LocalQueue has the ClusterQueue's name
          if (w != null) {
            w[0] = Math.max(w[0], Duration.between(created, now).toMillis());
          }
        }
      }
      for (String q : clusterQueues) {
        put("pending workloads " + q, QUEUES, "workloads", engine.pending(q).size());
        put("admitted workloads " + q, QUEUES, "workloads", engine.admitted(q).size());
        long[] w = waits.get(q);
        put("longest wait (pending) " + q, QUEUE_WAIT, "s", w[0] / 1000.0);
        put("mean wait (admitted this interval) " + q, QUEUE_WAIT, "s", w[1] == 0 ? 0 : round2(w[2] / 1000.0 / w[1]));
      }
    }
    if (!jobStreams.isEmpty()) {
      Map<String, int[]> counts = new LinkedHashMap<>(); // stream -> {waiting, running, succeeded, failed}
      for (String s : jobStreams) {
        counts.put(s, new int[4]);
      }
      for (Job j : store.list(Job.class).items()) {
        String stream = j.metadata().labels().get(JobArrivals.STREAM_LABEL);
        int[] c = stream == null ? null : counts.get(j.metadata().namespace() + "/" + stream);
        if (c == null) {
          continue;
        }
        if (j.status().isConditionTrue(JobCondition.COMPLETE)) {
          c[2]++;
        } else if (j.status().isConditionTrue(JobCondition.FAILED)) {
          c[3]++;
        } else if (pods.jobRunning(j.metadata().key())) {
          c[1]++;
        } else {
          c[0]++;
        }
      }
      counts.forEach((s, c) -> {
        put("jobs waiting " + s, JOBS, "jobs", c[0]);
        put("jobs running " + s, JOBS, "jobs", c[1]);
        put("jobs succeeded " + s, JOBS, "jobs", c[2]);
        put("jobs failed " + s, JOBS, "jobs", c[3]);
      });
    }
    QueueScaling scaling = queueScaling;
    if (scaling != null) {
      for (String t : scaling.targets()) {
        put("queue length " + t.substring(t.indexOf('/') + 1), WORK_QUEUES, "messages",
            round2(scaling.queueLength(t)));
      }
    }
  }

  /**
   * GPUs in use: each running GPU pod's GPUs times its utilisation, which is its {@value #GPU_UTILIZATION}
   * annotation (0 to 1) when given, else the busy share of the load on its workload (served requests/s over what
   * its serving pods can serve) when a scenario load selects it, else 1 (a running GPU job is taken as busy).
   */
  private double gpuUsed(Collection<Pod> running, Map<WorkloadLoad, Double> busy) {
    double used = 0;
    List<Map.Entry<WorkloadLoad, io.fleetkit.api.labels.LabelSelector>> selectors = new ArrayList<>();
    for (WorkloadLoad l : busy.keySet()) {
      metrics.selector(l).ifPresent(sel -> selectors.add(Map.entry(l, sel)));
    }
    for (Pod p : running) {
      double u = 1;
      String a = p.metadata().annotations().get(GPU_UTILIZATION);
      if (a != null) {
        try {
          double read = GoFloats.parseFloat(a);
          u = Double.isNaN(read) ? 1 : Math.max(0, Math.min(1, read)); // NaN is not a share: taken as busy
        } catch (NumberFormatException e) {
          u = 1;
        }
      } else {
        for (Map.Entry<WorkloadLoad, io.fleetkit.api.labels.LabelSelector> e : selectors) {
          if (e.getKey().namespace().equals(p.metadata().namespace())
              && e.getValue().matches(p.metadata().labels())) {
            u = busy.get(e.getKey());
            break;
          }
        }
      }
      used += PodTotals.heldGpus(p) * u;
    }
    return used;
  }

  /**
   * How the per-workload series name a workload: {@code NS/NAME} for a Deployment, {@code KIND/NS/NAME} for a
   * StatefulSet or a Rollout, which may share a Deployment's namespace and name (an Argo Rollout that takes over a
   * Deployment often does), so that each workload has lines of its own.
   */
  static String workload(String kind, String namespaceAndName) {
    return kind.equals("Deployment") ? namespaceAndName : kind + "/" + namespaceAndName;
  }

  List<Duration> times() {
    return List.copyOf(times);
  }

  /**
   * Every series sampled, in the order first sampled, except that the per-workload lines of the ready-vs-desired and
   * load charts come worst first ({@link #worstFirst}): a chart draws its first {@link HtmlReport#MAX_LINES_PER_CHART}
   * lines, which are then those of the workloads that fell short. With more than one workload their lines are charted
   * apart from the totals ({@link #WORKLOADS_EACH}). Without a NodePool that had a price at some sample
   * the cost series are left out ({@link SimulationRun#NO_PRICE}): they would read 0, as if the run were free. In a
   * run with no GPU allocatable, requested or used at any sample, the GPU series are left out too: a cluster without
   * GPUs gets no chart of zeros.
   */
  List<TimeSeries> series() {
    boolean gpus = series.values().stream().anyMatch(b -> b.chart().equals(GPU) && b.values().stream()
        .anyMatch(v -> v != 0));
    List<TimeSeries> out = new ArrayList<>();
    series.forEach((name, b) -> {
      if ((priced || !(b.chart().equals(COST) || b.chart().equals(COST_TOTAL))) && (gpus || !b.chart().equals(GPU))) {
        out.add(new TimeSeries(name, b.chart(), b.unit(), b.values()));
      }
    });
    // replica-samples short of desired; requests/s beyond capacity summed over the samples
    worstFirst(out, WORKLOADS, "desired ", "ready ", (desired, ready) -> Math.max(0, desired - ready));
    worstFirst(out, LOAD, "requests/s ", "unserved requests/s ", (rate, unserved) -> unserved);
    // with more than one workload, their own lines get a chart of their own: on the totals' axis (thousands of
    // replicas) a workload's lines (tens) would lie flat along the bottom
    long workloads = out.stream().filter(t -> t.chart().equals(WORKLOADS) && t.name().startsWith("desired ")
        && !t.name().equals(DESIRED_ALL)).count();
    if (workloads > 1) {
      out.replaceAll(t -> t.chart().equals(WORKLOADS) && !t.name().equals(DESIRED_ALL) && !t.name().equals(READY_ALL)
          ? new TimeSeries(t.name(), WORKLOADS_EACH, t.unit(), t.values()) : t);
    }
    return out;
  }

  /**
   * Reorders the per-workload pairs of {@code chart} in {@code out}, a target line ({@code target} + workload) and
   * an outcome line ({@code outcome} + workload), by how far each workload fell short, the most first: the sum over
   * the samples of {@code shortfall(target value, outcome value)}. The pairs stay together and take the places the
   * pairs held; workloads that fell short equally keep the order first sampled, and the chart's totals (the
   * {@code (all workloads)} lines) and every other series keep their places.
   */
  static void worstFirst(List<TimeSeries> out, String chart, String target, String outcome,
      DoubleBinaryOperator shortfall) {
    List<Integer> places = new ArrayList<>();
    Map<String, List<TimeSeries>> pairs = new LinkedHashMap<>();
    for (int i = 0; i < out.size(); i++) {
      TimeSeries s = out.get(i);
      String name = s.name();
      if (!s.chart().equals(chart) || name.equals(DESIRED_ALL) || name.equals(READY_ALL)) {
        continue;
      }
      String workload = name.startsWith(target) ? name.substring(target.length())
          : name.startsWith(outcome) ? name.substring(outcome.length()) : null;
      if (workload != null) {
        places.add(i);
        pairs.computeIfAbsent(workload, w -> new ArrayList<>()).add(s);
      }
    }
    Map<String, Double> score = new HashMap<>();
    pairs.forEach((workload, lines) -> {
      List<Double> t = values(lines, target + workload);
      List<Double> o = values(lines, outcome + workload);
      int n = Math.max(t.size(), o.size());
      double sum = 0;
      for (int i = 0; i < n; i++) {
        sum += shortfall.applyAsDouble(i < t.size() ? t.get(i) : 0, i < o.size() ? o.get(i) : 0);
      }
      score.put(workload, sum);
    });
    List<String> order = new ArrayList<>(pairs.keySet());
    order.sort(Comparator.comparingDouble((String w) -> score.get(w)).reversed()); // stable: ties keep their order
    int k = 0;
    for (String w : order) {
      for (TimeSeries s : pairs.get(w)) {
        out.set(places.get(k++), s);
      }
    }
  }

  private static List<Double> values(List<TimeSeries> lines, String name) {
    for (TimeSeries s : lines) {
      if (s.name().equals(name)) {
        return s.values();
      }
    }
    return List.of();
  }
}
