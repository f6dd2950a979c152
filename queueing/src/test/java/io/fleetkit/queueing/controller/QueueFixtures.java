package io.fleetkit.queueing.controller;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.node.HealthSource;
import io.fleetkit.queueing.AdmissionEngine;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.ClusterQueuePreemption;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.FlavorResourceQuota;
import java.time.Clock;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Engines and Jobs for the queue admission tests. */
final class QueueFixtures {
  static final String NS = "default";
  /** The flavor's node label. */
  static final Map<String, String> POOL = Map.of("pool", "batch");

  private QueueFixtures() {}

  /**
   * One ClusterQueue {@code cq} with {@code cpus} CPUs of flavor {@code batch} (node label {@code pool=batch}),
   * LocalQueue {@code default/lq}, preemption of lower priorities within the queue.
   */
  static AdmissionEngine engine(Clock clock, String cpus) {
    return AdmissionEngine.builder().clock(clock)
        .resourceFlavor(new ResourceFlavor("batch", POOL))
        .clusterQueue(ClusterQueue.builder("cq")
            .resourceGroup(FlavorQuotas.of("batch", FlavorResourceQuota.of("cpu", cpus)))
            .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.NEVER))
            .build())
        .localQueue(LocalQueue.of(NS, "lq", "cq"))
        .build();
  }

  /**
   * As {@link #engine}, but the flavor also has a quota of {@code pods}: every pod of an admitted Job counts one (Kueue's
   * implicit {@code pods} resource).
   */
  static AdmissionEngine engineWithPods(Clock clock, String cpus, String pods) {
    return AdmissionEngine.builder().clock(clock)
        .resourceFlavor(new ResourceFlavor("batch", POOL))
        .clusterQueue(ClusterQueue.builder("cq")
            .resourceGroup(FlavorQuotas.of("batch", FlavorResourceQuota.of("cpu", cpus),
                FlavorResourceQuota.of("pods", pods)))
            .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.NEVER))
            .build())
        .localQueue(LocalQueue.of(NS, "lq", "cq"))
        .build();
  }

  /** A managed Job of {@code parallelism} pods of {@code cpu} each, running {@code seconds} in the simulation. */
  static Job job(String name, @Nullable String queue, int parallelism, String cpu, int priority, boolean suspend,
      int seconds) {
    PodSpec spec = PodSpec.builder().container("main", "busybox:1", ResourceList.builder().put("cpu", cpu).build())
        .restartPolicy(RestartPolicy.Never).priority(priority).build();
    ObjectMeta tmeta = ObjectMeta.builder().label("job", name)
        .annotation(HealthSource.EXIT_AFTER, String.valueOf(seconds)).build();
    Job.Builder b = Job.builder().namespace(NS).name(name).parallelism(parallelism).completions(parallelism)
        .suspend(suspend).template(new PodTemplateSpec(tmeta, spec));
    if (queue != null) {
      b.label(QueueLabels.QUEUE_NAME, queue);
    }
    return b.build();
  }

  static JobCondition quotaReserved(Job j) {
    JobCondition c = j.status().condition(QueueLabels.QUOTA_RESERVED);
    if (c == null) {
      throw new AssertionError("job " + j.metadata().key() + " has no QuotaReserved condition: "
          + j.status().conditions());
    }
    return c;
  }

  /** Admitted and running: annotated and not suspended. */
  static boolean running(Job j) {
    return !j.spec().suspend() && j.metadata().annotations().containsKey(QueueLabels.ADMISSION);
  }
}
