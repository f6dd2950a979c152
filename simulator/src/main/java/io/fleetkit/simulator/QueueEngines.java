package io.fleetkit.simulator;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.simulation.ScenarioCohort;
import io.fleetkit.api.simulation.ScenarioPodsReady;
import io.fleetkit.api.simulation.ScenarioQueue;
import io.fleetkit.queueing.AdmissionEngine;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.ClusterQueuePreemption;
import io.fleetkit.queueing.Cohort;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.WaitForPodsReady;
import java.time.Clock;
import io.fleetkit.api.Violation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;

/**
 * The Kueue-style {@link AdmissionEngine} of a scenario's {@link ScenarioQueue}s: one ResourceFlavor per distinct
 * flavor name (its node labels, taints and tolerations), one ClusterQueue per queue (its quota on its flavor, its
 * cohort, preemption of lower priorities within the queue), one LocalQueue of the queue's name in each of its
 * namespaces, one Cohort per {@link ScenarioCohort} (its parent, its quota on its flavor with its limits), and the
 * scenario's {@code waitForPodsReady}.
 */
final class QueueEngines {
  private QueueEngines() {}

  /**
   * Problems with the queues taken together (a flavor named twice with different node labels, taints or
   * tolerations), field by field.
   */
  static List<Violation> check(String object, List<ScenarioQueue> queues) {
    Map<String, ScenarioQueue> flavors = new LinkedHashMap<>();
    List<Violation> problems = new ArrayList<>();
    for (int i = 0; i < queues.size(); i++) {
      ScenarioQueue q = queues.get(i);
      ScenarioQueue before = flavors.putIfAbsent(q.flavor(), q);
      if (before == null) {
        continue;
      }
      String p = "spec.queues[" + i + "].flavor.";
      if (!before.nodeLabels().equals(q.nodeLabels())) {
        problems.add(new Violation(object, p + "nodeLabels", "must be those flavor " + q.flavor()
            + " has in an earlier queue, " + before.nodeLabels(), q.nodeLabels().toString()));
      }
      if (!before.nodeTaints().equals(q.nodeTaints())) {
        problems.add(new Violation(object, p + "nodeTaints", "must be those flavor " + q.flavor()
            + " has in an earlier queue, " + before.nodeTaints(), q.nodeTaints().toString()));
      }
      if (!before.tolerations().equals(q.tolerations())) {
        problems.add(new Violation(object, p + "tolerations", "must be those flavor " + q.flavor()
            + " has in an earlier queue", null));
      }
    }
    return problems;
  }

  static AdmissionEngine engine(List<ScenarioQueue> queues, List<ScenarioCohort> cohorts, Clock clock) {
    return engine(queues, cohorts, null, clock, 0);
  }

  /**
   * The engine, with Kueue's {@code waitForPodsReady} when {@code podsReady} is given (its requeue jitter drawn from
   * {@code seed}).
   */
  static AdmissionEngine engine(List<ScenarioQueue> queues, List<ScenarioCohort> cohorts,
      @Nullable ScenarioPodsReady podsReady, Clock clock, long seed) {
    AdmissionEngine.Builder b = AdmissionEngine.builder().clock(clock);
    if (podsReady != null) {
      b.waitForPodsReady(waitForPodsReady(podsReady)).random(new SplittableRandom(seed));
    }
    Map<String, ScenarioQueue> flavors = new LinkedHashMap<>();
    for (ScenarioQueue q : queues) {
      flavors.putIfAbsent(q.flavor(), q);
    }
    flavors.forEach((name, q) -> b.resourceFlavor(new ResourceFlavor(name, q.nodeLabels(), q.nodeTaints(),
        q.tolerations())));
    for (ScenarioQueue q : queues) {
      List<FlavorResourceQuota> quotas = new ArrayList<>();
      for (Map.Entry<String, Quantity> e : q.quota().asMap().entrySet()) {
        quotas.add(FlavorResourceQuota.of(e.getKey(), e.getValue().toString()));
      }
      ClusterQueue.Builder cq = ClusterQueue.builder(q.name())
          .resourceGroup(FlavorQuotas.of(q.flavor(), quotas.toArray(FlavorResourceQuota[]::new)))
          .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.NEVER));
      if (q.cohort() != null) {
        cq.cohort(q.cohort());
      }
      b.clusterQueue(cq.build());
      for (String ns : q.namespaces()) {
        b.localQueue(LocalQueue.of(ns, q.name(), q.name()));
      }
    }
    for (ScenarioCohort c : cohorts) {
      b.cohort(cohort(c));
    }
    return b.build();
  }

  /** The queueing module's configuration of a scenario's {@code waitForPodsReady}. */
  static WaitForPodsReady waitForPodsReady(ScenarioPodsReady w) {
    WaitForPodsReady.Builder b = WaitForPodsReady.builder().timeout(w.timeout()).blockAdmission(w.blockAdmission())
        .timestamp(w.creationTimestamp() ? WaitForPodsReady.RequeuingTimestamp.CREATION
            : WaitForPodsReady.RequeuingTimestamp.EVICTION)
        .backoffBaseSeconds(w.backoffBaseSeconds()).backoffMaxSeconds(w.backoffMaxSeconds());
    if (w.recoveryTimeout() != null) {
      b.recoveryTimeout(w.recoveryTimeout());
    }
    if (w.backoffLimitCount() != null) {
      b.backoffLimitCount(w.backoffLimitCount());
    }
    return b.build();
  }

  private static Cohort cohort(ScenarioCohort c) {
    Cohort.Builder cb = Cohort.builder(c.name());
    if (c.parent() != null) {
      cb.parent(c.parent());
    }
    if (!c.quota().isEmpty()) {
      List<FlavorResourceQuota> quotas = new ArrayList<>();
      for (Map.Entry<String, Quantity> e : c.quota().asMap().entrySet()) {
        String r = e.getKey();
        quotas.add(new FlavorResourceQuota(r, e.getValue(),
            c.borrowingLimit().has(r) ? c.borrowingLimit().get(r) : null,
            c.lendingLimit().has(r) ? c.lendingLimit().get(r) : null));
      }
      cb.resourceGroup(FlavorQuotas.of(c.flavor(), quotas.toArray(FlavorResourceQuota[]::new)));
    }
    return cb.build();
  }
}
