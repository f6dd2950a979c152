package io.fleetkit.queueing.internal;

import static io.fleetkit.queueing.internal.KueueHarness.wl;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.ClusterQueuePreemption;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * With fair sharing, a request that needs borrowing fits by preemption only when the queue may reclaim within its
 * cohort: Kueue's {@code canPreemptWhileBorrowing} ({@code pkg/scheduler/flavorassigner/flavorassigner.go}) is
 * borrowWithinCohort, or fair sharing with {@code reclaimWithinCohort} other than Never.
 */
final class FairSharingBorrowingTest {
  /** Queue {@code a} (2 CPUs, reclaiming by {@code reclaim}) and queue {@code b} (4 CPUs, all used) in one cohort. */
  private static Assignment fourCpusInA(QueuePreemptionPolicy reclaim) {
    KueueHarness h = new KueueHarness(List.of("default"), List.of(
        ClusterQueue.builder("a").cohort("c")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "2")))
            .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, reclaim)).build(),
        ClusterQueue.builder("b").cohort("c")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "4"))).build()), true);
    h.admit(wl("b-load", 0, "cpu", "4"), "b", "cpu", "default");
    return h.scheduler.assigner().assign(wl("wl", 0, "cpu", "4"), h.scheduler.queue("a"));
  }

  @Test
  void reclaimWithinCohortNever_borrowingRequestDoesNotFitByPreemption() {
    Assignment a = fourCpusInA(QueuePreemptionPolicy.NEVER);
    assertThat(a.mode()).isEqualTo(Assignment.NO_FIT);
    assertThat(a.message()).isEqualTo("couldn't assign flavors to pod set main: "
        + "insufficient unused quota for cpu in flavor default, 2 more needed");
  }

  @Test
  void reclaimWithinCohortLowerPriority_borrowingRequestFitsByPreemption() {
    Assignment a = fourCpusInA(QueuePreemptionPolicy.LOWER_PRIORITY);
    assertThat(a.mode()).isEqualTo(Assignment.PREEMPT);
    assertThat(a.podSets().get(0).flavors()).containsEntry("cpu", "default");
  }
}
