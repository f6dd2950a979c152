package io.fleetkit.queueing.internal;

import static io.fleetkit.queueing.internal.KueueHarness.wl;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.Cohort;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/scheduler/preemption/fairsharing/ordering_test.go}, {@code
 * TestMakeClusterQueueOrdering} (commit ff69552e): the ClusterQueues {@link TargetQueueOrdering} yields, in order,
 * taking one candidate of each (or dropping the queue where upstream's {@code actions} say so); the admitted workloads
 * of the candidate queues are the candidates. 7 of 7 cases.
 */
final class KueueTargetQueueOrderingPortTest {
  private static ClusterQueue cq(String name, String cohort, String cpu) {
    ClusterQueue.Builder b = ClusterQueue.builder(name)
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", cpu)));
    if (cohort != null) {
      b.cohort(cohort);
    }
    return b.build();
  }

  /** Runs the ordering with {@code admitted} as {@code name, cq, cpu} triples; {@code actions}: "drop" or "pop". */
  private static List<String> order(List<ClusterQueue> queues, List<Cohort> cohorts, String preemptor,
      Set<String> candidateQueues, List<String> actions, String... admitted) {
    KueueHarness h = new KueueHarness(List.of("default"), queues, cohorts, true);
    List<AdmittedWorkload> candidates = new ArrayList<>();
    for (int i = 0; i < admitted.length; i += 3) {
      h.admit(wl(admitted[i], 0, "cpu", admitted[i + 2]), admitted[i + 1], "cpu", "default");
      if (candidateQueues.contains(admitted[i + 1])) {
        candidates.add(h.scheduler.queue(admitted[i + 1]).admitted.get("default/" + admitted[i]));
      }
    }
    CqState p = h.scheduler.queue(preemptor);
    TargetQueueOrdering ordering = new TargetQueueOrdering(p, candidates, h.scheduler.index(),
        h.scheduler.preemptor().candidateOrder(p));
    List<String> got = new ArrayList<>();
    int step = 0;
    for (CqState target = ordering.next(); target != null; target = ordering.next()) {
      got.add(target.name);
      if (step < actions.size() && actions.get(step).equals("drop")) {
        ordering.drop(target);
      } else {
        ordering.pop(target);
      }
      step++;
      assertThat(got).as("iterations, likely an infinite loop").hasSizeLessThanOrEqualTo(50);
    }
    return got;
  }

  @Test
  void noCohortPreemptorCqYieldedForInCqPreemptionReproForNilPointerPanicIssue() {
    assertThat(order(List.of(cq("preemptor", null, "4")), List.of(), "preemptor", Set.of("preemptor"), List.of(),
        "wl1", "preemptor", "1")).containsExactly("preemptor");
  }

  @Test
  void noCohortDropQueueEndsTheIterationWithCandidatesRemaining() {
    assertThat(order(List.of(cq("preemptor", null, "4")), List.of(), "preemptor", Set.of("preemptor"),
        List.of("drop"), "wl1", "preemptor", "1", "wl2", "preemptor", "1")).containsExactly("preemptor");
  }

  @Test
  void nonBorrowingCqIsPrunedEvenWithCandidates() {
    // target is within its nominal quota (2 < 5): its share is 0, it does not borrow
    assertThat(order(List.of(cq("preemptor", "all", "4"), cq("target", "all", "5")), List.of(), "preemptor",
        Set.of("target"), List.of(), "t1", "target", "2")).isEmpty();
  }

  private static final List<ClusterQueue> HIGH_LOW =
      List.of(cq("preemptor", "all", "4"), cq("high", "all", "2"), cq("low", "all", "2"));

  @Test
  void higherDrsCqReturnedBeforeLowerDrsCq() {
    assertThat(order(HIGH_LOW, List.of(), "preemptor", Set.of("high", "low"), List.of(),
        "h1", "high", "5", "l1", "low", "3")).containsExactly("high", "low");
  }

  // high keeps its share across iterations (the share follows usage, not the candidates left): it comes twice
  @Test
  void cqWithHighestDrsReturnedAgainWhileItStillHasCandidates() {
    assertThat(order(HIGH_LOW, List.of(), "preemptor", Set.of("high", "low"), List.of(),
        "h1", "high", "3", "h2", "high", "2", "l1", "low", "3")).containsExactly("high", "high", "low");
  }

  @Test
  void dropQueuePreventsCqFromBeingReturnedAgain() {
    assertThat(order(HIGH_LOW, List.of(), "preemptor", Set.of("high", "low"), List.of("drop", "pop"),
        "h1", "high", "3", "h2", "high", "2", "l1", "low", "3")).containsExactly("high", "low");
  }

  //           root
  //          /    \
  //    left-cohort  right-cohort
  //        |              |
  //     left-cq        right-cq       preemptor-cq
  //   (usage=5>2)     (usage=3>2)     (usage=0, nominal=4)
  // left-cohort has the higher share: left-cq comes first.
  @Test
  void hierarchicalCohortsHigherDrsSubtreeVisitedFirst() {
    assertThat(order(List.of(cq("preemptor-cq", "root", "4"), cq("left-cq", "left-cohort", "2"),
            cq("right-cq", "right-cohort", "2")),
        List.of(Cohort.of("root", null), Cohort.of("left-cohort", "root"), Cohort.of("right-cohort", "root")),
        "preemptor-cq", Set.of("left-cq", "right-cq"), List.of(), "lc1", "left-cq", "5", "rc1", "right-cq", "3"))
        .containsExactly("left-cq", "right-cq");
  }
}
