package io.fleetkit.queueing;

import static io.fleetkit.queueing.KueueScheduleForTasPortTest.BLOCK;
import static io.fleetkit.queueing.KueueScheduleForTasPortTest.HOST;
import static io.fleetkit.queueing.KueueScheduleForTasPortTest.RACK;
import static io.fleetkit.queueing.KueueScheduleForTasPortTest.adm;
import static io.fleetkit.queueing.KueueScheduleForTasPortTest.cq;
import static io.fleetkit.queueing.KueueScheduleForTasPortTest.d;
import static io.fleetkit.queueing.KueueScheduleForTasPortTest.defaultNodes;
import static io.fleetkit.queueing.KueueScheduleForTasPortTest.flavor;
import static io.fleetkit.queueing.KueueScheduleForTasPortTest.fq;
import static io.fleetkit.queueing.KueueScheduleForTasPortTest.n;
import static io.fleetkit.queueing.KueueScheduleForTasPortTest.ps;
import static io.fleetkit.queueing.KueueScheduleForTasPortTest.psa;
import static io.fleetkit.queueing.KueueScheduleForTasPortTest.wl;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.queueing.KueueScheduleForTasPortTest.Case;
import io.fleetkit.queueing.KueueScheduleForTasPortTest.WL;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Port of the node replacement cases (Kueue's second scheduling pass for workloads with {@code status.unhealthyNodes})
 * of kubernetes-sigs/kueue {@code pkg/scheduler/scheduler_tas_test.go} {@code TestScheduleForTAS} (commit
 * ff69552e79ad21652c36caa97038382e55625cf7), through the {@link AdmissionEngine}: the case is set up as in {@link
 * KueueScheduleForTasPortTest}, the admitted workloads' unhealthy nodes restored with {@link
 * AdmissionEngine#assumeUnhealthyNodes}, and one cycle run (with {@code failedNodeReplacementFailFast} as the case's
 * {@code TASFailedNodeReplacementFailFast}, on unless the case turns it off).
 *
 * <p>Checked: upstream's new admissions of the pending workloads; for a workload with an unhealthy node its {@link
 * NodeReplacement}: replaced with upstream's new topology assignment (and its record cleared), or, where upstream
 * keeps the old assignment, not replaced with the message of upstream's {@code SecondPassFailed} event (FailFast off;
 * the record kept), or evicted with the message of upstream's {@code EvictedDueToNodeFailures} event (FailFast on; the
 * workload is queued again). Upstream's {@code wantNewAssignments} lists the unchanged assignment of a workload it
 * evicts (its cache still holds it when the cycle ends); FleetKit releases the quota at the end of the cycle, so the
 * evicted workload's {@link NodeReplacement#reservation()} carries it.
 *
 * <p>Differences: upstream's admissions of "required rack; fit" and "required rack; no fit" count 1 pod (the default
 * of {@code MakePodSetAssignment}) with the usage of 1 pod for a pod set of 2 whose topology assignment places 2; the
 * engine restores and reports them as the 2 pods they place and use (a count below the pod set's, without a {@code
 * minCount}, is refused by {@code assumeAdmitted}). In "podspec constraints apply" upstream's admission assigns a
 * flavor to cpu only although the pods request memory, which the ClusterQueue covers; the engine restores (and keeps)
 * the memory in the flavor too ({@code assumeAdmitted} refuses a requested resource without one).
 */
final class KueueTasNodeReplacementPortTest {
  private static final String TAS_MAIN = "tas-main";

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void secondPass_upstreamCase_givesUpstreamReplacement(Replacing rc) {
    Case c = rc.base;
    AdmissionEngine engine = KueueScheduleForTasPortTest.engineFor(c,
        b -> b.failedNodeReplacementFailFast(rc.failFast));
    rc.unhealthy.forEach(engine::assumeUnhealthyNodes);
    Map<String, QuotaReservation> before = new TreeMap<>();
    rc.unhealthy.keySet().forEach(k -> before.put(k, engine.admission(k).orElseThrow()));

    CycleResult r = engine.schedule();

    Map<String, QuotaReservation> admitted = new TreeMap<>();
    r.admitted().forEach(q -> admitted.put(q.workload(), q));
    Map<String, NodeReplacement> replaced = new TreeMap<>();
    r.nodeReplacements().forEach(x -> replaced.put(x.workload(), x));
    assertThat(replaced.keySet()).as("node replacements").containsExactlyInAnyOrderElementsOf(rc.unhealthy.keySet());
    assertThat(admitted.keySet()).as("new admissions").containsExactlyInAnyOrderElementsOf(
        c.wantAdmissions.keySet().stream().filter(k -> !rc.unhealthy.containsKey(k)).toList());
    c.wantAdmissions.forEach((key, want) -> {
      QuotaReservation q = admitted.containsKey(key) ? admitted.get(key) : replaced.get(key).reservation();
      KueueScheduleForTasPortTest.assertReservation(key, q, want);
    });
    rc.unhealthy.forEach((key, nodes) -> {
      NodeReplacement x = replaced.get(key);
      assertThat(x.unhealthyNodes()).as("%s unhealthy nodes", key).isEqualTo(nodes);
      assertThat(x.clusterQueue()).isEqualTo(TAS_MAIN);
      String failed = rc.wantFailed.get(key);
      String evicted = rc.wantEvicted.get(key);
      if (failed != null) {
        assertThat(x.kind()).as("%s", key).isEqualTo(NodeReplacement.Kind.FAILED);
        assertThat(x.message()).isEqualTo(failed);
        assertThat(engine.admission(key)).contains(before.get(key));
        assertThat(engine.unhealthyNodes(key)).isEqualTo(nodes);
      } else if (evicted != null) {
        assertThat(x.kind()).as("%s", key).isEqualTo(NodeReplacement.Kind.EVICTED);
        assertThat(x.message()).isEqualTo(evicted);
        assertThat(x.reservation()).isEqualTo(before.get(key));
        assertThat(engine.admission(key)).isEmpty();
        assertThat(engine.unhealthyNodes(key)).isEmpty();
        assertThat(engine.pending(TAS_MAIN)).contains(key);
      } else {
        assertThat(x.kind()).as("%s", key).isEqualTo(NodeReplacement.Kind.REPLACED);
        assertThat(x.message()).isEmpty();
        assertThat(engine.admission(key)).contains(x.reservation());
        assertThat(engine.unhealthyNodes(key)).isEmpty();
      }
    });
    assertThat(r.progressed()).isEqualTo(!admitted.isEmpty() || rc.wantFailed.isEmpty());
  }

  /**
   * kueue {@code scheduler_tas_test.go} {@code TestSecondPassSkipsWaitForPodsReadyBlock} "failed node replacement"
   * (commit ff69552e): an admitted workload (its provisioning check Ready) with {@code unhealthyNodes: [x1]}, whose
   * pods are not ready, under {@code waitForPodsReady} with {@code blockAdmission}: the block that holds the heads back
   * while a workload is not ready must not stop its own second pass. The workload stays admitted, keeps its quota, and
   * its topology assignment moves off x1 (to x2, although x1 is still Ready: the record decides).
   */
  @org.junit.jupiter.api.Test
  void secondPass_goesOnWhileWaitForPodsReadyBlocksAdmission() {
    java.time.Instant now = java.time.Instant.parse("2026-01-01T00:00:00Z");
    io.fleetkit.api.time.ManualClock clock = new io.fleetkit.api.time.ManualClock(now);
    java.util.function.Function<String, io.fleetkit.api.core.Node> node = name -> io.fleetkit.api.core.Node.builder()
        .name(name).label("tas-node", "true").label(HOST, name)
        .allocatable(io.fleetkit.api.resource.ResourceList.builder().put("cpu", "1").put("pods", "10").build())
        .ready().build();
    AdmissionEngine engine = AdmissionEngine.builder().clock(clock)
        .topology(Topology.of("tas-single-level", HOST))
        .resourceFlavor(new ResourceFlavor("tas-default", Map.of("tas-node", "true")).withTopologyName(
            "tas-single-level"))
        .admissionCheck(AdmissionCheck.of("prov-check", "kueue.x-k8s.io/provisioning-request"))
        .clusterQueue(ClusterQueue.builder(TAS_MAIN)
            .resourceGroup(FlavorQuotas.of("tas-default", FlavorResourceQuota.of("cpu", "50")))
            .admissionChecks("prov-check").build())
        .localQueue(LocalQueue.of("default", TAS_MAIN, TAS_MAIN))
        .waitForPodsReady(WaitForPodsReady.builder().blockAdmission(true).backoffJitter(0).build())
        .nodes(List.of(node.apply("x1"), node.apply("x2")))
        .build();
    Workload wl = Workload.builder("default", "wl").queueName(TAS_MAIN).creationTime(now)
        .podSet(PodSet.of("one", 1, io.fleetkit.api.resource.ResourceList.builder().put("cpu", "1").build())
            .withTopologyRequest(PodSetTopologyRequest.ofRequired(HOST)))
        .build();
    engine.assumeAdmitted(wl, TAS_MAIN, Map.of("cpu", "tas-default"), Map.of(),
        Map.of("one", new TopologyAssignment(List.of(HOST), List.of(TopologyAssignment.Domain.of(1, "x1")))), now);
    engine.assumeUnhealthyNodes("default/wl", List.of("x1"));
    assertThat(engine.isAdmitted("default/wl")).isTrue();
    clock.advance(java.time.Duration.ofSeconds(1));

    CycleResult r = engine.schedule();

    assertThat(r.nodeReplacements()).singleElement().satisfies(x -> {
      assertThat(x.kind()).isEqualTo(NodeReplacement.Kind.REPLACED);
      assertThat(x.unhealthyNodes()).containsExactly("x1");
    });
    assertThat(engine.isAdmitted("default/wl")).as("the admission block kept the running workload admitted").isTrue();
    TopologyAssignment ta = engine.admission("default/wl").orElseThrow().podSets().get(0).topologyAssignment();
    assertThat(ta).isNotNull();
    assertThat(ta.domains()).extracting(dm -> dm.values().get(0)).containsExactly("x2");
    assertThat(engine.usage(TAS_MAIN, "tas-default", "cpu").milliValue()).isEqualTo(1000);
    assertThat(engine.unhealthyNodes("default/wl")).isEmpty();
  }

  private static final String EVICTED_X0 = "Workload was evicted as there was no replacement for unhealthy node(s): x0";

  static Stream<Replacing> cases() {
    return Stream.of(
    new Replacing(new Case("second pass replacement must not take a domain claimed by another workload in the same "
        + "cycle")
        .nodes(List.of(
            n("x1").l("tas-node", "true").l(HOST, "x1").alloc("cpu", "1", "pods", "10").ready(),
            n("x2").l("tas-node", "true").l(HOST, "x2").alloc("cpu", "1", "pods", "10").ready(),
            n("x3").l("tas-node", "true").l(HOST, "x3").alloc("cpu", "1", "pods", "10").ready()))
        .topologies(Topology.of("tas-single-level", HOST))
        .flavors(flavor("tas-default").nodeLabel("tas-node", "true").topology("tas-single-level"))
        .clusterQueues(mainQueue())
        .workload(wl("replaced").podSet(ps("one", 1).required(HOST).req("cpu", "1"))
            .admitted(adm(TAS_MAIN).ps(psa("one").assign("cpu", "tas-default", "1").ta(List.of(HOST), d(1, "x1")))))
        .workload(wl("contender").podSet(ps("one", 1).required(HOST).req("cpu", "1")))
        .wantAdmission("default/replaced", adm(TAS_MAIN)
            .ps(psa("one").assign("cpu", "tas-default", "1").ta(List.of(HOST), d(1, "x2"))))
        .wantAdmission("default/contender", adm(TAS_MAIN)
            .ps(psa("one").assign("cpu", "tas-default", "1").ta(List.of(HOST), d(1, "x3")))))
        .unhealthy("default/replaced", "x1"),
    new Replacing(threeLevel("workload with unhealthyNode annotation; second pass; baseline scenario")
        .workload(admittedFoo(ps("one", 1).preferred(HOST).req("cpu", "1"),
            psa("one").assign("cpu", "tas-default", "1000m").ta(List.of(HOST), d(1, "x0"))))
        .wantAdmission("default/foo", adm(TAS_MAIN)
            .ps(psa("one").assign("cpu", "tas-default", "1000m").ta(List.of(HOST), d(1, "x1")))))
        .unhealthy("default/foo", "x0"),
    new Replacing(threeLevel("workload with unhealthyNode annotation; second pass; preferred; fit in different rack")
        .workload(admittedFoo(ps("one", 2).preferred(RACK).req("cpu", "500m"),
            psa("one").assign("cpu", "tas-default", "1000m").count(2).ta(List.of(HOST), d(1, "x0"), d(1, "x1"))))
        .wantAdmission("default/foo", adm(TAS_MAIN)
            .ps(psa("one").assign("cpu", "tas-default", "1000m").count(2).ta(List.of(HOST), d(2, "x1")))))
        .unhealthy("default/foo", "x0"),
    new Replacing(threeLevel("workload with unhealthyNode annotation; second pass; preferred; no fit")
        .workload(admittedFoo(ps("one", 1).preferred(RACK).req("cpu", "3"),
            psa("one").assign("cpu", "tas-default", "3000m").ta(List.of(HOST), d(1, "x0"))))
        .wantAdmission("default/foo", adm(TAS_MAIN)
            .ps(psa("one").assign("cpu", "tas-default", "3000m").ta(List.of(HOST), d(1, "x0")))))
        .unhealthy("default/foo", "x0").failFast(false)
        .wantFailed("default/foo", "couldn't assign flavors to pod set one: topology \"tas-three-level\" doesn't allow "
            + "to fit any of 1 pod(s). Total nodes: 6; excluded: resource \"cpu\": 6"),
    // Verifies TAS uses full PodSpec resources (CPU+memory) for placement, not just quota-tracked resources.
    new Replacing(threeLevel("workload with unhealthyNode annotation; second pass; podspec constraints apply")
        .workload(admittedFoo(ps("one", 1).preferred(RACK).req("cpu", "1").req("memory", "2Gi"),
            psa("one").assign("cpu", "tas-default", "1000m").assign("memory", "tas-default", "2Gi")
                .ta(List.of(HOST), d(1, "x0"))))
        .wantAdmission("default/foo", adm(TAS_MAIN)
            .ps(psa("one").assign("cpu", "tas-default", "1000m").assign("memory", "tas-default", "2Gi")
                .ta(List.of(HOST), d(1, "x6")))))
        .unhealthy("default/foo", "x0").failFast(false),
    new Replacing(threeLevel("workload with unhealthyNode annotation; second pass; preferred; no fit; FailFast")
        .workload(admittedFoo(ps("one", 1).preferred(RACK).req("cpu", "3"),
            psa("one").assign("cpu", "tas-default", "3000m").ta(List.of(HOST), d(1, "x0"))))
        .wantAdmission("default/foo", adm(TAS_MAIN)
            .ps(psa("one").assign("cpu", "tas-default", "3000m").ta(List.of(HOST), d(1, "x0")))))
        .unhealthy("default/foo", "x0")
        .wantEvicted("default/foo", EVICTED_X0),
    new Replacing(threeLevel("workload with unhealthyNode annotation; second pass; required rack; fit")
        .workload(admittedFoo(ps("one", 2).required(RACK).req("cpu", "1"),
            psa("one").assign("cpu", "tas-default", "2000m").count(2).ta(List.of(HOST), d(1, "x0"), d(1, "x2"))))
        .wantAdmission("default/foo", adm(TAS_MAIN)
            .ps(psa("one").assign("cpu", "tas-default", "2000m").count(2)
                .ta(List.of(HOST), d(1, "x2"), d(1, "x3")))))
        .unhealthy("default/foo", "x0"),
    new Replacing(threeLevel("workload with unhealthyNode annotation; second pass; required rack for a single node; "
        + "fit")
        .workload(admittedFoo(ps("one", 1).required(RACK).req("cpu", "1"),
            psa("one").assign("cpu", "tas-default", "1000m").ta(List.of(HOST), d(1, "x0"))))
        .wantAdmission("default/foo", adm(TAS_MAIN)
            .ps(psa("one").assign("cpu", "tas-default", "1000m").ta(List.of(HOST), d(1, "x1")))))
        .unhealthy("default/foo", "x0"),
    new Replacing(threeLevel("workload with unhealthyNode annotation; second pass; required rack; no fit")
        .workload(admittedFoo(ps("one", 2).required(RACK).req("cpu", "1"),
            psa("one").assign("cpu", "tas-default", "2000m").count(2).ta(List.of(HOST), d(1, "x0"), d(1, "x1"))))
        .wantAdmission("default/foo", adm(TAS_MAIN)
            .ps(psa("one").assign("cpu", "tas-default", "2000m").count(2)
                .ta(List.of(HOST), d(1, "x0"), d(1, "x1")))))
        .unhealthy("default/foo", "x0").failFast(false)
        .wantFailed("default/foo", "couldn't assign flavors to pod set one: topology \"tas-three-level\" doesn't allow "
            + "to fit any of 1 pod(s). Total nodes: 6; excluded: resource \"cpu\": 1, topologyDomain: 5"),
    new Replacing(threeLevel("workload with unhealthyNode annotation; second pass; two podsets")
        .workload(wl("foo")
            .podSet(ps("one", 1).preferred(HOST).req("cpu", "1"))
            .podSet(ps("two", 1).preferred(HOST).req("cpu", "1"))
            .admitted(adm(TAS_MAIN)
                .ps(psa("one").assign("cpu", "tas-default", "1000m").ta(List.of(HOST), d(1, "x0")))
                .ps(psa("two").assign("cpu", "tas-default", "1000m").ta(List.of(HOST), d(1, "x1")))))
        .wantAdmission("default/foo", adm(TAS_MAIN)
            .ps(psa("one").assign("cpu", "tas-default", "1000m").ta(List.of(HOST), d(1, "x2")))
            .ps(psa("two").assign("cpu", "tas-default", "1000m").ta(List.of(HOST), d(1, "x1")))))
        .unhealthy("default/foo", "x0"),
    new Replacing(threeLevel("workload with unhealthyNode; second pass; slices; baseline")
        .workload(admittedFoo(ps("one", 2).preferred(BLOCK).sliceLevel(RACK).sliceSize(2).req("cpu", "1"),
            psa("one").count(2).assign("cpu", "tas-default", "2000m").ta(List.of(HOST), d(1, "x2"), d(1, "x3"))))
        .wantAdmission("default/foo", adm(TAS_MAIN)
            .ps(psa("one").count(2).assign("cpu", "tas-default", "2000m")
                .ta(List.of(HOST), d(1, "x3"), d(1, "x4")))))
        .unhealthy("default/foo", "x2"),
    new Replacing(threeLevel("workload with unhealthyNode; second pass; slices; unhealthy node hosts incomplete slice")
        .workload(admittedFoo(ps("one", 8).preferred(BLOCK).sliceLevel(RACK).sliceSize(8).req("cpu", "250m"),
            psa("one").count(8).assign("cpu", "tas-default", "2000m").ta(List.of(HOST), d(4, "x2"), d(4, "x3"))))
        .wantAdmission("default/foo", adm(TAS_MAIN)
            .ps(psa("one").count(8).assign("cpu", "tas-default", "2000m")
                .ta(List.of(HOST), d(4, "x3"), d(4, "x4")))))
        .unhealthy("default/foo", "x2"),
    new Replacing(threeLevel("workload with unhealthyNode; second pass; slices; unhealthy node hosts whole slices")
        .workload(admittedFoo(ps("one", 12).required(BLOCK).sliceLevel(RACK).sliceSize(4).req("cpu", "250m"),
            psa("one").count(12).assign("cpu", "tas-default", "3000m")
                .ta(List.of(HOST), d(4, "x2"), d(4, "x3"), d(4, "x4"))))
        .wantAdmission("default/foo", adm(TAS_MAIN)
            .ps(psa("one").count(12).assign("cpu", "tas-default", "3000m")
                .ta(List.of(HOST), d(4, "x1"), d(4, "x2"), d(4, "x4")))))
        .unhealthy("default/foo", "x3"),
    new Replacing(threeLevel("workload with unhealthyNode; second pass; slices; unhealthy node hosts whole slice and "
        + "incomplete slice")
        .workload(admittedFoo(ps("one", 8).required(BLOCK).sliceLevel(RACK).sliceSize(2).req("cpu", "200m"),
            psa("one").count(8).assign("cpu", "tas-default", "1600m").ta(List.of(HOST), d(3, "x1"), d(5, "x2"))))
        .wantAdmission("default/foo", adm(TAS_MAIN)
            .ps(psa("one").count(8).assign("cpu", "tas-default", "1600m")
                .ta(List.of(HOST), d(5, "x2"), d(3, "x3")))))
        .unhealthy("default/foo", "x1"),
    new Replacing(threeLevel("workload with unhealthyNode; second pass; slices; unhealthy node hosts the whole "
        + "workload")
        .workload(admittedFoo(ps("one", 4).required(RACK).sliceLevel(HOST).sliceSize(2).req("cpu", "250m"),
            psa("one").count(4).assign("cpu", "tas-default", "1000m").ta(List.of(HOST), d(4, "x1"))))
        .wantAdmission("default/foo", adm(TAS_MAIN)
            .ps(psa("one").count(4).assign("cpu", "tas-default", "1000m").ta(List.of(HOST), d(4, "x5")))))
        .unhealthy("default/foo", "x1"),
    new Replacing(threeLevel("workload with unhealthyNode; second pass; slices; finds correct slice domain")
        .workload(admittedFoo(ps("one", 8).preferred(BLOCK).sliceLevel(BLOCK).sliceSize(4).req("cpu", "500m"),
            psa("one").count(8).assign("cpu", "tas-default", "4000m")
                .ta(List.of(HOST), d(2, "x1"), d(2, "x3"), d(2, "x5"), d(2, "x7"))))
        .wantAdmission("default/foo", adm(TAS_MAIN)
            .ps(psa("one").count(8).assign("cpu", "tas-default", "4000m")
                .ta(List.of(HOST), d(2, "x1"), d(2, "x3"), d(2, "x5"), d(2, "x6")))))
        .unhealthy("default/foo", "x7"),
    new Replacing(threeLevel("workload with unhealthyNode annotation; second pass; preferred; no fit when using "
        + "slices; FailFast")
        .workload(admittedFoo(ps("one", 2).preferred(BLOCK).sliceLevel(RACK).sliceSize(2).req("cpu", "1"),
            psa("one").count(2).assign("cpu", "tas-default", "2000m").ta(List.of(HOST), d(1, "x0"), d(1, "x1"))))
        .wantAdmission("default/foo", adm(TAS_MAIN)
            .ps(psa("one").count(2).assign("cpu", "tas-default", "2000m")
                .ta(List.of(HOST), d(1, "x0"), d(1, "x1")))))
        .unhealthy("default/foo", "x0")
        .wantEvicted("default/foo", EVICTED_X0));
  }

  /** Upstream's {@code defaultClusterQueue}. */
  private static KueueScheduleForTasPortTest.CQ mainQueue() {
    return cq(TAS_MAIN).group(fq("tas-default").res("cpu", "50").res("memory", "50Gi"));
  }

  /** A case on upstream's {@code defaultNodes}, {@code defaultThreeLevelTopology} and {@code defaultTASThreeLevelFlavor}. */
  private static Case threeLevel(String name) {
    return new Case(name)
        .nodes(defaultNodes())
        .topologies(Topology.of("tas-three-level", BLOCK, RACK, HOST))
        .flavors(flavor("tas-default").nodeLabel("tas-node", "true").topology("tas-three-level"))
        .clusterQueues(mainQueue());
  }

  /** Upstream's admitted workload {@code foo} of one pod set. */
  private static WL admittedFoo(KueueScheduleForTasPortTest.PS podSet, KueueScheduleForTasPortTest.PSA assignment) {
    return wl("foo").podSet(podSet).admitted(adm(TAS_MAIN).ps(assignment));
  }

  /** A case with its workloads' unhealthy nodes and the expected outcomes of their node replacement. */
  static final class Replacing {
    final Case base;
    final Map<String, List<String>> unhealthy = new LinkedHashMap<>();
    final Map<String, String> wantFailed = new LinkedHashMap<>();
    final Map<String, String> wantEvicted = new LinkedHashMap<>();
    boolean failFast = true;

    Replacing(Case base) {
      this.base = base;
    }

    Replacing unhealthy(String key, String... nodes) {
      unhealthy.put(key, List.of(nodes));
      return this;
    }

    Replacing failFast(boolean on) {
      failFast = on;
      return this;
    }

    Replacing wantFailed(String key, String message) {
      wantFailed.put(key, message);
      return this;
    }

    Replacing wantEvicted(String key, String message) {
      wantEvicted.put(key, message);
      return this;
    }

    @Override
    public String toString() {
      return base.toString();
    }
  }
}
