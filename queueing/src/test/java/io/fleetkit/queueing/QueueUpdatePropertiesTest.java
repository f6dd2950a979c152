package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.Quantity;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Invariants of runtime queue updates and {@link StopPolicy}, over random sequences of submissions, deletions, quota
 * and stop-policy changes of two ClusterQueues (no cohort, so no borrowing) and their three LocalQueues, and cycles.
 */
final class QueueUpdatePropertiesTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final String[] LQ_CQ = {"cq0", "cq0", "cq1"};

  /** One step: 0 submit, 1 delete, 2 put a ClusterQueue, 3 put a LocalQueue, 4 run a cycle. */
  record Op(int kind, int queue, int amount, StopPolicy policy) {}

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<Op> op = Combinators.combine(Arbitraries.integers().between(0, 4), Arbitraries.integers().between(0, 2),
        Arbitraries.integers().between(0, 6), Arbitraries.of(StopPolicy.NONE, StopPolicy.NONE, StopPolicy.HOLD,
            StopPolicy.HOLD_AND_DRAIN)).as(Op::new);
    return op.list().ofMinSize(5).ofMaxSize(60);
  }

  private static ClusterQueue cq(String name, int cpu, StopPolicy policy) {
    return ClusterQueue.builder(name).stopPolicy(policy)
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", String.valueOf(cpu)))).build();
  }

  @Property(tries = 300)
  void stoppedQueuesNeverGainAdmissions_usageIsTheAdmittedSumWithinQuotaAfterAdmitting(
      @ForAll("ops") List<Op> ops) {
    Map<String, ClusterQueue> cqs = new LinkedHashMap<>();
    cqs.put("cq0", cq("cq0", 4, StopPolicy.NONE));
    cqs.put("cq1", cq("cq1", 4, StopPolicy.NONE));
    Map<String, LocalQueue> lqs = new LinkedHashMap<>();
    AdmissionEngine.Builder b = AdmissionEngine.builder().resourceFlavors("default");
    cqs.values().forEach(b::clusterQueue);
    for (int i = 0; i < LQ_CQ.length; i++) {
      LocalQueue lq = LocalQueue.of("ns", "lq" + i, LQ_CQ[i]);
      lqs.put(lq.name(), lq);
      b.localQueue(lq);
    }
    AdmissionEngine e = b.build();
    Map<String, Workload> live = new LinkedHashMap<>();
    Map<String, Long> cpu = new HashMap<>();
    int n = 0;
    for (Op op : ops) {
      switch (op.kind()) {
        case 0 -> {
          Workload w = Workload.builder("ns", "w" + n).queueName("lq" + op.queue()).creationTime(T0.plusSeconds(n))
              .request("cpu", String.valueOf(1 + op.amount() % 4)).build();
          n++;
          e.submit(w);
          live.put(w.key(), w);
          cpu.put(w.key(), 1L + op.amount() % 4);
        }
        case 1 -> {
          if (!live.isEmpty()) {
            String key = new ArrayList<>(live.keySet()).get(op.amount() % live.size());
            assertThat(e.delete(key)).isTrue();
            live.remove(key);
          }
        }
        case 2 -> {
          ClusterQueue q = cq("cq" + (op.queue() % 2), op.amount(), op.policy());
          e.putClusterQueue(q);
          cqs.put(q.name(), q);
          assertDrained(e, lqs, cqs, live);
        }
        case 3 -> {
          LocalQueue lq = lqs.get("lq" + op.queue()).withStopPolicy(op.policy());
          e.putLocalQueue(lq);
          lqs.put(lq.name(), lq);
          assertDrained(e, lqs, cqs, live);
        }
        default -> {
          CycleResult r = e.schedule();
          for (QuotaReservation a : r.admitted()) {
            Workload w = live.get(a.workload());
            assertThat(cqs.get(a.clusterQueue()).stopPolicy()).as("admitted into a stopped ClusterQueue: %s", a)
                .isEqualTo(StopPolicy.NONE);
            assertThat(lqs.get(w.queueName()).stopPolicy()).as("admitted from a stopped LocalQueue: %s", a)
                .isEqualTo(StopPolicy.NONE);
            long nominal = cqs.get(a.clusterQueue()).resourceGroups().get(0).flavors().get(0).resources().get(0)
                .nominalQuota().milliValue();
            assertThat(e.usage(a.clusterQueue(), "default", "cpu").milliValue()).as("usage within quota")
                .isLessThanOrEqualTo(nominal);
          }
        }
      }
      assertThat(e.pendingCount() + e.admittedCount()).as("no workload lost").isEqualTo(live.size());
      for (String q : cqs.keySet()) {
        long sum = 0;
        for (QuotaReservation a : e.admitted(q)) {
          sum += cpu.get(a.workload());
        }
        assertThat(e.usage(q, "default", "cpu")).as("usage of %s", q).isEqualTo(Quantity.of(sum));
      }
    }
  }

  /** As above, queues also removed (an idle ClusterQueue, any LocalQueue) and added back in the end. */
  @Property(tries = 200)
  void resumingEveryQueueWithRoomForAll_admitsEveryWaitingWorkload(@ForAll("ops") List<Op> ops) {
    AdmissionEngine.Builder b = AdmissionEngine.builder().resourceFlavors("default")
        .clusterQueue(cq("cq0", 4, StopPolicy.NONE)).clusterQueue(cq("cq1", 4, StopPolicy.NONE));
    for (int i = 0; i < LQ_CQ.length; i++) {
      b.localQueue(LocalQueue.of("ns", "lq" + i, LQ_CQ[i]));
    }
    AdmissionEngine e = b.build();
    List<String> live = new ArrayList<>();
    int n = 0;
    for (Op op : ops) {
      switch (op.kind()) {
        case 0 -> {
          if (e.localQueue("ns", "lq" + op.queue()).isPresent()) {
            Workload w = Workload.builder("ns", "w" + n).queueName("lq" + op.queue())
                .creationTime(T0.plusSeconds(n)).request("cpu", String.valueOf(1 + op.amount() % 4)).build();
            n++;
            e.submit(w);
            live.add(w.key());
          }
        }
        case 1 -> {
          if (!live.isEmpty()) {
            e.delete(live.remove(op.amount() % live.size()));
          }
        }
        case 2 -> {
          if (op.amount() == 0 && e.clusterQueue("cq" + (op.queue() % 2)).isPresent()
              && e.admitted("cq" + (op.queue() % 2)).isEmpty()) {
            e.removeClusterQueue("cq" + (op.queue() % 2)); // an idle queue goes at once
          } else {
            e.putClusterQueue(cq("cq" + (op.queue() % 2), op.amount(), op.policy()));
          }
        }
        case 3 -> {
          if (op.amount() == 0) {
            e.removeLocalQueue("ns", "lq" + op.queue());
          } else {
            e.putLocalQueue(LocalQueue.of("ns", "lq" + op.queue(), LQ_CQ[op.queue()]).withStopPolicy(op.policy()));
          }
        }
        default -> e.schedule();
      }
    }
    e.putClusterQueue(cq("cq0", 1000, StopPolicy.NONE));
    e.putClusterQueue(cq("cq1", 1000, StopPolicy.NONE));
    for (int i = 0; i < LQ_CQ.length; i++) {
      e.putLocalQueue(LocalQueue.of("ns", "lq" + i, LQ_CQ[i]));
    }
    e.scheduleUntilIdle(1000);

    assertThat(e.pendingCount()).as("waiting after every queue resumed with room").isZero();
    assertThat(e.admittedCount()).isEqualTo(live.size());
    for (String key : live) {
      assertThat(e.isAdmitted(key)).as(key).isTrue();
    }
  }

  /** After a queue update, no workload holds quota of a HoldAndDrain ClusterQueue or from a HoldAndDrain LocalQueue. */
  private static void assertDrained(AdmissionEngine e, Map<String, LocalQueue> lqs, Map<String, ClusterQueue> cqs,
      Map<String, Workload> live) {
    for (ClusterQueue q : cqs.values()) {
      for (QuotaReservation a : e.admitted(q.name())) {
        assertThat(q.stopPolicy()).as("%s holds quota of drained %s", a.workload(), q.name())
            .isNotEqualTo(StopPolicy.HOLD_AND_DRAIN);
        assertThat(lqs.get(live.get(a.workload()).queueName()).stopPolicy())
            .as("%s holds quota from a drained LocalQueue", a.workload()).isNotEqualTo(StopPolicy.HOLD_AND_DRAIN);
      }
    }
  }
}
