package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link PodTotals}, kept from a pod watch, against counting every pod of a fresh store listing
 * ({@link PodTotals#fromScratch}, the series' former pass over all pods), through random pod creations (bound or
 * not, with or without GPUs, stream Jobs' pods), status changes (phases, scheduling), deletions and samples at
 * advancing times, with the scheduling latencies of each sample interval.
 */
final class PodTotalsPropertyTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private static Pod pod(Random r, String ns, String name) {
    ResourceList.Builder req = ResourceList.builder().put("cpu", (100 * (1 + r.nextInt(4))) + "m")
        .put("memory", (1 + r.nextInt(3)) + "Gi");
    if (r.nextInt(3) == 0) {
      req.put("nvidia.com/gpu", String.valueOf(1 + r.nextInt(2)));
    }
    Pod.Builder b = Pod.builder().namespace(ns).name(name).container("c", "img", req.build());
    if (r.nextInt(3) == 0) {
      b.label(JobArrivals.STREAM_LABEL, "s").label(JobArrivals.JOB_LABEL, "job-" + r.nextInt(3));
    }
    if (r.nextBoolean()) {
      b.nodeName("node-" + r.nextInt(4));
    }
    return b.build();
  }

  @Property(tries = 60)
  void keptTotals_equalCountingEveryPod(@ForAll @IntRange(min = 1, max = 120) int steps, @ForAll long seed) {
    Random r = new Random(seed);
    ManualClock clock = new ManualClock(START);
    try (ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build()) {
      for (int i = 0; i < 3; i++) { // some pods before the totals start
        store.create(pod(r, "ns0", "pre-" + i));
      }
      PodTotals totals = new PodTotals(store);
      Instant prev = null;
      for (int step = 0; step < steps; step++) {
        List<Pod> pods = store.list(Pod.class).items();
        int op = r.nextInt(10);
        if (op < 3) {
          String ns = "ns" + r.nextInt(2);
          String name = "p" + r.nextInt(20);
          if (store.get(Pod.class, ns, name).isEmpty()) {
            store.create(pod(r, ns, name));
          }
        } else if (op < 7 && !pods.isEmpty()) { // a status change: phase, scheduling
          Pod p = pods.get(r.nextInt(pods.size()));
          PodPhase phase = PodPhase.values()[r.nextInt(PodPhase.values().length)];
          var status = p.status().withPhase(phase);
          if (r.nextBoolean()) {
            status = status.withCondition(PodCondition.of(PodCondition.POD_SCHEDULED, r.nextInt(4) == 0
                ? ConditionStatus.False : ConditionStatus.True, "", "", clock.instant()));
          }
          store.updateStatus(p.withStatus(status));
        } else if (op < 8 && !pods.isEmpty()) {
          Pod p = pods.get(r.nextInt(pods.size()));
          store.delete(Pod.class, p.metadata().namespace(), p.metadata().name());
        } else if (op < 9) {
          clock.advance(Duration.ofSeconds(r.nextInt(3) * 15L));
        } else { // a sample
          Instant now = clock.instant();
          List<Long> expected = new ArrayList<>(PodTotals.latenciesFromScratch(store.list(Pod.class).items(), prev,
              now));
          List<Long> actual = new ArrayList<>(totals.latencies(prev, now));
          expected.sort(null);
          actual.sort(null);
          assertThat(actual).as("latencies at step %d", step).isEqualTo(expected);
          prev = now;
          clock.advance(Duration.ofSeconds(1 + r.nextInt(30)));
        }
        assertThat(totals.totals()).as("step %d", step)
            .isEqualTo(PodTotals.fromScratch(store.list(Pod.class).items()));
      }
      totals.close();
    }
  }
}
