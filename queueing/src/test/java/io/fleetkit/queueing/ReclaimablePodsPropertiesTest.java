package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Invariants of reclaimable pods through the engine: whatever workloads are submitted and whatever pods become
 * reclaimable (never fewer while a workload holds quota), the ClusterQueue's usage is the sum over the admitted
 * workloads of their admitted pods, each capped at its pods after reclaim; it never exceeds the quota; and it is 0
 * once every workload is deleted.
 */
final class ReclaimablePodsPropertiesTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Property(tries = 300)
  void usageIsTheAdmittedPodsLeftAfterReclaim(
      @ForAll @Size(min = 1, max = 6) List<@IntRange(min = 1, max = 6) Integer> counts,
      @ForAll @Size(min = 1, max = 20) List<@IntRange(min = 0, max = 5) Integer> steps,
      @ForAll @IntRange(min = 2, max = 12) int quota) {
    ManualClock clock = new ManualClock(T0);
    AdmissionEngine e = AdmissionEngine.builder().clock(clock).resourceFlavors("default")
        .clusterQueue(ClusterQueue.builder("cq")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", String.valueOf(quota)))).build())
        .localQueue(LocalQueue.of("ns", "lq", "cq"))
        .build();
    for (int i = 0; i < counts.size(); i++) {
      e.submit(Workload.builder("ns", "w" + i).queueName("lq").creationTime(T0.plusSeconds(i))
          .podSet("main", counts.get(i), ResourceList.builder().put("cpu", "1").build()).build());
    }
    e.scheduleUntilIdle(20);
    for (int s = 0; s < steps.size(); s++) {
      int i = s % counts.size();
      String key = "ns/w" + i;
      int before = e.reclaimablePods(key).getOrDefault("main", 0);
      int next = Math.min(counts.get(i), before + steps.get(s));
      e.setReclaimablePods(key, next == 0 ? Map.of() : Map.of("main", next));
      e.scheduleUntilIdle(20);
      long expected = 0;
      for (int j = 0; j < counts.size(); j++) {
        QuotaReservation r = e.admission("ns/w" + j).orElse(null);
        if (r != null) {
          int left = counts.get(j) - e.reclaimablePods("ns/w" + j).getOrDefault("main", 0);
          expected += Math.min(r.podSets().get(0).count(), left);
        }
      }
      assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.parse(String.valueOf(expected)));
      assertThat(expected).isLessThanOrEqualTo(quota);
    }
    for (int i = 0; i < counts.size(); i++) {
      e.delete("ns/w" + i);
    }
    assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.ZERO);
  }
}
