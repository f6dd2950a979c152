package io.fleetkit.simulator;

import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.simulation.QueueScaler;
import io.fleetkit.api.simulation.WorkloadLoad;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.autoscale.queue.ScaleDecision;
import io.fleetkit.autoscale.queue.ScaleTrigger;
import io.fleetkit.autoscale.queue.ScaledObject;
import io.fleetkit.autoscale.queue.ScaledObjectController;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * KEDA-style queue scaling of a scenario's {@link QueueScaler}s: each Deployment's work queue is fed by its load
 * (requests/s become messages/s) and drained by its serving pods ({@link LoadMetrics#capacity}: each serves its own
 * CPU request divided by the load's per-request CPU, messages/s); {@link #step} integrates the queue every
 * {@link #STEP} of simulated time, and a {@link ScaledObjectController} reads the queue length as a
 * {@code queueLength} trigger at each object's polling interval and scales the Deployment. Single-threaded, as the simulation.
 */
final class QueueScaling {
  /** How often the queues are integrated and the due ScaledObjects polled. */
  static final Duration STEP = Duration.ofSeconds(5);
  /** The trigger's name. */
  static final String TRIGGER = "queue";

  private final ManualClock clock;
  private final LoadMetrics metrics;
  private final ScaledObjectController controller;
  private final Map<String, WorkloadLoad> loadOf = new LinkedHashMap<>();
  private final Map<String, double[]> backlog = new LinkedHashMap<>();
  private final List<QueueScaler> scalers;
  private final Map<String, Instant> lastPoll = new LinkedHashMap<>();
  private Instant last;

  QueueScaling(ObjectStore store, ManualClock clock, LoadMetrics metrics, List<QueueScaler> scalers,
      List<WorkloadLoad> loads) {
    this.clock = clock;
    this.metrics = metrics;
    this.controller = ScaledObjectController.create(store, clock.asClock());
    this.last = clock.now();
    this.scalers = List.copyOf(scalers);
    for (QueueScaler q : scalers) {
      for (WorkloadLoad l : loads) {
        if (l.target().equals(q.target())) {
          loadOf.put(q.target(), l);
        }
      }
      double[] messages = new double[1];
      backlog.put(q.target(), messages);
      ScaledObject so = ScaledObject.builder(q.namespace(), q.name(), CrossVersionObjectReference.deployment(q.name()))
          .trigger(ScaleTrigger.queueLength(TRIGGER, q.perReplica(), q.activation()))
          .pollingInterval(q.pollingInterval()).cooldownPeriod(q.cooldown()).minReplicaCount(q.minReplicas())
          .maxReplicaCount(q.maxReplicas()).build();
      controller.register(so, Map.of(TRIGGER, () -> messages[0]));
    }
  }

  /** Messages waiting in {@code target}'s queue now. */
  double queueLength(String target) {
    double[] m = backlog.get(target);
    return m == null ? 0 : m[0];
  }

  /** The scaled Deployments, as load targets. */
  List<String> targets() {
    return new ArrayList<>(backlog.keySet());
  }

  /**
   * Integrates every queue up to now, then polls the objects whose polling interval has passed; returns the
   * rescalings, keyed by target.
   */
  Map<String, String> step() {
    Instant now = clock.now();
    double dt = Duration.between(last, now).toMillis() / 1000.0;
    last = now;
    metrics.refresh();
    for (Map.Entry<String, double[]> e : backlog.entrySet()) {
      WorkloadLoad l = loadOf.get(e.getKey());
      if (l == null) {
        continue;
      }
      double capacity = metrics.capacity(l);
      double[] m = e.getValue();
      m[0] = Math.max(0, m[0] + (metrics.rate(l) - capacity) * dt);
      m[0] = Math.round(m[0] * 1000) / 1000.0; // keep the integration reproducible in the output
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (QueueScaler q : scalers) {
      Instant prev = lastPoll.get(q.target());
      if (prev != null && now.isBefore(prev.plus(q.pollingInterval()))) {
        continue;
      }
      lastPoll.put(q.target(), now);
      ScaleDecision d = controller.poll(q.namespace(), q.name());
      if (d.replicas() != d.previousReplicas()) {
        out.put(q.target(), d.previousReplicas() + " -> " + d.replicas() + " replicas (" + d.reason()
            + ", queue length " + d.values().get(TRIGGER) + ")");
      }
    }
    return out;
  }
}
