package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Admission fair sharing through the engine on random runs: three LocalQueues of random weights submit one-CPU
 * workloads to a usage-based ClusterQueue of 4 CPUs, with cycles, deletions and clock advances. After every step the
 * quota usage equals the admitted workloads' and no consumed amount is negative; and a cycle not preceded by a clock
 * advance (so its sample changes nothing) admits from a LocalQueue whose usage was the lowest among those with a
 * workload waiting in the active queue.
 */
final class AdmissionFairSharingEnginePropertiesTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  private static final List<String> LQS = List.of("lq0", "lq1", "lq2");

  @Property(tries = 200)
  void randomRuns_keepQuotaAndAdmitFromTheLeastUsedLocalQueue(
      @ForAll @Size(3) List<@IntRange(min = 0, max = 3) Integer> weights,
      @ForAll @Size(min = 5, max = 60) List<@IntRange(min = 0, max = 9) Integer> steps) {
    ManualClock clock = new ManualClock(T0);
    AdmissionEngine.Builder b = AdmissionEngine.builder().clock(clock).resourceFlavors("default")
        .clusterQueue(ClusterQueue.builder("cq")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "4")))
            .admissionMode(AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING).build())
        .admissionFairSharing(new AdmissionFairSharing(Duration.ofMinutes(2), Duration.ofMinutes(1), Map.of()));
    for (int i = 0; i < LQS.size(); i++) {
      b.localQueue(LocalQueue.of("ns", LQS.get(i), "cq").withFairSharingWeight(Quantity.of(weights.get(i))));
    }
    AdmissionEngine e = b.build();
    List<String> admitted = new ArrayList<>();
    Map<String, Integer> lqOf = new java.util.HashMap<>();
    int next = 0;
    boolean advanced = false;
    for (int step : steps) {
      if (step <= 3) { // submit to lq0..lq2 (3: lq0 again)
        String lq = LQS.get(step % 3);
        lqOf.put("ns/w" + next, step % 3);
        e.submit(Workload.builder("ns", "w" + next).queueName(lq).request("cpu", "1")
            .creationTime(T0.plusSeconds(next)).build());
        next++;
      } else if (step <= 6) {
        Set<String> active = new HashSet<>(e.pending("cq"));
        active.removeAll(e.inadmissible("cq"));
        double[] usage = new double[LQS.size()];
        for (int i = 0; i < LQS.size(); i++) {
          usage[i] = e.localQueueUsage("ns", LQS.get(i));
        }
        CycleResult r = e.schedule();
        for (QuotaReservation q : r.admitted()) {
          admitted.add(q.workload());
          if (!advanced) {
            double got = usage[lqOf.get(q.workload())];
            for (String p : active) {
              assertThat(got).as("admitted %s over waiting %s", q.workload(), p)
                  .isLessThanOrEqualTo(usage[lqOf.get(p)]);
            }
          }
        }
        advanced = false;
      } else if (step <= 8) {
        if (!admitted.isEmpty()) {
          e.delete(admitted.remove(0));
        }
      } else {
        clock.advance(Duration.ofSeconds(45));
        advanced = true;
      }
      assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.of(admitted.size()));
      for (String lq : LQS) {
        e.localQueueFairSharing("ns", lq).ifPresent(s -> s.consumedResources().values()
            .forEach(v -> assertThat(v.isNegative()).isFalse()));
        assertThat(e.localQueueUsage("ns", lq)).isNotNaN().isGreaterThanOrEqualTo(0);
      }
    }
  }
}
