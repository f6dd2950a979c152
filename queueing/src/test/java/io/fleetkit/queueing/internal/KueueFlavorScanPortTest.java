package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.FlavorFungibility;
import io.fleetkit.queueing.FlavorFungibility.WhenCanBorrow;
import io.fleetkit.queueing.FlavorFungibility.WhenCanPreempt;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.PodSet;
import io.fleetkit.queueing.PodSetAssignment;
import io.fleetkit.queueing.PodSetTopologyRequest;
import io.fleetkit.queueing.QuotaReservation;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.Topology;
import io.fleetkit.queueing.TopologyAssignment;
import io.fleetkit.queueing.Workload;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/scheduler/flavorassigner/flavorassigner_test.go} (commit ff69552e),
 * TestFlavorScanRecordsLastTriedFlavorIdx (7 of 7) and TestRecomputeRecordsLastTriedFlavorIdx (1 of 2): what the
 * flavor search records as the last tried flavor ({@link Assignment#lastTriedFlavorIdx}, Kueue's {@code
 * LastState.LastTriedFlavorIdx}) for each shape the search can take, with topology-aware scheduling. The setup is
 * upstream's {@code newBookmarkSnapshot}: two flavors with a topology of one 4-CPU node each, a ClusterQueue {@code cq}
 * with the case's nominal quota on both, and a sibling in its cohort lending the case's spare quota; the workload is
 * one pod on a required hostname topology. Quota usage is set up as admitted workloads of {@code cq}; upstream's node
 * usage ({@code nodeUsageOnFlavorOne}: a workload of another queue on node-1) as an admitted workload of {@code
 * sibling} with a topology assignment on node-1. The assigner and the topology placement are the engine's ({@link
 * FlavorAssigner#assign(Workload, CqState, FlavorScanProgress)}, then {@link TopologyPlacer#place}), with Kueue's test
 * oracle for the preemption simulation.
 *
 * <p>FleetKit's API accepts {@code flavorFungibility.preference} only with both policies {@code TryNextFlavor}, as
 * Kueue's does; the upstream cases that set {@code PreemptionOverBorrowing} with a {@code MayStopSearch} policy run
 * without it here. It ranks nothing in them: the search stops at the first flavor it may stop at (cases "fits only by
 * borrowing, but WhenCanBorrow is MayStopSearch", "needs preemption and candidates exist"), or no flavor can stop it
 * and both flavors are alike ("needs preemption but no candidates").
 */
final class KueueFlavorScanPortTest {
  private static final String HOST = Topology.HOSTNAME_LABEL;
  private static final FlavorFungibility TRY_NEXT_POB =
      FlavorFungibility.tryEveryFlavor(FlavorFungibility.Preference.PREEMPTION_OVER_BORROWING);

  /**
   * One upstream case: the ClusterQueue's nominal quota per flavor, the sibling's, the pod's CPU, the CPU admitted
   * workloads of {@code cq} use in each flavor (0 for none), the CPU another queue's workload uses on node-1, which
   * flavors the oracle finds no preemption candidates in, the fungibility; and what upstream expects.
   */
  record Case(String name, String nominal, String cohortSpare, String request, String cqUsagePerFlavor,
      String nodeOneUsage, boolean noCandidates, FlavorFungibility fungibility, int wantMode, int wantTriedFlavorIdx,
      boolean wantPlan) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> flavorScanRecordsLastTriedFlavorIdx() {
    return Stream.of(
        new Case("quota and topology both fit on the first flavor: bookmark names it",
            "10", "0", "2", "0", "0", false, TRY_NEXT_POB, Assignment.FIT, 0, true),
        new Case("quota fits but the pod is larger than any node: bookmark still names the first flavor",
            "10", "0", "6", "0", "0", false, TRY_NEXT_POB, Assignment.NO_FIT, 0, false),
        new Case("quota fits but the topology is fragmented: bookmark still names the first flavor",
            "10", "0", "3", "0", "2", false, TRY_NEXT_POB, Assignment.PREEMPT, 0, false),
        new Case("fits only by borrowing: bookmark says start over",
            "1", "20", "2", "0", "0", false, TRY_NEXT_POB, Assignment.FIT, -1, true),
        new Case("fits only by borrowing, but WhenCanBorrow is MayStopSearch: bookmark names the first flavor",
            "1", "20", "2", "0", "0", false,
            new FlavorFungibility(WhenCanBorrow.BORROW, WhenCanPreempt.TRY_NEXT_FLAVOR),
            Assignment.FIT, 0, true),
        new Case("needs preemption and candidates exist: bookmark names the first flavor",
            "2", "0", "2", "2", "0", false,
            new FlavorFungibility(WhenCanBorrow.BORROW, WhenCanPreempt.PREEMPT),
            Assignment.PREEMPT, 0, false),
        new Case("needs preemption but no candidates: bookmark says start over whatever the policy",
            "2", "0", "2", "2", "0", true,
            new FlavorFungibility(WhenCanBorrow.BORROW, WhenCanPreempt.PREEMPT),
            Assignment.PREEMPT, -1, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void flavorScanRecordsLastTriedFlavorIdx(Case c) {
    Setup s = new Setup(c.nominal(), c.cohortSpare(), c.fungibility(), c.noCandidates());
    if (!c.cqUsagePerFlavor().equals("0")) {
      s.h.admit(KueueHarness.wl("usage-1", 0, "cpu", c.cqUsagePerFlavor()), "cq", "cpu", "flavor-1");
      s.h.admit(KueueHarness.wl("usage-2", 0, "cpu", c.cqUsagePerFlavor()), "cq", "cpu", "flavor-2");
    }
    List<AdmittedWorkload> others = c.nodeOneUsage().equals("0") ? List.of() : List.of(s.onNodeOne(c.nodeOneUsage()));

    Assignment a = s.assign(workload(c.request()), others);

    assertThat(a.mode()).as("RepresentativeMode").isEqualTo(c.wantMode());
    assertThat(a.lastTriedFlavorIdx()).as("a bookmark is recorded for the pod set").isNotEmpty();
    assertThat(a.lastTriedFlavorIdx().get(0)).as("LastTriedFlavorIdx of pod set 0")
        .containsEntry("cpu", c.wantTriedFlavorIdx());
    assertThat(TopologyPlacer.placed(a)).as("produced a TopologyAssignment").isEqualTo(c.wantPlan());
  }

  /**
   * TestRecomputeRecordsLastTriedFlavorIdx "quota still accepts the nominated flavor: bookmark keeps naming it":
   * quota is generous and the pod fits an empty node, so nomination fits with a placement on flavor-1 and records it
   * (0); then another queue's workload takes 2 of node-1's 4 CPUs, so the placement no longer fits. FleetKit's
   * in-cycle recomputation ({@code QueueScheduler.recomputeIfNeeded}) clears the head's progress, as Kueue's does, and
   * nominates it again from the first flavor (Kueue replays the search pinned to the nominated flavors): quota stops
   * the search on flavor-1 again, whose topology now fits only by preemption, so the recorded index stays 0 and the
   * mode is Preempt, as upstream expects. Upstream's other case, "quota tightened as well: bookmark says start over",
   * replays the search with the nomination mapping after quota ran out too; FleetKit's assigner has no nomination
   * mapping, and neither scheduler recomputes an assignment whose quota no longer fits (Kueue's {@code fits} answers
   * {@code FitsCheckNoQuota} before it looks at the topology), so that replay has no counterpart in a cycle.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("recomputeCases")
  void recomputeRecordsLastTriedFlavorIdx(String name, int wantNominatedIdx, int wantRecomputedIdx) {
    Setup s = new Setup("10", "0", TRY_NEXT_POB, false);
    Workload wl = workload("3");

    Assignment nominated = s.assign(wl, List.of());
    assertThat(nominated.mode()).as("nomination RepresentativeMode").isEqualTo(Assignment.FIT);
    assertThat(TopologyPlacer.placed(nominated)).as("nomination produced a TopologyAssignment").isTrue();
    assertThat(nominated.lastTriedFlavorIdx().get(0)).containsEntry("cpu", wantNominatedIdx);

    List<AdmittedWorkload> others = List.of(s.onNodeOne("2"));
    assertThat(s.placer.fits(wl, s.cq(), nominated, others)).as("the nominated placement still fits").isFalse();
    Assignment recomputed = s.assign(wl, others);

    assertThat(recomputed.lastTriedFlavorIdx().get(0)).as("recomputation LastTriedFlavorIdx")
        .containsEntry("cpu", wantRecomputedIdx);
    assertThat(recomputed.mode()).as("recomputation RepresentativeMode").isEqualTo(Assignment.PREEMPT);
  }

  static Stream<org.junit.jupiter.params.provider.Arguments> recomputeCases() {
    return Stream.of(org.junit.jupiter.params.provider.Arguments.of(
        "quota still accepts the nominated flavor: bookmark keeps naming it", 0, 0));
  }

  /** Upstream's {@code bookmarkTestWorkload}: one pod requesting {@code cpu} on a required hostname topology. */
  private static Workload workload(String cpu) {
    return Workload.builder("default", "wl").creationTime(KueueHarness.NOW)
        .podSet(PodSet.of("main", 1, ResourceList.builder().put("cpu", cpu).build())
            .withTopologyRequest(PodSetTopologyRequest.ofRequired(HOST)))
        .build();
  }

  /** Upstream's {@code newBookmarkSnapshot}, {@code bookmarkTestFlavors} and {@code bookmarkTestNodes}. */
  private static final class Setup {
    final KueueHarness h;
    final TopologyPlacer placer;
    final FlavorAssigner assigner;

    Setup(String nominal, String cohortSpare, FlavorFungibility fungibility, boolean noCandidates) {
      h = new KueueHarness(List.of("flavor-1", "flavor-2"), List.of(
          ClusterQueue.builder("cq").cohort("cohort").flavorFungibility(fungibility)
              .resourceGroup(FlavorQuotas.of("flavor-1", FlavorResourceQuota.of("cpu", nominal)),
                  FlavorQuotas.of("flavor-2", FlavorResourceQuota.of("cpu", nominal)))
              .build(),
          ClusterQueue.builder("sibling").cohort("cohort")
              .resourceGroup(FlavorQuotas.of("flavor-1", FlavorResourceQuota.of("cpu", cohortSpare)),
                  FlavorQuotas.of("flavor-2", FlavorResourceQuota.of("cpu", cohortSpare)))
              .build()), false);
      Map<String, ResourceFlavor> flavors = new LinkedHashMap<>();
      flavors.put("flavor-1",
          new ResourceFlavor("flavor-1", Map.of("flavor", "one")).withTopologyName("topology-1"));
      flavors.put("flavor-2",
          new ResourceFlavor("flavor-2", Map.of("flavor", "two")).withTopologyName("topology-2"));
      FlavorResources index = h.scheduler.index();
      placer = new TopologyPlacer(flavors, index);
      placer.topologies.put("topology-1", Topology.of("topology-1", HOST));
      placer.topologies.put("topology-2", Topology.of("topology-2", HOST));
      placer.nodes.put("node-1", node("node-1", "one"));
      placer.nodes.put("node-2", node("node-2", "two"));
      // Kueue's testOracle: the case's simulation result, else {Preempt, 0}
      assigner = new FlavorAssigner(index, flavors, false,
          (w, q, fr, v) -> new FlavorAssigner.Simulation(noCandidates ? Assignment.NO_CANDIDATES : Assignment.PREEMPT,
              0),
          placer);
    }

    CqState cq() {
      return h.scheduler.queue("cq");
    }

    /** The flavor assigner's answer with its topology placed, as the scheduler nominates it. */
    Assignment assign(Workload wl, Collection<AdmittedWorkload> others) {
      return placer.place(wl, cq(), assigner.assign(wl, cq(), null), others);
    }

    /** Upstream's {@code nodeUsageOnFlavorOne}: a workload of the sibling queue using {@code cpu} on node-1. */
    AdmittedWorkload onNodeOne(String cpu) {
      Workload other = Workload.builder("default", "other").creationTime(KueueHarness.NOW)
          .podSet(PodSet.of("main", 1, ResourceList.builder().put("cpu", cpu).build())
              .withTopologyRequest(PodSetTopologyRequest.ofRequired(HOST)))
          .build();
      PodSetAssignment pa = new PodSetAssignment("main", 1, Map.of("cpu", "flavor-1"),
          ResourceList.builder().put("cpu", cpu).build())
          .withTopologyAssignment(new TopologyAssignment(List.of(HOST), List.of(TopologyAssignment.Domain.of(1,
              "node-1"))));
      QuotaReservation r = new QuotaReservation(other.key(), "sibling", List.of(pa), KueueHarness.NOW, false);
      return new AdmittedWorkload(other, h.scheduler.queue("sibling"), new int[0], new long[0], r, -1);
    }

    private static Node node(String name, String flavorLabel) {
      return Node.builder().name(name).label("flavor", flavorLabel).label(HOST, name)
          .allocatable(ResourceList.builder().put("cpu", "4").put("pods", "32").build()).ready().build();
    }
  }
}
