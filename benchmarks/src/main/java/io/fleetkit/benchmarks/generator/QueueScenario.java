package io.fleetkit.benchmarks.generator;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.queueing.AdmissionEngine;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.ClusterQueuePreemption;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.Workload;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A Kueue-style admission scenario: {@code clusterQueues} ClusterQueues in one cohort, each with {@code on-demand}
 * (2,000 cpu) and {@code spot} (1,500 cpu) quota and LowerPriority preemption, and {@code workloads} queued workloads
 * of 1-4 pods × 1 cpu with priorities 0-3, spread unevenly over the queues (queue i gets weight i + 1) so that busy
 * queues borrow from idle ones and fall back to spot. Total demand (~25,000 cpu for 10,000 workloads) fits the
 * cohort's quota (28,000 cpu for 8 queues), so every workload is admitted eventually. Seeded.
 */
public final class QueueScenario {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private final int clusterQueues;
  private final List<Workload> workloads;

  private QueueScenario(int clusterQueues, List<Workload> workloads) {
    this.clusterQueues = clusterQueues;
    this.workloads = workloads;
  }

  public static QueueScenario of(int clusterQueues, int workloads, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int totalWeight = clusterQueues * (clusterQueues + 1) / 2;
    List<Workload> out = new ArrayList<>(workloads);
    for (int i = 0; i < workloads; i++) {
      int pick = rnd.nextInt(totalWeight);
      int q = 0;
      while (pick >= q + 1) {
        pick -= q + 1;
        q++;
      }
      out.add(Workload.builder("team-" + q, "wl-" + i).queueName("jobs").priority(rnd.nextInt(4))
          .creationTime(T0.plusMillis(i))
          .podSet("workers", 1 + rnd.nextInt(4), ResourceList.builder().put("cpu", Quantity.of(1)).build())
          .build());
    }
    return new QueueScenario(clusterQueues, List.copyOf(out));
  }

  public List<Workload> workloads() {
    return workloads;
  }

  /** An engine with the scenario's queues and every workload submitted (nothing admitted yet). */
  public AdmissionEngine engine(boolean fairSharing) {
    AdmissionEngine.Builder b = AdmissionEngine.builder().clock(Clock.fixed(T0, ZoneOffset.UTC))
        .resourceFlavors("on-demand", "spot").fairSharing(fairSharing);
    for (int q = 0; q < clusterQueues; q++) {
      b.clusterQueue(ClusterQueue.builder("cq-" + q).cohort("all")
          .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.LOWER_PRIORITY))
          .resourceGroup(FlavorQuotas.of("on-demand", FlavorResourceQuota.of("cpu", "2000")),
              FlavorQuotas.of("spot", FlavorResourceQuota.of("cpu", "1500")))
          .build());
      b.localQueue(LocalQueue.of("team-" + q, "jobs", "cq-" + q));
    }
    AdmissionEngine engine = b.build();
    workloads.forEach(engine::submit);
    return engine;
  }
}
