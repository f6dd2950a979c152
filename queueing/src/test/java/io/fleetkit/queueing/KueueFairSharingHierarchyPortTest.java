package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Port of kubernetes-sigs/kueue {@code test/integration/singlecluster/scheduler/fairsharing/fair_sharing_test.go}
 * (commit ff69552e), "Scheduler" / "using hierarchical cohorts" / "preempts workloads to enforce fair share", through
 * the engine with fair sharing on (Kueue's default strategies). 12 CPUs in Cohort root; best-effort (weight 0.5)
 * under root; research under root with chemistry, physics and llm (weight 2.0). Twelve low-priority workloads fill
 * it (six best-effort, six physics); six high-priority ones then wait in each of the four queues before the next
 * cycle, as upstream creates them before it finishes the evictions. The engine releases a preempted workload's quota
 * at once (upstream's {@code FinishEvictionOfWorkloadsInCQ}). The share is then fair with respect to each parent:
 * best-effort 4 (4/12*1000/0.5), research 8; within research chemistry 2, physics 2, llm 4 (4/12*1000/2.0).
 * Upstream's weighted-share metrics are not kept: the reserving workloads per queue, its last assertions, are.
 */
final class KueueFairSharingHierarchyPortTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private final ManualClock clock = new ManualClock(T0);

  private static ClusterQueue queue(String name, String cohort, boolean reclaim) {
    ClusterQueue.Builder b = ClusterQueue.builder(name).cohort(cohort)
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "0")));
    if (reclaim) {
      b.preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.NEVER, QueuePreemptionPolicy.LOWER_PRIORITY));
    }
    return b.build();
  }

  private Workload wl(String queue, String name, int priority) {
    return Workload.builder("ns", name).queueName(queue).priority(priority).creationTime(clock.instant())
        .request("cpu", "1").build();
  }

  @Test
  void hierarchicalCohorts_preemptWorkloadsToEnforceFairShare() {
    List<String> queues = List.of("chemistry-queue", "physics-queue", "llm-queue", "best-effort-queue");
    AdmissionEngine.Builder b = AdmissionEngine.builder().clock(clock).resourceFlavors("default").fairSharing(true)
        .cohort(Cohort.builder("root").resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "12")))
            .build())
        .cohort(Cohort.builder("research").parent("root").build())
        .cohort(Cohort.builder("chemistry").parent("research").build())
        .cohort(Cohort.builder("physics").parent("research").build())
        .cohort(Cohort.builder("llm").parent("research").fairSharingWeight(Quantity.parse("2.0")).build())
        .cohort(Cohort.builder("best-effort").parent("root").fairSharingWeight(Quantity.parse("0.5")).build())
        .clusterQueue(queue("chemistry-queue", "chemistry", true))
        .clusterQueue(queue("physics-queue", "physics", true))
        .clusterQueue(queue("llm-queue", "llm", true))
        .clusterQueue(queue("best-effort-queue", "best-effort", false));
    for (String q : queues) {
      b.localQueue(LocalQueue.of("ns", q, q));
    }
    AdmissionEngine e = b.build();

    // all capacity used
    for (int i = 0; i < 6; i++) {
      e.submit(wl("best-effort-queue", "best-effort-low-" + i, -1));
      e.submit(wl("physics-queue", "physics-low-" + i, -1));
      clock.advance(Duration.ofSeconds(1));
    }
    e.scheduleUntilIdle(50);
    assertThat(e.admitted("best-effort-queue")).hasSize(6);
    assertThat(e.admitted("physics-queue")).hasSize(6);

    // create high priority workloads, preempt workloads
    for (int i = 0; i < 6; i++) {
      for (String q : queues) {
        e.submit(wl(q, q + "-high-" + i, 100));
      }
      clock.advance(Duration.ofSeconds(1));
    }
    e.scheduleUntilIdle(200);

    // number of workloads admitted proportional to share at each level
    Map<String, Integer> want = Map.of("best-effort-queue", 4, "chemistry-queue", 2, "physics-queue", 2,
        "llm-queue", 4);
    for (String q : queues) {
      assertThat(e.admitted(q)).as(q).hasSize(want.get(q));
    }
  }
}
