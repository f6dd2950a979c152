package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Node replacement through the engine (Kueue's node failure controller and second pass): which node events record an
 * unhealthy node and when (removal, a missing Ready condition, NotReady past the delay), when the record is cleared
 * (Ready again, replacement, eviction, deletion), a second failed node, {@code failFast} on and off, and the checks of
 * the restore call and the builder.
 *
 * <p>The cluster: rack r1 with hosts h1, h2, h5 of 2 GPUs each, rack r2 with h3, h4 of 4; a gang of 4 pods of one GPU
 * with a required rack goes to r1 (the tightest rack that holds it), on h1 and h2.
 */
final class NodeReplacementTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final String RACK = "cloud.provider.com/topology-rack";
  private static final String HOST = Topology.HOSTNAME_LABEL;
  private static final String GPU = "nvidia.com/gpu";
  private static final String GANG = "team/train";
  private final ManualClock clock = new ManualClock(T0);

  private static Node.Builder host(String rack, String name, int gpus) {
    return Node.builder().name(name).label(RACK, rack).label(HOST, name)
        .allocatable(ResourceList.builder().put(GPU, String.valueOf(gpus)).put("pods", "110").build());
  }

  private static List<Node> nodes() {
    List<Node> out = new ArrayList<>();
    out.add(host("r1", "h1", 2).ready().build());
    out.add(host("r1", "h2", 2).ready().build());
    out.add(host("r1", "h5", 2).ready().build());
    out.add(host("r2", "h3", 4).ready().build());
    out.add(host("r2", "h4", 4).ready().build());
    return out;
  }

  private AdmissionEngine.Builder builder() {
    return AdmissionEngine.builder().clock(clock)
        .topology(Topology.of("default", RACK, HOST))
        .resourceFlavor(ResourceFlavor.of("tas-gpu").withTopologyName("default"))
        .clusterQueue(ClusterQueue.builder("cq")
            .resourceGroup(FlavorQuotas.of("tas-gpu", FlavorResourceQuota.of(GPU, "16"))).build())
        .localQueue(LocalQueue.of("team", "q", "cq"))
        .nodes(nodes());
  }

  /** An engine with the gang admitted on h1 and h2. */
  private AdmissionEngine admitted(AdmissionEngine.Builder b) {
    AdmissionEngine e = b.build();
    e.submit(Workload.builder("team", "train").queueName("q").creationTime(T0)
        .podSet(PodSet.of("workers", 4, ResourceList.builder().put(GPU, "1").build())
            .withTopologyRequest(PodSetTopologyRequest.ofRequired(RACK)))
        .build());
    e.schedule();
    assertThat(assignment(e)).isEqualTo(hosts("h1", 2, "h2", 2));
    return e;
  }

  private static TopologyAssignment assignment(AdmissionEngine e) {
    return e.admission(GANG).orElseThrow().podSets().get(0).topologyAssignment();
  }

  private static TopologyAssignment hosts(Object... hostAndCount) {
    List<TopologyAssignment.Domain> ds = new ArrayList<>();
    for (int i = 0; i < hostAndCount.length; i += 2) {
      ds.add(TopologyAssignment.Domain.of((Integer) hostAndCount[i + 1], (String) hostAndCount[i]));
    }
    return new TopologyAssignment(List.of(HOST), ds);
  }

  private static Node notReady(String rack, String name, int gpus, Instant since) {
    return host(rack, name, gpus)
        .condition(new NodeCondition(NodeCondition.READY, ConditionStatus.False, "KubeletNotReady", "", since, since))
        .build();
  }

  /** Fills h5, so that r1 has no room for a replacement. */
  private static void fillH5(AdmissionEngine e) {
    e.setNodeUsage("h5", ResourceList.builder().put(GPU, "2").put("pods", "2").build());
  }

  @Test
  void removeNode_recordsIt_andTheNextCycleMovesItsPodsWithinTheRequiredRack() {
    AdmissionEngine e = admitted(builder());
    Quantity used = e.usage("cq", "tas-gpu", GPU);

    e.removeNode("h1");
    assertThat(e.unhealthyNodes(GANG)).containsExactly("h1");
    CycleResult r = e.schedule();

    assertThat(r.nodeReplacements()).singleElement().satisfies(x -> {
      assertThat(x.kind()).isEqualTo(NodeReplacement.Kind.REPLACED);
      assertThat(x.unhealthyNodes()).containsExactly("h1");
      assertThat(x.reservation().podSets().get(0).topologyAssignment()).isEqualTo(hosts("h2", 2, "h5", 2));
    });
    assertThat(r.admitted()).isEmpty();
    assertThat(r.progressed()).isTrue();
    assertThat(assignment(e)).isEqualTo(hosts("h2", 2, "h5", 2));
    assertThat(e.unhealthyNodes(GANG)).isEmpty();
    assertThat(e.usage("cq", "tas-gpu", GPU)).isEqualTo(used);
    assertThat(e.schedule().nodeReplacements()).isEmpty();
  }

  @Test
  void notReadyNode_isRecordedOnlyOnceTheDelayRanOut() {
    AdmissionEngine e = admitted(builder().nodeFailureDelay(Duration.ofSeconds(30)));

    e.putNode(notReady("r1", "h1", 2, T0));
    assertThat(e.unhealthyNodes(GANG)).isEmpty();
    clock.advance(Duration.ofSeconds(29));
    assertThat(e.schedule().nodeReplacements()).isEmpty();
    assertThat(assignment(e)).isEqualTo(hosts("h1", 2, "h2", 2));

    clock.advance(Duration.ofSeconds(1));
    CycleResult r = e.schedule();

    assertThat(r.nodeReplacements()).extracting(NodeReplacement::kind).containsExactly(NodeReplacement.Kind.REPLACED);
    assertThat(assignment(e)).isEqualTo(hosts("h2", 2, "h5", 2));
  }

  @Test
  void notReadyNode_sinceLongerThanTheDelay_orWithoutReadyCondition_isRecordedAtOnce() {
    AdmissionEngine e = admitted(builder());
    clock.advance(Duration.ofMinutes(5));

    e.putNode(notReady("r1", "h1", 2, T0));
    assertThat(e.unhealthyNodes(GANG)).containsExactly("h1");

    AdmissionEngine e2 = admitted(builder().failedNodeReplacementFailFast(false));
    e2.putNode(host("r1", "h2", 2).build());
    assertThat(e2.unhealthyNodes(GANG)).containsExactly("h2");
  }

  @Test
  void readyAgain_takesTheNodeOffTheRecord() {
    AdmissionEngine e = admitted(builder().failedNodeReplacementFailFast(false));
    fillH5(e);
    e.putNode(notReady("r1", "h1", 2, T0.minusSeconds(60)));

    CycleResult failed = e.schedule();
    assertThat(failed.nodeReplacements()).singleElement().satisfies(x -> {
      assertThat(x.kind()).isEqualTo(NodeReplacement.Kind.FAILED);
      assertThat(x.message()).startsWith("couldn't assign flavors to pod set workers: topology \"default\" doesn't "
          + "allow to fit any of 2 pod(s)");
      assertThat(x.reservation().podSets().get(0).topologyAssignment()).isEqualTo(hosts("h1", 2, "h2", 2));
    });
    assertThat(failed.progressed()).isFalse();
    assertThat(e.unhealthyNodes(GANG)).containsExactly("h1");

    e.putNode(host("r1", "h1", 2).ready().build());

    assertThat(e.unhealthyNodes(GANG)).isEmpty();
    assertThat(e.schedule().nodeReplacements()).isEmpty();
    assertThat(assignment(e)).isEqualTo(hosts("h1", 2, "h2", 2));
  }

  @Test
  void failedReplacementWithoutFailFast_isNoProgress_soScheduleUntilIdleStops() {
    AdmissionEngine e = admitted(builder().failedNodeReplacementFailFast(false));
    fillH5(e);
    e.removeNode("h1");

    assertThat(e.scheduleUntilIdle(10)).isEmpty();
    assertThat(e.unhealthyNodes(GANG)).containsExactly("h1");
    assertThat(e.isAdmitted(GANG)).isTrue();
  }

  @Test
  void noReplacementWithFailFast_evictsAtTheEndOfTheCycle_andTheWorkloadIsAdmittedAfresh() {
    AdmissionEngine e = admitted(builder());
    fillH5(e);
    e.removeNode("h1");

    CycleResult r = e.schedule();

    assertThat(r.nodeReplacements()).singleElement().satisfies(x -> {
      assertThat(x.kind()).isEqualTo(NodeReplacement.Kind.EVICTED);
      assertThat(x.message()).isEqualTo("Workload was evicted as there was no replacement for unhealthy node(s): h1");
    });
    assertThat(r.admitted()).isEmpty();
    assertThat(e.admission(GANG)).isEmpty();
    assertThat(e.unhealthyNodes(GANG)).isEmpty();
    assertThat(e.pending("cq")).containsExactly(GANG);

    CycleResult next = e.schedule();
    assertThat(next.admitted()).extracting(QuotaReservation::workload).containsExactly(GANG);
    assertThat(assignment(e)).isEqualTo(hosts("h3", 4));
  }

  @Test
  void secondFailedNode_evictsTheWorkloadAtOnce_reportedByTheNextCycle() {
    AdmissionEngine e = admitted(builder().failedNodeReplacementFailFast(false));
    fillH5(e);
    e.removeNode("h1");
    e.removeNode("h2");

    assertThat(e.admission(GANG)).isEmpty();
    assertThat(e.unhealthyNodes(GANG)).isEmpty();
    CycleResult r = e.schedule();

    assertThat(r.nodeReplacements()).singleElement().satisfies(x -> {
      assertThat(x.kind()).isEqualTo(NodeReplacement.Kind.EVICTED);
      assertThat(x.unhealthyNodes()).containsExactly("h1", "h2");
      assertThat(x.message())
          .isEqualTo("Workload eviction triggered due to multiple TAS assigned node failures, including: h1, h2");
    });
    assertThat(r.admitted()).extracting(QuotaReservation::workload).containsExactly(GANG);
    assertThat(assignment(e)).isEqualTo(hosts("h3", 4));
  }

  /**
   * As Kueue's cycle snapshot: the replaced node (here Ready, the record restored) still counts its pods until the
   * cycle ends, and the replacement's nodes are taken, so a later head of the cycle takes neither; without the hold it
   * would take h1, the tightest room of r1.
   */
  @Test
  void replacement_holdsTheOldAndTheNewNodesForTheRestOfTheCycle() {
    AdmissionEngine e = admitted(builder());
    e.assumeUnhealthyNodes(GANG, List.of("h1"));
    e.submit(Workload.builder("team", "late").queueName("q").creationTime(T0)
        .podSet(PodSet.of("one", 2, ResourceList.builder().put(GPU, "1").build())
            .withTopologyRequest(PodSetTopologyRequest.ofRequired(RACK)))
        .build());

    CycleResult r = e.schedule();

    assertThat(r.nodeReplacements()).extracting(NodeReplacement::kind).containsExactly(NodeReplacement.Kind.REPLACED);
    assertThat(assignment(e)).isEqualTo(hosts("h2", 2, "h5", 2));
    assertThat(r.admitted()).singleElement().satisfies(q ->
        assertThat(q.podSets().get(0).topologyAssignment()).isEqualTo(hosts("h3", 2)));
  }

  @Test
  void eviction_andDeletion_clearTheRecord() {
    AdmissionEngine e = admitted(builder().failedNodeReplacementFailFast(false));
    fillH5(e);
    e.removeNode("h1");
    assertThat(e.unhealthyNodes(GANG)).containsExactly("h1");

    assertThat(e.delete(GANG)).isTrue();

    assertThat(e.unhealthyNodes(GANG)).isEmpty();
    assertThat(e.schedule().nodeReplacements()).isEmpty();
  }

  @Test
  void removeNode_ofAWorkloadWithoutTopologyAssignment_recordsNothing() {
    AdmissionEngine e = admitted(builder());
    e.removeNode("h3");

    assertThat(e.unhealthyNodes(GANG)).isEmpty();
    assertThat(e.schedule().nodeReplacements()).isEmpty();
  }

  @Test
  void assumeUnhealthyNodes_restoresTheRecord_andRefusesBadInput() {
    AdmissionEngine e = admitted(builder());

    e.assumeUnhealthyNodes(GANG, List.of("h1"));
    assertThat(e.unhealthyNodes(GANG)).containsExactly("h1");
    e.assumeUnhealthyNodes(GANG, List.of());
    assertThat(e.unhealthyNodes(GANG)).isEmpty();

    assertThatThrownBy(() -> e.assumeUnhealthyNodes("team/none", List.of("h1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Workload team/none: status.unhealthyNodes can only be set on a workload with quota reserved");
    assertThatThrownBy(() -> e.assumeUnhealthyNodes(GANG, List.of("h1", "h1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Workload team/train: status.unhealthyNodes[1].name \"h1\" must be a non-empty name, unique in "
            + "the list");
  }

  @Test
  void builder_refusesANegativeDelay_andSettingsMadeTwice() {
    assertThatThrownBy(() -> AdmissionEngine.builder().nodeFailureDelay(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("admission engine: nodeFailureDelay PT-1S must not be negative");
    assertThatThrownBy(() -> AdmissionEngine.builder().nodeFailureDelay(Duration.ZERO)
        .nodeFailureDelay(Duration.ofSeconds(5)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("admission engine: nodeFailureDelay was already set to PT0S");
    assertThatThrownBy(() -> AdmissionEngine.builder().failedNodeReplacementFailFast(false)
        .failedNodeReplacementFailFast(true))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("admission engine: failedNodeReplacementFailFast was already set to false");
  }

  // ---- the pod and taint triggers -----------------------------------------------------------------------------------

  @Test
  void setProgressingPods_podsStoppedOnANotReadyNode_recordsItBeforeTheDelay_andTheCycleMovesThem() {
    AdmissionEngine e = admitted(builder());
    e.putNode(notReady("r1", "h1", 2, clock.instant()));
    assertThat(e.unhealthyNodes(GANG)).as("its pods there still progress").isEmpty();

    e.setProgressingPods(GANG, "h1", 1);
    assertThat(e.unhealthyNodes(GANG)).isEmpty();
    e.setProgressingPods(GANG, "h1", 0);
    assertThat(e.unhealthyNodes(GANG)).containsExactly("h1");

    assertThat(e.schedule().nodeReplacements()).singleElement()
        .satisfies(x -> assertThat(x.kind()).isEqualTo(NodeReplacement.Kind.REPLACED));
    assertThat(assignment(e)).isEqualTo(hosts("h2", 2, "h5", 2));
  }

  @Test
  void setProgressingPods_withoutThePodTrigger_waitsForTheDelay() {
    AdmissionEngine e = admitted(builder().replaceNodeOnPodTermination(false));
    e.putNode(notReady("r1", "h1", 2, clock.instant()));
    e.setProgressingPods(GANG, "h1", 0);
    assertThat(e.unhealthyNodes(GANG)).isEmpty();
    clock.advance(e.nodeFailureDelay());
    assertThat(e.nodeFailuresDue()).isTrue();
  }

  @Test
  void setProgressingPods_badInput_isRefusedOrIgnored() {
    AdmissionEngine e = admitted(builder());
    assertThatThrownBy(() -> e.setProgressingPods(GANG, "h1", -1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Workload team/train: progressing pods on node h1: -1 must not be negative");
    assertThat(e.setProgressingPods("team/unknown", "h1", 0)).as("no quota: nothing recorded").isFalse();
  }

  @Test
  void putNode_untoleratedTaint_recordsItOnceThePodsStopped_andItsRemovalClearsTheRecord() {
    AdmissionEngine e = admitted(builder());
    Node tainted = host("r1", "h1", 2).ready().taint(io.fleetkit.api.scheduling.Taint.of("maintenance", "",
        io.fleetkit.api.scheduling.TaintEffect.NoSchedule)).build();
    e.putNode(tainted);
    assertThat(e.unhealthyNodes(GANG)).as("pods still running there").isEmpty();
    e.setProgressingPods(GANG, "h1", 0);
    assertThat(e.unhealthyNodes(GANG)).containsExactly("h1");

    e.putNode(host("r1", "h1", 2).ready().build());
    assertThat(e.unhealthyNodes(GANG)).as("the taint is gone: healthy again").isEmpty();
  }
}
