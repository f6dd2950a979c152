package io.fleetkit.simulator;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.simulation.WorkloadLoad;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.autoscale.hpa.ContainerUsage;
import io.fleetkit.autoscale.hpa.MetricsSource;
import io.fleetkit.autoscale.hpa.PodResourceMetrics;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.controllers.ActivePods;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The resource metrics API of a simulated cluster: a workload's requests/s at the current simulated time
 * ({@link io.fleetkit.api.simulation.LoadPattern#rateAt}) times its per-request cost, spread evenly over its ready
 * pods. Pods that are not ready report no usage (the HPA leaves them out of CPU utilization until they are), pods
 * of workloads without load report zero. Single-threaded, as the simulation.
 */
public final class LoadMetrics implements MetricsSource {
  /** The window each sample covers (metrics-server's default resolution). */
  public static final Duration WINDOW = Duration.ofSeconds(15);

  private final ObjectStore store;
  private final ManualClock clock;
  private final Instant start;
  private final List<WorkloadLoad> loads;
  private @Nullable Instant snapshotAt;
  private Map<String, List<Pod>> snapshot = Map.of();
  /** The loads by the namespace and selector of their workloads, taken with the snapshot. */
  private Map<SelectorKey, WorkloadLoad> loadsBySelector = Map.of();

  private record SelectorKey(String namespace, LabelSelector selector) {}

  public LoadMetrics(ObjectStore store, ManualClock clock, Instant start, List<WorkloadLoad> loads) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.start = Objects.requireNonNull(start, "start");
    this.loads = List.copyOf(loads);
  }

  /** Requests/s on {@code load} now. */
  public double rate(WorkloadLoad load) {
    return load.pattern().rateAt(Duration.between(start, clock.now()));
  }

  /** The selector of the workload {@code load} targets, if it exists. */
  public Optional<LabelSelector> selector(WorkloadLoad load) {
    if (load.kind().equals("StatefulSet")) {
      return store.get(StatefulSet.class, load.namespace(), load.name()).map(s -> s.spec().selector());
    }
    return store.get(Deployment.class, load.namespace(), load.name()).map(d -> d.spec().selector());
  }

  private @Nullable WorkloadLoad loadFor(String namespace, LabelSelector selector) {
    podsOf(null); // the per-instant snapshot, with the loads by selector
    return loadsBySelector.get(new SelectorKey(namespace, selector));
  }

  @Override
  public List<PodResourceMetrics> podResourceMetrics(String namespace, LabelSelector selector, String resource) {
    WorkloadLoad load = loadFor(namespace, selector);
    List<Pod> pods = load != null ? podsOf(load) : store.list(Pod.class, namespace, selector).items();
    double total = 0;
    if (load != null) {
      double perRequest = resource.equals("memory") ? load.memoryPerRequest() * 1000 : load.cpuMilliPerRequest();
      total = rate(load) * perRequest;
    }
    List<Pod> servingPods = new ArrayList<>();
    for (Pod p : pods) {
      if (serving(p) && selector.matches(p.metadata().labels())) {
        servingPods.add(p);
      }
    }
    int ready = servingPods.size();
    Instant now = clock.now();
    List<PodResourceMetrics> out = new ArrayList<>(ready);
    for (Pod p : servingPods) {
      if (p.spec().containers().isEmpty()) {
        continue;
      }
      long milli = Math.round(total / ready);
      out.add(new PodResourceMetrics(p.metadata().name(), now, WINDOW,
          List.of(new ContainerUsage(p.spec().containers().get(0).name(), milli))));
    }
    return out;
  }

  /** Drops the per-instant snapshot, so that the next read sees the pods as they are now. */
  public void refresh() {
    snapshotAt = null;
  }

  /** How many pods of {@code load}'s workload serve traffic now. */
  public int servingPods(WorkloadLoad load) {
    int n = 0;
    for (Pod p : podsOf(load)) {
      if (serving(p)) {
        n++;
      }
    }
    return n;
  }

  /**
   * The pods of {@code load}'s workload, from a snapshot taken once per simulated instant: one pass over the pods
   * of the loads' namespaces, grouped by their controller (a Deployment's through its ReplicaSets), instead of a
   * selector scan of the namespace per HPA. Pods change only when the workload controllers run, after the HPA in
   * the same instant, so the snapshot is what every HPA of that instant would have read.
   */
  private List<Pod> podsOf(@Nullable WorkloadLoad load) {
    Instant now = clock.now();
    if (!now.equals(snapshotAt)) {
      snapshot = group();
      loadsBySelector = new HashMap<>();
      for (WorkloadLoad l : loads) {
        selector(l).ifPresent(s -> loadsBySelector.putIfAbsent(new SelectorKey(l.namespace(), s), l));
      }
      snapshotAt = now;
    }
    return load == null ? List.of() : snapshot.getOrDefault(load.target(), List.of());
  }

  private Map<String, List<Pod>> group() {
    Set<String> namespaces = new TreeSet<>();
    for (WorkloadLoad l : loads) {
      namespaces.add(l.namespace());
    }
    Map<String, List<Pod>> out = new HashMap<>();
    for (String ns : namespaces) {
      Map<String, String> deploymentOfReplicaSet = new HashMap<>();
      for (ReplicaSet rs : store.list(ReplicaSet.class, ns).items()) {
        OwnerReference ref = rs.metadata().controllerRef();
        if (ref != null && ref.kind().equals("Deployment")) {
          deploymentOfReplicaSet.put(rs.metadata().uid(), "Deployment/" + ns + "/" + ref.name());
        }
      }
      for (Pod p : store.list(Pod.class, ns).items()) {
        OwnerReference ref = p.metadata().controllerRef();
        if (ref == null) {
          continue;
        }
        String workload = ref.kind().equals("StatefulSet") ? "StatefulSet/" + ns + "/" + ref.name()
            : deploymentOfReplicaSet.get(ref.uid());
        if (workload != null) {
          out.computeIfAbsent(workload, k -> new ArrayList<>()).add(p);
        }
      }
    }
    return out;
  }

  /** Whether {@code p} takes traffic: running, ready and not being deleted. */
  static boolean serving(Pod p) {
    return p.status().phase() == PodPhase.Running && p.metadata().deletionTimestamp() == null && ActivePods.isReady(p);
  }
}
