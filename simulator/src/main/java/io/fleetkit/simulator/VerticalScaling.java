package io.fleetkit.simulator;

import io.fleetkit.api.autoscaling.VerticalPodAutoscaler;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.autoscale.vpa.VpaTargets;
import io.fleetkit.autoscale.vpa.UpdateAction;
import io.fleetkit.autoscale.vpa.VpaAdmission;
import io.fleetkit.autoscale.vpa.VpaRecommenderLoop;
import io.fleetkit.autoscale.vpa.VpaUpdater;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The VPA's three parts over a simulated cluster:
 * <ul>
 *   <li>recommender ({@link #recommend}, every {@link #PERIOD}): a {@link VpaRecommenderLoop} reads each VPA's target
 *       pods' usage from {@link LoadMetrics} (CPU and memory follow the load) and the OOM kills of their containers
 *       (the simulated kubelets' {@code OOMKilled} restarts, from the pod watch), writes the recommendation into the
 *       VPA's status and keeps the histories in VerticalPodAutoscalerCheckpoints;
 *   <li>updater ({@link VpaUpdater#runOnce}, same period): evicts (or resizes in place) pods outside the
 *       recommended bounds;
 *   <li>admission: a watch on pods applies {@link VpaAdmission#admit} to each new, unbound pod a VPA with a
 *       recommendation targets, right after its creation, as a resize (the simulation's stand-in for the mutating
 *       webhook, which acts before the write).
 * </ul>
 * Single-threaded, as the simulation.
 */
final class VerticalScaling implements AutoCloseable {
  /** The recommender's {@code --recommender-interval} and the updater's {@code --updater-interval}. */
  static final Duration PERIOD = Duration.ofMinutes(1);

  private final ObjectStore store;
  private final ManualClock clock;
  private final LoadMetrics metrics;
  private final VpaUpdater updater;
  private final VpaRecommenderLoop recommender;
  private final Watch watch;
  private final List<String> events = new ArrayList<>();

  VerticalScaling(ObjectStore store, ManualClock clock, LoadMetrics metrics) {
    this.store = Objects.requireNonNull(store, "store");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.updater = VpaUpdater.create(store, clock.asClock());
    this.recommender = VpaRecommenderLoop.builder(store, metrics, clock.asClock()).build();
    this.watch = store.watch(Pod.class, "0", e -> {
      recommender.observe(e); // the recommender's OOM observer
      if (e.type() == WatchEventType.ADDED && !e.object().isBound()) {
        admit(e.object());
      }
    });
  }

  private void admit(Pod pod) {
    for (VerticalPodAutoscaler vpa : store.list(VerticalPodAutoscaler.class, pod.metadata().namespace()).items()) {
      if (!VpaAdmission.admits(vpa) || vpa.status().recommendation() == null) {
        continue;
      }
      LabelSelector selector;
      try {
        selector = VpaTargets.selector(store, vpa.metadata().namespace(), vpa.spec().targetRef());
      } catch (RuntimeException e) {
        continue;
      }
      if (selector.matches(pod.metadata().labels())) {
        // a refusal (the recommendation breaks the pod's rules, e.g. exceeds its pod-level budget) or a lost write
        // leaves the pod as it was created, with the reason on the timeline
        try {
          Pod admitted = VpaAdmission.admit(pod, vpa);
          if (!admitted.equals(pod)) {
            // after the create, so through pods/resize: an update may not change a pod's resources (the webhook
            // acts before the write; a recommendation that would change the pod's QoS class is refused here)
            store.resize(admitted);
          }
        } catch (RuntimeException e) {
          events.add("pod " + pod.metadata().key() + ": VPA admission not applied: " + e.getMessage());
        }
        return;
      }
    }
  }

  /** One recommender pass, then one updater pass; returns what the updater did, one line per pod. */
  List<String> runOnce() {
    recommend();
    List<String> out = new ArrayList<>(events);
    events.clear();
    for (UpdateAction a : updater.runOnce()) {
      out.add(a.pod() + ": " + a.action());
    }
    return out;
  }

  /** Feeds each VPA's target pods' current usage into its histograms and writes its recommendation. */
  void recommend() {
    metrics.refresh();
    recommender.runOnce();
  }

  @Override
  public void close() {
    watch.close();
  }
}
