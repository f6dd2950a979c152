package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Topology-aware scheduling through the admission engine: a GPU gang in one rack, quota that fits while the topology
 * does not, capacity taken by earlier admissions and by pods the engine did not place, and the flavor rules for pod
 * sets with and without topology requests.
 */
final class TopologyAwareAdmissionTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final String BLOCK = "cloud.provider.com/topology-block";
  private static final String RACK = "cloud.provider.com/topology-rack";
  private static final String HOST = Topology.HOSTNAME_LABEL;
  private static final String GPU = "nvidia.com/gpu";
  private final ManualClock clock = new ManualClock(T0);

  /** Block b1 with racks r1 (hosts h1, h2) and r2 (h3, h4); every host has 4 GPUs. */
  private static List<Node> nodes() {
    List<Node> out = new ArrayList<>();
    String[][] hosts = {{"r1", "h1"}, {"r1", "h2"}, {"r2", "h3"}, {"r2", "h4"}};
    for (String[] h : hosts) {
      out.add(node(h[0], h[1], 4));
    }
    return out;
  }

  private static Node node(String rack, String host, int gpus) {
    return Node.builder().name(host).label(BLOCK, "b1").label(RACK, rack).label(HOST, host)
        .allocatable(ResourceList.builder().put(GPU, String.valueOf(gpus)).put("pods", "110").build()).ready()
        .build();
  }

  private AdmissionEngine.Builder builder(String gpuQuota) {
    return AdmissionEngine.builder().clock(clock)
        .topology(Topology.of("default", BLOCK, RACK, HOST))
        .resourceFlavor(ResourceFlavor.of("tas-gpu").withTopologyName("default"))
        .clusterQueue(ClusterQueue.builder("cq")
            .resourceGroup(FlavorQuotas.of("tas-gpu", FlavorResourceQuota.of(GPU, gpuQuota))).build())
        .localQueue(LocalQueue.of("team", "q", "cq"))
        .nodes(nodes());
  }

  private static Workload gang(String name, int pods, PodSetTopologyRequest request) {
    return Workload.builder("team", name).queueName("q").creationTime(T0)
        .podSet(PodSet.of("workers", pods, ResourceList.builder().put(GPU, "1").build()).withTopologyRequest(request))
        .build();
  }

  private static Set<String> racksOf(TopologyAssignment ta) {
    Set<String> racks = new HashSet<>();
    for (TopologyAssignment.Domain d : ta.domains()) {
      String host = d.values().get(0);
      racks.add(host.equals("h1") || host.equals("h2") ? "r1" : "r2");
    }
    return racks;
  }

  /**
   * kueue {@code pkg/scheduler/flavorassigner/flavorassigner_test.go} (commit ff69552e) TestAssignFlavors "multiple TAS
   * flavors assigned to different resources in the same PodSet leads to NoFit": CPU from tas-a's group, memory from
   * tas-b's, each flavor with a topology of its own; TAS places a pod set in one flavor only, so the workload does not
   * fit, with Kueue's {@code MultipleTASFlavorsAssignedError} text, and nothing is admitted.
   */
  @Test
  void schedule_podSetWithResourcesInTwoTasFlavors_doesNotFit() {
    AdmissionEngine e = AdmissionEngine.builder().clock(clock)
        .topology(Topology.of("tas-topo-a", HOST)).topology(Topology.of("tas-topo-b", HOST))
        .resourceFlavor(ResourceFlavor.of("tas-a").withTopologyName("tas-topo-a"))
        .resourceFlavor(ResourceFlavor.of("tas-b").withTopologyName("tas-topo-b"))
        .clusterQueue(ClusterQueue.builder("test-clusterqueue")
            .resourceGroup(FlavorQuotas.of("tas-a", FlavorResourceQuota.of("cpu", "10")))
            .resourceGroup(FlavorQuotas.of("tas-b", FlavorResourceQuota.of("memory", "10Mi"))).build())
        .localQueue(LocalQueue.of("team", "q", "test-clusterqueue"))
        .nodes(List.of(Node.builder().name("h1").label(HOST, "h1")
            .allocatable(ResourceList.builder().put("cpu", "10").put("memory", "10Mi").put("pods", "110").build())
            .ready().build()))
        .build();
    e.submit(Workload.builder("team", "wl").queueName("q").creationTime(T0)
        .podSet(PodSet.of("main", 1, ResourceList.builder().put("cpu", "1").put("memory", "1Mi").build())
            .withTopologyRequest(PodSetTopologyRequest.ofRequired(HOST)))
        .build());

    CycleResult r = e.schedule();

    assertThat(r.admitted()).isEmpty();
    assertThat(r.pending().get("team/wl")).contains("more than one TAS flavor assigned: tas-a, tas-b");
    assertThat(e.admittedCount()).isZero();
  }

  @Test
  void schedule_gangRequiringOneRack_isAdmittedWithAllPodsInOneRack() {
    AdmissionEngine e = builder("100").build();
    e.submit(gang("train", 6, PodSetTopologyRequest.ofRequired(RACK)));

    CycleResult r = e.schedule();

    assertThat(r.admitted()).hasSize(1);
    TopologyAssignment ta = r.admitted().get(0).podSets().get(0).topologyAssignment();
    assertThat(ta).isNotNull();
    assertThat(ta.levels()).containsExactly(HOST);
    assertThat(ta.podCount()).isEqualTo(6);
    assertThat(racksOf(ta)).hasSize(1);
    // BestFit in r1 (both racks are alike, the first by name): 4 on h1 fill it, 2 on h2
    assertThat(ta.domains())
        .containsExactly(TopologyAssignment.Domain.of(4, "h1"), TopologyAssignment.Domain.of(2, "h2"));
    assertThat(e.admission("team/train").orElseThrow().podSets().get(0).topologyAssignment()).isEqualTo(ta);
  }

  @Test
  void schedule_quotaFitsButNoRackHoldsTheGang_waitsWithKueuesReason() {
    AdmissionEngine e = builder("100").build();
    e.submit(gang("train", 10, PodSetTopologyRequest.ofRequired(RACK)));

    CycleResult r = e.schedule();

    assertThat(r.admitted()).isEmpty();
    assertThat(r.pending()).containsEntry("team/train",
        "couldn't assign flavors to pod set workers: topology \"default\" allows to fit only 8 out of 10 pod(s)");
    assertThat(e.admittedCount()).isZero();
    assertThat(e.inadmissible("cq")).containsExactly("team/train");
  }

  @Test
  void schedule_preferredRackTooSmall_spreadsOverTheBlock() {
    AdmissionEngine e = builder("100").build();
    e.submit(gang("train", 10, PodSetTopologyRequest.ofPreferred(RACK)));

    CycleResult r = e.schedule();

    TopologyAssignment ta = r.admitted().get(0).podSets().get(0).topologyAssignment();
    assertThat(ta.podCount()).isEqualTo(10);
    assertThat(racksOf(ta)).containsExactlyInAnyOrder("r1", "r2");
  }

  /**
   * Preemption for the topology: 4 GPUs are free, 2 in each rack, so a gang of 4 that requires one rack fits its
   * quota but not the nodes; the lowest-priority gang whose removal makes a rack hold it is preempted (not the
   * mid-priority one), and the next cycle admits the gang in the rack it freed.
   */
  @Test
  void schedule_fragmentedRoom_preemptsTheLowestPriorityGangAndIsAdmittedInItsRack() {
    AdmissionEngine e = AdmissionEngine.builder().clock(clock)
        .topology(Topology.of("default", BLOCK, RACK, HOST))
        .resourceFlavor(ResourceFlavor.of("tas-gpu").withTopologyName("default"))
        .clusterQueue(ClusterQueue.builder("cq")
            .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.NEVER))
            .resourceGroup(FlavorQuotas.of("tas-gpu", FlavorResourceQuota.of(GPU, "100"))).build())
        .localQueue(LocalQueue.of("team", "q", "cq"))
        .nodes(nodes())
        .build();
    e.submit(gang("low", 6, PodSetTopologyRequest.ofRequired(RACK), 1));
    e.schedule();
    e.submit(gang("mid", 6, PodSetTopologyRequest.ofRequired(RACK), 5));
    e.schedule();
    assertThat(racksOf(e.admission("team/low").orElseThrow().podSets().get(0).topologyAssignment()))
        .containsExactly("r1");
    assertThat(racksOf(e.admission("team/mid").orElseThrow().podSets().get(0).topologyAssignment()))
        .containsExactly("r2");

    e.submit(gang("high", 4, PodSetTopologyRequest.ofRequired(RACK), 10));
    CycleResult preempting = e.schedule();

    assertThat(preempting.admitted()).isEmpty();
    assertThat(preempting.preempted()).extracting(Preemption::workload).containsExactly("team/low");
    assertThat(preempting.preempted().get(0).preemptor()).isEqualTo("team/high");
    assertThat(preempting.pending()).containsEntry("team/high", "couldn't assign flavors to pod set workers: "
        + "topology \"default\" allows to fit only 2 out of 4 pod(s). Total nodes: 4; excluded: resource "
        + "\"nvidia.com/gpu\": 2; pending the preemption of 1 workload(s)");

    CycleResult admitting = e.schedule();

    assertThat(admitting.admitted()).extracting(QuotaReservation::workload).containsExactly("team/high");
    TopologyAssignment high = admitting.admitted().get(0).podSets().get(0).topologyAssignment();
    assertThat(high.podCount()).isEqualTo(4);
    assertThat(racksOf(high)).containsExactly("r1");
    assertThat(e.admission("team/mid")).isPresent();
    assertThat(e.admission("team/low")).isEmpty();
  }

  private static Workload gang(String name, int pods, PodSetTopologyRequest request, int priority) {
    return Workload.builder("team", name).queueName("q").creationTime(T0).priority(priority)
        .podSet(PodSet.of("workers", pods, ResourceList.builder().put(GPU, "1").build()).withTopologyRequest(request))
        .build();
  }

  @Test
  void schedule_secondGang_goesWhereTheFirstLeftRoom() {
    AdmissionEngine e = builder("100").build();
    e.submit(gang("first", 6, PodSetTopologyRequest.ofRequired(RACK)));
    e.schedule();
    e.submit(gang("second", 6, PodSetTopologyRequest.ofRequired(RACK)));

    CycleResult r = e.schedule();

    TopologyAssignment first = e.admission("team/first").orElseThrow().podSets().get(0).topologyAssignment();
    TopologyAssignment second = r.admitted().get(0).podSets().get(0).topologyAssignment();
    assertThat(racksOf(first)).containsExactly("r1");
    assertThat(racksOf(second)).containsExactly("r2");

    // a third gang of 3 fits in neither rack (2 and 2 GPUs left), though the quota has room
    e.submit(gang("third", 3, PodSetTopologyRequest.ofRequired(RACK)));
    assertThat(e.schedule().pending().get("team/third"))
        .isEqualTo("couldn't assign flavors to pod set workers: topology \"default\" allows to fit only 2 out of 3 "
            + "pod(s)"
            + ". Total nodes: 4; excluded: resource \"nvidia.com/gpu\": 2");

    // when the first finishes, its rack is free again and the parked third is admitted
    e.delete("team/first");
    e.scheduleUntilIdle(5);
    assertThat(racksOf(e.admission("team/third").orElseThrow().podSets().get(0).topologyAssignment()))
        .containsExactly("r1");
  }

  @Test
  void schedule_twoQueuesInOneCycle_secondIsRecomputedAgainstTheFirstsNodes() {
    AdmissionEngine e = AdmissionEngine.builder().clock(clock)
        .topology(Topology.of("default", BLOCK, RACK, HOST))
        .resourceFlavor(ResourceFlavor.of("tas-gpu").withTopologyName("default"))
        .clusterQueue(ClusterQueue.builder("cq-a")
            .resourceGroup(FlavorQuotas.of("tas-gpu", FlavorResourceQuota.of(GPU, "100"))).build())
        .clusterQueue(ClusterQueue.builder("cq-b")
            .resourceGroup(FlavorQuotas.of("tas-gpu", FlavorResourceQuota.of(GPU, "100"))).build())
        .localQueue(LocalQueue.of("team", "a", "cq-a"))
        .localQueue(LocalQueue.of("team", "b", "cq-b"))
        .nodes(nodes())
        .build();
    e.submit(Workload.builder("team", "wa").queueName("a").creationTime(T0)
        .podSet(PodSet.of("workers", 12, ResourceList.builder().put(GPU, "1").build())
            .withTopologyRequest(PodSetTopologyRequest.ofPreferred(RACK))).build());
    e.submit(Workload.builder("team", "wb").queueName("b").creationTime(T0.plusSeconds(1))
        .podSet(PodSet.of("workers", 8, ResourceList.builder().put(GPU, "1").build())
            .withTopologyRequest(PodSetTopologyRequest.ofPreferred(RACK))).build());

    CycleResult r = e.schedule();

    // both were nominated against the empty cluster; the second is placed again after the first took 12 GPUs
    assertThat(r.admitted()).extracting(QuotaReservation::workload).containsExactly("team/wa");
    assertThat(r.pending().get("team/wb"))
        .isEqualTo("couldn't assign flavors to pod set workers: topology \"default\" allows to fit only 4 out of 8 "
            + "pod(s)"
            + ". Total nodes: 4; excluded: resource \"nvidia.com/gpu\": 3");
  }

  @Test
  void schedule_nodeUsageOfOtherPods_leavesLessRoom_andNewNodeMakesRoom() {
    AdmissionEngine e = builder("100").build();
    e.setNodeUsage("h1", ResourceList.builder().put(GPU, "3").put("pods", "3").build());
    e.setNodeUsage("h3", ResourceList.builder().put(GPU, "3").put("pods", "3").build());
    e.submit(gang("train", 6, PodSetTopologyRequest.ofRequired(RACK)));

    assertThat(e.schedule().pending().get("team/train"))
        .isEqualTo("couldn't assign flavors to pod set workers: topology \"default\" allows to fit only 5 out of 6 "
            + "pod(s)");

    // a new node in r2 gives it 9 free GPUs: BestFit fills h4 and puts the last 2 on h5, the tightest that holds them
    e.putNode(node("r2", "h5", 4));
    e.scheduleUntilIdle(5);
    TopologyAssignment ta = e.admission("team/train").orElseThrow().podSets().get(0).topologyAssignment();
    assertThat(ta.domains())
        .containsExactly(TopologyAssignment.Domain.of(4, "h4"), TopologyAssignment.Domain.of(2, "h5"));
  }

  @Test
  void schedule_podSetWithoutRequestInTasOnlyQueue_isPlacedUnconstrained() {
    AdmissionEngine e = builder("100").build();
    e.submit(Workload.builder("team", "plain").queueName("q").creationTime(T0)
        .podSet(PodSet.of("main", 3, ResourceList.builder().put(GPU, "2").build())).build());

    CycleResult r = e.schedule();

    TopologyAssignment ta = r.admitted().get(0).podSets().get(0).topologyAssignment();
    assertThat(ta).isNotNull();
    assertThat(ta.podCount()).isEqualTo(3);
  }

  @Test
  void schedule_flavorRulesForTopology_skipFlavorsThatDoNotMatch() {
    AdmissionEngine e = AdmissionEngine.builder().clock(clock)
        .topology(Topology.of("default", BLOCK, RACK, HOST))
        .resourceFlavor(ResourceFlavor.of("plain"))
        .resourceFlavor(ResourceFlavor.of("tas-gpu").withTopologyName("default"))
        .clusterQueue(ClusterQueue.builder("cq").resourceGroup(ResourceGroup.of(
            FlavorQuotas.of("plain", FlavorResourceQuota.of(GPU, "100")),
            FlavorQuotas.of("tas-gpu", FlavorResourceQuota.of(GPU, "100")))).build())
        .localQueue(LocalQueue.of("team", "q", "cq"))
        .nodes(nodes())
        .build();
    e.submit(gang("tas", 2, PodSetTopologyRequest.ofRequired(RACK)));
    e.submit(Workload.builder("team", "plain").queueName("q").creationTime(T0.plusSeconds(1))
        .podSet(PodSet.of("main", 1, ResourceList.builder().put(GPU, "1").build())).build());
    e.submit(gang("zone", 1, PodSetTopologyRequest.ofRequired("cloud.provider.com/zone")));

    e.scheduleUntilIdle(5);

    PodSetAssignment tas = e.admission("team/tas").orElseThrow().podSets().get(0);
    assertThat(tas.flavors()).containsEntry(GPU, "tas-gpu");
    assertThat(tas.topologyAssignment()).isNotNull();
    PodSetAssignment plain = e.admission("team/plain").orElseThrow().podSets().get(0);
    assertThat(plain.flavors()).containsEntry(GPU, "plain");
    assertThat(plain.topologyAssignment()).isNull();
    assertThat(e.admission("team/zone")).isEmpty();
  }

  @Test
  void schedule_levelMissingFromEveryFlavor_waitsWithKueuesReasons() {
    AdmissionEngine e = AdmissionEngine.builder().clock(clock)
        .topology(Topology.of("default", BLOCK, RACK, HOST))
        .resourceFlavor(ResourceFlavor.of("plain"))
        .resourceFlavor(ResourceFlavor.of("tas-gpu").withTopologyName("default"))
        .clusterQueue(ClusterQueue.builder("cq").resourceGroup(ResourceGroup.of(
            FlavorQuotas.of("plain", FlavorResourceQuota.of(GPU, "100")),
            FlavorQuotas.of("tas-gpu", FlavorResourceQuota.of(GPU, "100")))).build())
        .localQueue(LocalQueue.of("team", "q", "cq"))
        .nodes(nodes())
        .build();
    e.submit(gang("zone", 1, PodSetTopologyRequest.ofRequired("cloud.provider.com/zone")));

    assertThat(e.schedule().pending().get("team/zone")).isEqualTo("couldn't assign flavors to pod set workers: "
        + "Flavor \"plain\" does not support TopologyAwareScheduling, "
        + "Flavor \"tas-gpu\" does not contain the requested level");
  }

  /** Kueue's overlap rule: a flavor without a topology may serve a group of resources the pods do not request. */
  @Test
  void schedule_podsQuotaInAFlavorWithoutTopology_stillServesATopologyRequest() {
    AdmissionEngine e = AdmissionEngine.builder().clock(clock)
        .topology(Topology.of("default", BLOCK, RACK, HOST))
        .resourceFlavor(ResourceFlavor.of("tas-gpu").withTopologyName("default"))
        .resourceFlavor(ResourceFlavor.of("counted"))
        .clusterQueue(ClusterQueue.builder("cq")
            .resourceGroup(FlavorQuotas.of("tas-gpu", FlavorResourceQuota.of(GPU, "100")))
            .resourceGroup(FlavorQuotas.of("counted", FlavorResourceQuota.of("pods", "10"))).build())
        .localQueue(LocalQueue.of("team", "q", "cq"))
        .nodes(nodes())
        .build();
    e.submit(gang("train", 4, PodSetTopologyRequest.ofRequired(RACK)));

    PodSetAssignment a = e.schedule().admitted().get(0).podSets().get(0);

    assertThat(a.flavors()).containsEntry(GPU, "tas-gpu").containsEntry("pods", "counted");
    assertThat(a.topologyAssignment().podCount()).isEqualTo(4);
  }

  @Test
  void builder_topologyAddedTwice_isRefusedNamingTheFirst() {
    assertThatThrownBy(() -> AdmissionEngine.builder().topology(Topology.of("default", RACK))
        .topology(Topology.of("default", BLOCK)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("admission engine: topology default already added with levels [" + RACK + "]");
  }
}
