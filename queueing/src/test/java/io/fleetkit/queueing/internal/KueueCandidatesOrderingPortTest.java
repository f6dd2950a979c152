package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.time.ManualClock;
import io.fleetkit.queueing.AdmissionFairSharing;
import io.fleetkit.queueing.AdmissionMode;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.FairSharingStrategy;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.Workload;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/scheduler/preemption/preemption_test.go}, {@code TestCandidatesOrdering}
 * (at commit ff69552e), against {@link Preemptor#candidateOrder}: the candidates are admitted with {@code
 * assumeAdmitted} in the preemptor's ClusterQueue {@code preemptor} or another, each LocalQueue's usage seeded in the
 * ledger as upstream sets {@code LocalQueueFSUsage} (the preemptor's queue usage-based when upstream's case turns the
 * feature on). 5 of 9, and one case of ours: the three priority boost cases are not modelled (no {@code
 * PriorityBoost}), nor "evicted workload first" (the engine evicts its targets at once: no candidate is already
 * evicted). Names with {@code _} take {@code -}.
 */
final class KueueCandidatesOrderingPortTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  /** A candidate: name, ClusterQueue, LocalQueue, priority, seconds after now it was admitted. */
  record C(String name, String cq, String lq, int priority, int admittedAfter) {}

  static Stream<Arguments> cases() {
    C low = new C("low-lq-usage", "preemptor", "low-usage-lq", 1, 0);
    C mid = new C("mid-lq-usage", "preemptor", "mid-usage-lq", 10, 0);
    C high = new C("high-lq-usage-different-cq", "different-cq", "high-usage-lq-different-cq", 1, 0);
    return Stream.of(
        Arguments.of("workloads sorted by priority", false,
            List.of(new C("high", "preemptor", "lq", 10, 0), new C("low", "preemptor", "lq", -10, 0)),
            List.of("low", "high")),
        Arguments.of("workload from different CQ first", false,
            List.of(new C("preemptorcq", "preemptor", "lq", 10, 0), new C("other", "different-cq", "lq2", 10, 0)),
            List.of("other", "preemptorcq")),
        Arguments.of("old workloads last", false,
            List.of(new C("older", "preemptor", "lq", 0, -1), new C("younger", "preemptor", "lq", 0, 1),
                new C("current", "preemptor", "lq", 0, 0)),
            List.of("younger", "current", "older")),
        Arguments.of("workloads with higher LQ usage first", true, List.of(low, mid),
            List.of("mid-lq-usage", "low-lq-usage")),
        Arguments.of("workloads from different CQ are sorted based on priority and timestamp", true,
            List.of(mid, high), List.of("high-lq-usage-different-cq", "mid-lq-usage")),
        // not upstream's: three candidates of the preemptor's queue, usage before priority
        Arguments.of("usage, then priority, within the preemptor's queue", true,
            List.of(low, mid, new C("low-prio-mid-usage", "preemptor", "mid-usage-lq", 0, 0)),
            List.of("low-prio-mid-usage", "mid-lq-usage", "low-lq-usage")));
  }

  private static final Map<String, String> USAGE = Map.of("low-usage-lq", "100m", "mid-usage-lq", "500m",
      "high-usage-lq-different-cq", "1");

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void candidateOrder_upstreamCase_orderAsUpstream(String name, boolean afs, List<C> candidates, List<String> want) {
    List<ClusterQueue> cqs = new ArrayList<>();
    for (String cq : List.of("preemptor", "different-cq")) {
      ClusterQueue.Builder b = ClusterQueue.builder(cq)
          .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "100")));
      if (afs) {
        b.admissionMode(AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING);
      }
      cqs.add(b.build());
    }
    List<LocalQueue> lqs = new ArrayList<>();
    for (C c : candidates) {
      LocalQueue lq = LocalQueue.of("ns", c.lq(), c.cq());
      if (lqs.stream().noneMatch(q -> q.key().equals(lq.key()))) {
        lqs.add(lq);
      }
    }
    QueueScheduler s = new QueueScheduler(new ManualClock(NOW), List.of(ResourceFlavor.of("default")), cqs,
        List.of(), lqs, Map.of(), false,
        List.of(FairSharingStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE, FairSharingStrategy.LESS_THAN_INITIAL_SHARE),
        List.of(), List.of());
    if (afs) {
      s.admissionFairSharing(AdmissionFairSharing.of(Duration.ofMinutes(5)));
      USAGE.forEach((lq, v) -> {
        AfsUsageLedger.Entry e = s.afsAccounting().ledger().getOrCreate("ns/" + lq, NOW);
        e.resources = KueueLocalQueueAfsPortTest.amounts(Map.of("cpu", v));
        s.afsAccounting().ledger().changed();
      });
    }
    List<AdmittedWorkload> ws = new ArrayList<>();
    for (C c : candidates) {
      Workload wl = Workload.builder("ns", c.name()).queueName(c.lq()).priority(c.priority()).creationTime(NOW)
          .request("cpu", "1").build();
      s.assumeAdmitted(wl, c.cq(), Map.of("cpu", "default"), NOW.plusSeconds(c.admittedAfter()));
      ws.add(admitted(s, c.cq(), wl.key()));
    }

    ws.sort(s.preemptor().candidateOrder(s.queue("preemptor")));

    assertThat(ws).extracting(w -> w.workload().name()).containsExactlyElementsOf(want);
  }

  private static AdmittedWorkload admitted(QueueScheduler s, String cq, String key) {
    @Nullable AdmittedWorkload w = s.queue(cq).admitted.get(key);
    assertThat(w).isNotNull();
    return w;
  }
}
