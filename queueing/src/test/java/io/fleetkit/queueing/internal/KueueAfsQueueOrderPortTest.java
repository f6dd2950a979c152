package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.queueing.AdmissionFairSharing;
import io.fleetkit.queueing.AdmissionMode;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.FairSharingStrategy;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.QueueingStrategy;
import io.fleetkit.queueing.Workload;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes-sigs/kueue at commit ff69552e: the admission fair sharing queue order of a ClusterQueue,
 * over the engine's queues with a seeded {@link AfsUsageLedger} as upstream seeds its {@code AfsUsageLedger}
 * ({@code SetForTest}).
 *
 * <ul>
 *   <li>{@code pkg/cache/queue/cluster_queue_test.go} {@code TestFsAdmission}, all 6 cases (the head popped), and
 *       {@code TestSnapshotUsesDefaultWeightForMissingLocalQueue} (a LocalQueue the engine lacks weighs 1);
 *   <li>{@code pkg/cache/queue/manager_test.go} {@code TestHeadsRespectLocalQueueWeightForPreexistingWorkloads},
 *       {@code TestUpdateLocalQueueWeightReheapifies}, {@code TestUpdateLocalQueueWeightReheapifiesMultipleWorkloads},
 *       {@code TestUpdateLocalQueueWeightZeroReheapifies} (every workload popped, in order).
 * </ul>
 *
 * <p>Upstream's LocalQueue names {@code lqA} take {@code lq-a}: LocalQueue names are DNS subdomains.
 */
final class KueueAfsQueueOrderPortTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  private static QueueScheduler scheduler(@Nullable AdmissionMode mode, @Nullable AdmissionFairSharing config,
      List<LocalQueue> lqs) {
    ClusterQueue.Builder cq = ClusterQueue.builder("cq").queueingStrategy(QueueingStrategy.BEST_EFFORT_FIFO);
    if (mode != null) {
      cq.admissionMode(mode);
    }
    QueueScheduler s = new QueueScheduler(Clock.fixed(NOW, ZoneOffset.UTC), List.of(), List.of(cq.build()),
        List.of(), lqs, Map.of(), false,
        List.of(FairSharingStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE, FairSharingStrategy.LESS_THAN_INITIAL_SHARE),
        List.of(), List.of());
    if (config != null) {
      s.admissionFairSharing(config);
    }
    return s;
  }

  private static LocalQueue lq(String name, String weight) {
    return LocalQueue.of("default", name, "cq").withFairSharingWeight(Quantity.parse(weight));
  }

  private static Workload wl(String name, String queue, int priority, Instant created) {
    return Workload.builder("default", name).queueName(queue).priority(priority).creationTime(created)
        .request("cpu", "1").build();
  }

  private static void seed(QueueScheduler s, String lq, Map<String, String> consumed) {
    AfsUsageLedger.Entry e = s.afsAccounting().ledger().getOrCreate("default/" + lq, NOW);
    e.resources = KueueLocalQueueAfsPortTest.amounts(consumed);
    e.statusAccounted = true;
    s.afsAccounting().ledger().changed();
  }

  private static List<String> popAll(QueueScheduler s) {
    List<String> out = new ArrayList<>();
    for (PendingWorkload p = s.queue("cq").pending.pop(); p != null; p = s.queue("cq").pending.pop()) {
      out.add(p.key());
    }
    return out;
  }

  private static final AdmissionFairSharing EMPTY = new AdmissionFairSharing(Duration.ZERO,
      AdmissionFairSharing.DEFAULT_USAGE_SAMPLING_INTERVAL, Map.of());

  /** One case of {@code TestFsAdmission}: a workload is {@code name, lq, priority}. */
  record FsCase(String name, @Nullable AdmissionMode mode, @Nullable AdmissionFairSharing config,
      List<LocalQueue> lqs, Map<String, Map<String, String>> consumed, List<List<Object>> workloads, String want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> fsAdmission() {
    AdmissionMode usage = AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING;
    AdmissionMode none = AdmissionMode.NO_ADMISSION_FAIR_SHARING;
    List<List<Object>> highA = List.of(List.of("wla-high", "lq-a", 2), List.of("wlb-low", "lq-b", 1));
    List<List<Object>> lowHighA = List.of(List.of("wla-low", "lq-a", 1), List.of("wla-high", "lq-a", 2));
    return Stream.of(
        new FsCase("workloads are ordered by LQ usage, instead of priorities", usage, EMPTY,
            List.of(lq("lq-a", "1"), lq("lq-b", "1")),
            Map.of("lq-a", Map.of("cpu", "2"), "lq-b", Map.of("cpu", "1")), highA, "default/wlb-low"),
        new FsCase("workloads are ordered by LQ usage with respect to resource weights", usage,
            EMPTY.withResourceWeights(Map.of("cpu", 0.0, "GPU", 1.0)), List.of(lq("lq-a", "1"), lq("lq-b", "1")),
            Map.of("lq-a", Map.of("cpu", "1", "GPU", "10"), "lq-b", Map.of("cpu", "1000", "GPU", "1")), highA,
            "default/wlb-low"),
        new FsCase("workloads are ordered by LQ usage with respect to LQs' fair sharing weights", usage, EMPTY,
            List.of(lq("lq-a", "1"), lq("lq-b", "2")),
            Map.of("lq-a", Map.of("cpu", "10"), "lq-b", Map.of("cpu", "6")), highA, "default/wlb-low"),
        new FsCase("workloads with the same LQ usage are ordered by priority", usage, EMPTY, List.of(lq("lq-a", "1")),
            Map.of("lq-a", Map.of("cpu", "10")), lowHighA, "default/wla-high"),
        new FsCase("workloads with NoFairSharing CQ are ordered by priority", none, EMPTY,
            List.of(LocalQueue.of("default", "lq-a", "cq")), Map.of(), lowHighA, "default/wla-high"),
        new FsCase("workloads with no FS config are ordered by priority", none, null,
            List.of(LocalQueue.of("default", "lq-a", "cq")), Map.of(), lowHighA, "default/wla-high"))
        .map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fsAdmission")
  void pop_testFsAdmissionCase_headAsUpstream(FsCase tc) {
    QueueScheduler s = scheduler(tc.mode(), tc.config(), tc.lqs());
    tc.consumed().forEach((lq, consumed) -> seed(s, lq, consumed));
    for (List<Object> w : tc.workloads()) {
      s.submit(wl((String) w.get(0), (String) w.get(1), (Integer) w.get(2), NOW));
    }

    assertThat(s.queue("cq").pending.pop().key()).isEqualTo(tc.want());
  }

  /** TestSnapshotUsesDefaultWeightForMissingLocalQueue: usage 10 against 15 at weight 1 beats priority. */
  @Test
  void snapshot_workloadOfMissingLocalQueue_usesDefaultWeight() {
    QueueScheduler s = scheduler(AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING,
        EMPTY.withResourceWeights(Map.of("GPU", 1.0)), List.of(lq("existing", "1")));
    seed(s, "existing", Map.of("GPU", "10"));
    seed(s, "missing", Map.of("GPU", "15"));
    // the engine refuses a workload naming a LocalQueue it lacks; one already queued keeps its place
    CqState cq = s.queue("cq");
    cq.pending.push(new PendingWorkload(wl("existing-low-priority", "existing", 1, NOW), 1));
    cq.pending.push(new PendingWorkload(wl("missing-high-priority", "missing", 2, NOW), 2));

    assertThat(cq.pending.snapshot().get(0).key()).isEqualTo("default/existing-low-priority");
    assertThat(s.pending("cq")).first().isEqualTo("default/existing-low-priority");
  }

  private static final AdmissionFairSharing CPU = EMPTY.withResourceWeights(Map.of("cpu", 1.0));

  /** TestHeadsRespectLocalQueueWeightForPreexistingWorkloads: a zero weight pops last though created first. */
  @Test
  void pop_zeroWeightLocalQueue_popsLast() {
    QueueScheduler s = scheduler(AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING, CPU,
        List.of(lq("lq-normal", "1"), lq("lq-zero", "0")));
    seed(s, "lq-normal", Map.of("cpu", "0"));
    seed(s, "lq-zero", Map.of("cpu", "0"));
    s.submit(wl("wl-zero", "lq-zero", 0, NOW));
    s.submit(wl("wl-normal", "lq-normal", 0, NOW.plusSeconds(1)));

    assertThat(popAll(s)).containsExactly("default/wl-normal", "default/wl-zero");
  }

  /** TestUpdateLocalQueueWeightReheapifies: raising lq-b's weight halves its usage (4/2 against 4/1). */
  @Test
  void pop_weightRaisedAfterQueueing_reorders() {
    QueueScheduler s = scheduler(AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING, CPU,
        List.of(lq("lq-a", "1"), lq("lq-b", "1")));
    seed(s, "lq-a", Map.of("cpu", "4"));
    seed(s, "lq-b", Map.of("cpu", "4"));
    s.submit(wl("wl-a", "lq-a", 0, NOW));
    s.submit(wl("wl-b", "lq-b", 0, NOW.plusSeconds(1)));

    s.putLocalQueue(lq("lq-b", "2"));

    assertThat(popAll(s)).containsExactly("default/wl-b", "default/wl-a");
  }

  /** TestUpdateLocalQueueWeightReheapifiesMultipleWorkloads: a1, b1, a2, b2 become b1, b2, a1, a2. */
  @Test
  void pop_weightRaisedWithSeveralWorkloads_movesThemAll() {
    QueueScheduler s = scheduler(AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING, CPU,
        List.of(lq("lq-a", "1"), lq("lq-b", "1")));
    seed(s, "lq-a", Map.of("cpu", "4"));
    seed(s, "lq-b", Map.of("cpu", "4"));
    s.submit(wl("wl-a1", "lq-a", 0, NOW));
    s.submit(wl("wl-b1", "lq-b", 0, NOW.plusSeconds(1)));
    s.submit(wl("wl-a2", "lq-a", 0, NOW.plusSeconds(2)));
    s.submit(wl("wl-b2", "lq-b", 0, NOW.plusSeconds(3)));

    s.putLocalQueue(lq("lq-b", "2"));

    assertThat(popAll(s)).containsExactly("default/wl-b1", "default/wl-b2", "default/wl-a1", "default/wl-a2");
  }

  /** TestUpdateLocalQueueWeightZeroReheapifies: lq-a's weight dropped to 0 makes its usage infinite. */
  @Test
  void pop_weightDroppedToZero_popsThatQueueLast() {
    QueueScheduler s = scheduler(AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING, CPU,
        List.of(lq("lq-a", "1"), lq("lq-b", "1")));
    seed(s, "lq-a", Map.of("cpu", "4"));
    seed(s, "lq-b", Map.of("cpu", "4"));
    s.submit(wl("wl-a", "lq-a", 0, NOW));
    s.submit(wl("wl-b", "lq-b", 0, NOW.plusSeconds(1)));

    s.putLocalQueue(lq("lq-a", "0"));

    assertThat(popAll(s)).containsExactly("default/wl-b", "default/wl-a");
  }
}
