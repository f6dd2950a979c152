package io.fleetkit.simulator;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.api.simulation.WorkloadLoad;
import io.fleetkit.api.store.ObjectStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Samples a simulated cluster into {@link TimeSeries}: one pass over the nodes and one over the pods per sample.
 * A series that first appears later (a new pool, a new workload) gets zeros for the earlier samples. Not
 * thread-safe.
 */
final class SeriesRecorder {
  static final String PODS = "Pods";
  static final String WORKLOADS = "Ready vs desired";
  static final String NODES = "Nodes";
  static final String CPU = "CPU";
  static final String GPU = "GPU";
  static final String LOAD = "Load";
  static final String COST = "Cost";
  static final String DESIRED_ALL = "desired (all workloads)";
  static final String READY_ALL = "ready (all workloads)";
  /** Nodes of no NodePool. */
  static final String NO_POOL = "(no pool)";

  private final ObjectStore store;
  private final LoadMetrics metrics;
  private final List<WorkloadLoad> loads;
  private final List<Duration> times = new ArrayList<>();
  private final Map<String, Builder> series = new LinkedHashMap<>();
  private double cumulativeCost;
  private double lastCostPerHour;

  private record Builder(String chart, String unit, List<Double> values) {}

  SeriesRecorder(ObjectStore store, LoadMetrics metrics, List<WorkloadLoad> loads) {
    this.store = store;
    this.metrics = metrics;
    this.loads = List.copyOf(loads);
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
    if (!times.isEmpty()) {
      Duration dt = at.minus(times.get(times.size() - 1));
      cumulativeCost += lastCostPerHour * dt.toMillis() / 3_600_000.0;
    }
    times.add(at);
    Map<String, Double> prices = new HashMap<>();
    for (NodePool p : store.list(NodePool.class).items()) {
      prices.put(p.metadata().name(), p.spec().pricePerHour());
    }
    Map<String, int[]> pools = new TreeMap<>();
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
        counts[1]++;
      }
    }
    int pending = 0;
    int running = 0;
    long cpuRequested = 0;
    long gpuRequested = 0;
    for (Pod p : store.list(Pod.class).items()) {
      PodPhase phase = p.status().phase();
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
      cpuRequested += r.milliCpu();
      gpuRequested += r.value(ResourceNames.NVIDIA_GPU);
    }
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
    put(DESIRED_ALL, WORKLOADS, "replicas", desiredAll);
    put(READY_ALL, WORKLOADS, "replicas", readyAll);
    for (Deployment d : store.list(Deployment.class).items()) {
      put("desired " + d.metadata().key(), WORKLOADS, "replicas", d.spec().replicas());
      put("ready " + d.metadata().key(), WORKLOADS, "replicas", d.status().readyReplicas());
    }
    for (StatefulSet s : store.list(StatefulSet.class).items()) {
      put("desired " + s.metadata().key(), WORKLOADS, "replicas", s.spec().replicas());
      put("ready " + s.metadata().key(), WORKLOADS, "replicas", s.status().readyReplicas());
    }
    pools.forEach((pool, c) -> {
      put("ready nodes " + pool, NODES, "nodes", c[0]);
      put("not ready nodes " + pool, NODES, "nodes", c[1]);
    });
    double cpuUsed = 0;
    metrics.refresh();
    for (WorkloadLoad l : loads) {
      double rate = metrics.rate(l);
      int serving = metrics.servingPods(l);
      long request = podCpuRequest(l);
      double capacity = l.cpuMilliPerRequest() == 0 ? Double.POSITIVE_INFINITY
          : serving * (double) request / l.cpuMilliPerRequest();
      double served = Math.min(rate, capacity);
      cpuUsed += served * l.cpuMilliPerRequest();
      String key = l.namespace() + "/" + l.name();
      put("requests/s " + key, LOAD, "requests/s", rate);
      put("unserved requests/s " + key, LOAD, "requests/s", rate - served);
    }
    put("cpu allocatable", CPU, "cores", cpuAllocatable / 1000.0);
    put("cpu requested", CPU, "cores", cpuRequested / 1000.0);
    put("cpu used", CPU, "cores", Math.round(cpuUsed) / 1000.0);
    put("gpu allocatable", GPU, "GPUs", gpuAllocatable);
    put("gpu requested", GPU, "GPUs", gpuRequested);
    put("cost per hour", COST, "$/h", Math.round(costPerHour * 1e6) / 1e6);
    put("cumulative cost", COST, "$", Math.round(cumulativeCost * 100) / 100.0);
    lastCostPerHour = costPerHour;
  }

  private long podCpuRequest(WorkloadLoad l) {
    PodSpec spec = l.kind().equals("StatefulSet")
        ? store.get(StatefulSet.class, l.namespace(), l.name()).map(s -> s.spec().template().spec()).orElse(null)
        : store.get(Deployment.class, l.namespace(), l.name()).map(d -> d.spec().template().spec()).orElse(null);
    return spec == null ? 0 : spec.effectiveRequests().milliCpu();
  }

  List<Duration> times() {
    return List.copyOf(times);
  }

  List<TimeSeries> series() {
    List<TimeSeries> out = new ArrayList<>();
    series.forEach((name, b) -> out.add(new TimeSeries(name, b.chart(), b.unit(), b.values())));
    return out;
  }
}
