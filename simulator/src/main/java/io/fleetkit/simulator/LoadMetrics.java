package io.fleetkit.simulator;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.simulation.WorkloadLoad;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.autoscale.hpa.ContainerUsage;
import io.fleetkit.autoscale.hpa.MetricsSource;
import io.fleetkit.autoscale.hpa.PodResourceMetrics;
import io.fleetkit.reconcile.ManualClock;
import io.fleetkit.reconcile.controllers.ActivePods;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
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
    for (WorkloadLoad l : loads) {
      if (l.namespace().equals(namespace) && selector(l).map(selector::equals).orElse(false)) {
        return l;
      }
    }
    return null;
  }

  @Override
  public List<PodResourceMetrics> podResourceMetrics(String namespace, LabelSelector selector, String resource) {
    List<Pod> pods = store.list(Pod.class, namespace, selector).items();
    WorkloadLoad load = loadFor(namespace, selector);
    double total = 0;
    if (load != null) {
      double perRequest = resource.equals("memory") ? load.memoryPerRequest() * 1000 : load.cpuMilliPerRequest();
      total = rate(load) * perRequest;
    }
    int ready = 0;
    for (Pod p : pods) {
      if (serving(p)) {
        ready++;
      }
    }
    Instant now = clock.now();
    List<PodResourceMetrics> out = new ArrayList<>();
    for (Pod p : pods) {
      if (!serving(p) || p.spec().containers().isEmpty()) {
        continue;
      }
      long milli = Math.round(total / ready);
      out.add(new PodResourceMetrics(p.metadata().name(), now, WINDOW,
          List.of(new ContainerUsage(p.spec().containers().get(0).name(), milli))));
    }
    return out;
  }

  /** Whether {@code p} takes traffic: running, ready and not being deleted. */
  static boolean serving(Pod p) {
    return p.status().phase() == PodPhase.Running && p.metadata().deletionTimestamp() == null && ActivePods.isReady(p);
  }
}
