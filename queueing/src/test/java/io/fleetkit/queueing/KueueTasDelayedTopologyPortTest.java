package io.fleetkit.queueing;

import static io.fleetkit.queueing.KueueScheduleForTasPortTest.HOST;
import static io.fleetkit.queueing.KueueScheduleForTasPortTest.NOW;
import static io.fleetkit.queueing.KueueScheduleForTasPortTest.adm;
import static io.fleetkit.queueing.KueueScheduleForTasPortTest.cq;
import static io.fleetkit.queueing.KueueScheduleForTasPortTest.d;
import static io.fleetkit.queueing.KueueScheduleForTasPortTest.flavor;
import static io.fleetkit.queueing.KueueScheduleForTasPortTest.fq;
import static io.fleetkit.queueing.KueueScheduleForTasPortTest.n;
import static io.fleetkit.queueing.KueueScheduleForTasPortTest.ps;
import static io.fleetkit.queueing.KueueScheduleForTasPortTest.psa;
import static io.fleetkit.queueing.KueueScheduleForTasPortTest.wl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.queueing.KueueScheduleForTasPortTest.Case;
import io.fleetkit.queueing.KueueScheduleForTasPortTest.N;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Port of the delayed topology request cases (ProvisioningRequest admission checks with topology-aware scheduling,
 * and a custom check that does not delay) of kubernetes-sigs/kueue {@code pkg/scheduler/scheduler_tas_test.go} {@code
 * TestScheduleForTAS} (commit ff69552e79ad21652c36caa97038382e55625cf7), through the {@link AdmissionEngine}, set up
 * as in {@link KueueScheduleForTasPortTest}; a workload upstream gives {@code ReserveQuotaAt} without {@code
 * AdmittedAt} is restored with {@link AdmissionEngine#assumeReserved} and its check states set. One cycle.
 *
 * <p>Checked: upstream's {@code wantNewAssignments} (a pending workload's new reservation from {@link
 * CycleResult#admitted()}, a reserved one's admission after the second pass), with each pod set's {@link
 * DelayedTopologyRequest}; whether the workload is admitted after the cycle (upstream's {@code Admitted} event, or
 * only {@code QuotaReserved}); a second pass that admits is reported as a {@link CheckOutcome.Kind#ADMITTED} outcome.
 */
final class KueueTasDelayedTopologyPortTest {
  private static final String PROV = AdmissionCheck.PROVISIONING_REQUEST_CONTROLLER;
  private static final String FOO = "default/foo";

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void delayedTopology_upstreamCase_givesUpstreamAssignment(Delayed dc) {
    Case c = dc.base;
    AdmissionEngine engine = KueueScheduleForTasPortTest.engineFor(c, b -> { });
    boolean wasReserved = engine.admission(FOO).isPresent();
    assertThat(engine.isAdmitted(FOO)).as("admitted before the cycle").isFalse();

    CycleResult r = engine.schedule();

    Map<String, QuotaReservation> got = new TreeMap<>();
    r.admitted().forEach(q -> got.put(q.workload(), q));
    assertThat(got.keySet()).as("new reservations").containsExactlyInAnyOrderElementsOf(
        wasReserved ? List.of() : c.wantAdmissions.keySet());
    c.wantAdmissions.forEach((key, want) -> KueueScheduleForTasPortTest.assertReservation(key,
        wasReserved ? engine.admission(key).orElseThrow() : got.get(key), want));
    assertThat(engine.isAdmitted(FOO)).as("admitted after the cycle").isEqualTo(dc.wantAdmitted);
    if (wasReserved) {
      assertThat(r.checks()).as("second pass outcome")
          .containsExactly(new CheckOutcome(FOO, "tas-main", CheckOutcome.Kind.ADMITTED, "The workload is admitted"));
    }
  }

  /**
   * {@code TestSecondPassSkipsWaitForPodsReadyBlock} "delayed topology assignment" of the same file and commit: a
   * workload whose quota the first pass reserved with its topology request delayed, its provisioning check Ready,
   * under {@code waitForPodsReady} with {@code blockAdmission}; it is not PodsReady (its pods do not exist yet), which
   * must not block its own second pass. It keeps its reservation and gets its topology assignment, Ready.
   */
  @Test
  void secondPass_delayedTopology_goesOnWhileWaitForPodsReadyBlocksAdmission() {
    io.fleetkit.api.time.ManualClock clock = new io.fleetkit.api.time.ManualClock(NOW);
    AdmissionEngine engine = AdmissionEngine.builder().clock(clock)
        .topology(Topology.of("tas-single-level", HOST))
        .resourceFlavor(new ResourceFlavor("tas-default", Map.of("tas-node", "true"))
            .withTopologyName("tas-single-level"))
        .admissionCheck(AdmissionCheck.of("prov-check", PROV))
        .clusterQueue(ClusterQueue.builder("tas-main")
            .resourceGroup(FlavorQuotas.of("tas-default", FlavorResourceQuota.of("cpu", "50")))
            .admissionChecks("prov-check").build())
        .localQueue(LocalQueue.of("default", "tas-main", "tas-main"))
        .waitForPodsReady(WaitForPodsReady.builder().blockAdmission(true).backoffJitter(0).build())
        .nodes(List.of(n("x1").l("tas-node", "true").l(HOST, "x1").alloc("cpu", "1", "pods", "10").ready().build(),
            n("x2").l("tas-node", "true").l(HOST, "x2").alloc("cpu", "1", "pods", "10").ready().build()))
        .build();
    Workload wl = Workload.builder("default", "wl").queueName("tas-main").creationTime(NOW)
        .podSet(PodSet.of("one", 1, ResourceList.builder().put("cpu", "1").build())
            .withTopologyRequest(PodSetTopologyRequest.ofRequired(HOST)))
        .build();
    engine.assumeReserved(wl, "tas-main", List.of(new PodSetAssignment("one", 1, Map.of("cpu", "tas-default"),
        ResourceList.EMPTY, null, DelayedTopologyRequest.PENDING)), NOW);
    engine.setCheckState("default/wl", AdmissionCheckState.of("prov-check", CheckState.READY, ""));
    assertThat(engine.isAdmitted("default/wl")).as("admitted before its topology assignment").isFalse();
    clock.advance(java.time.Duration.ofSeconds(1));

    engine.schedule();

    QuotaReservation q = engine.admission("default/wl").orElseThrow();
    PodSetAssignment one = q.podSets().get(0);
    assertThat(one.topologyAssignment()).isNotNull();
    assertThat(one.delayedTopologyRequest()).isEqualTo(DelayedTopologyRequest.READY);
    assertThat(engine.isAdmitted("default/wl")).isTrue();
    assertThat(engine.usage("tas-main", "tas-default", "cpu").milliValue()).isEqualTo(1000);
  }

  /** A pending delayed request that already has a topology assignment cannot be restored. */
  @Test
  void assumeReserved_pendingWithAssignment_refusedNamingTheField() {
    AdmissionEngine engine = KueueScheduleForTasPortTest.engineFor(cases().findFirst().orElseThrow().base
        .withoutWorkloads(), b -> { });
    Workload wl = Workload.builder("default", "bar").queueName("tas-main").creationTime(NOW)
        .podSet(PodSet.of("one", 1, ResourceList.builder().put("cpu", "1").build())
            .withTopologyRequest(PodSetTopologyRequest.ofRequired(HOST)))
        .build();
    assertThatThrownBy(() -> engine.assumeReserved(wl, "tas-main", List.of(new PodSetAssignment("one", 1,
        Map.of("cpu", "tas-default"), ResourceList.EMPTY,
        new TopologyAssignment(List.of(HOST), List.of(d(1, "x1"))), DelayedTopologyRequest.PENDING)), NOW))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("status.admission.podSetAssignments[0]")
        .hasMessageContaining("pending delayedTopologyRequest must not have a topologyAssignment");
    assertThatThrownBy(() -> engine.assumeReserved(wl, "tas-main", List.of(new PodSetAssignment("one", 1,
        Map.of("cpu", "tas-default"), ResourceList.builder().put("cpu", "2").build())), NOW))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("status.admission.podSetAssignments[0].resourceUsage");
    assertThat(engine.admission("default/bar")).isEmpty();
  }

  private static List<N> defaultSingleNode() {
    return List.of(n("x1").l("tas-node", "true").l(HOST, "x1").alloc("cpu", "1", "memory", "1Gi", "pods", "10")
        .ready());
  }

  private static List<N> twoFlavorNodes() {
    return List.of(n("x1").l("tas-node", "true").l(HOST, "x1").alloc("cpu", "1", "pods", "10").ready(),
        n("y1").l("tas-node-second", "true").l(HOST, "y1").alloc("cpu", "1", "pods", "10").ready());
  }

  private static Case base(String name) {
    return new Case(name).topologies(Topology.of("tas-single-level", HOST));
  }

  static Stream<Delayed> cases() {
    return Stream.of(
    new Delayed(base("workload in CQ with ProvisioningRequest; second pass; baseline scenario")
        .nodes(defaultSingleNode())
        .admissionChecks(AdmissionCheck.of("prov-check", PROV))
        .flavors(flavor("tas-default").nodeLabel("tas-node", "true").topology("tas-single-level"))
        .clusterQueues(cq("tas-main").group(fq("tas-default").res("cpu", "50").res("memory", "50Gi"))
            .checks("prov-check"))
        .workload(wl("foo").podSet(ps("one", 1).required(HOST).req("cpu", "1"))
            .reserved(adm("tas-main").ps(psa("one").assign("cpu", "tas-default", "1000m")
                .delayed(DelayedTopologyRequest.PENDING)))
            .check("prov-check", CheckState.READY))
        .wantAdmission(FOO, adm("tas-main").ps(psa("one").assign("cpu", "tas-default", "1000m")
            .delayed(DelayedTopologyRequest.READY).ta(List.of(HOST), d(1, "x1")))), true),
    new Delayed(base("workload in CQ with ProvisioningRequest; second pass; multi-resource workload fully consumes "
        + "quota")
        .nodes(defaultSingleNode())
        .admissionChecks(AdmissionCheck.of("prov-check", PROV))
        .flavors(flavor("tas-default").nodeLabel("tas-node", "true").topology("tas-single-level"))
        .clusterQueues(cq("tas-main").group(fq("tas-default").res("cpu", "1").res("memory", "1Gi"))
            .checks("prov-check"))
        .workload(wl("foo").podSet(ps("one", 1).required(HOST).req("cpu", "1").req("memory", "1Gi"))
            .reserved(adm("tas-main").ps(psa("one").assign("cpu", "tas-default", "1000m")
                .assign("memory", "tas-default", "1Gi").delayed(DelayedTopologyRequest.PENDING)))
            .check("prov-check", CheckState.READY))
        .wantAdmission(FOO, adm("tas-main").ps(psa("one").assign("cpu", "tas-default", "1000m")
            .assign("memory", "tas-default", "1Gi").delayed(DelayedTopologyRequest.READY)
            .ta(List.of(HOST), d(1, "x1")))), true),
    new Delayed(base("workload in CQ with two TAS flavors, only the second is using Provisioning Admission Check")
        .nodes(List.of(n("x1").l("tas-group", "reservation").l(HOST, "x1").alloc("cpu", "1", "pods", "10").ready()))
        .admissionChecks(AdmissionCheck.of("prov-check", PROV))
        .flavors(flavor("tas-reservation").nodeLabel("tas-group", "reservation").topology("tas-single-level"),
            flavor("tas-provisioning").nodeLabel("tas-group", "provisioning").topology("tas-single-level"))
        .clusterQueues(cq("tas-main").group(fq("tas-reservation").res("cpu", "1"),
            fq("tas-provisioning").res("cpu", "1")).checkOnFlavors("prov-check", "tas-provisioning"))
        .workload(wl("foo").podSet(ps("one", 1).required(HOST).req("cpu", "1")))
        .wantAdmission(FOO, adm("tas-main").ps(psa("one").assign("cpu", "tas-reservation", "1000m")
            .ta(List.of(HOST), d(1, "x1")))), true),
    new Delayed(base("large workload in CQ with ProvisioningRequest; second pass")
        .nodes(List.of(n("x1").l("tas-node", "true").l(HOST, "x1").alloc("cpu", "50", "memory", "50Gi", "pods", "50")
            .ready()))
        .admissionChecks(AdmissionCheck.of("prov-check", PROV))
        .flavors(flavor("tas-default").nodeLabel("tas-node", "true").topology("tas-single-level"))
        .clusterQueues(cq("tas-main").group(fq("tas-default").res("cpu", "50").res("memory", "50Gi"))
            .checks("prov-check"))
        .workload(wl("foo").podSet(ps("one", 26).preferred(HOST).req("cpu", "1"))
            .reserved(adm("tas-main").ps(psa("one").assign("cpu", "tas-default", "26").count(26)
                .delayed(DelayedTopologyRequest.PENDING)))
            .check("prov-check", CheckState.READY))
        .wantAdmission(FOO, adm("tas-main").ps(psa("one").assign("cpu", "tas-default", "26").count(26)
            .delayed(DelayedTopologyRequest.READY).ta(List.of(HOST), d(26, "x1")))), true),
    new Delayed(base("workload in CQ with ProvisioningRequest when two TAS flavors; second pass")
        .nodes(twoFlavorNodes())
        .admissionChecks(AdmissionCheck.of("prov-check", PROV))
        .flavors(flavor("tas-default").nodeLabel("tas-node", "true").topology("tas-single-level"),
            flavor("tas-second").nodeLabel("tas-node-second", "true").topology("tas-single-level"))
        .clusterQueues(cq("tas-main").group(fq("tas-default").res("cpu", "50"), fq("tas-second").res("cpu", "50"))
            .checks("prov-check"))
        .workload(wl("foo").podSet(ps("one", 1).required(HOST).req("cpu", "1"))
            .reserved(adm("tas-main").ps(psa("one").assign("cpu", "tas-second", "1000m")
                .delayed(DelayedTopologyRequest.PENDING)))
            .check("prov-check", CheckState.READY))
        .wantAdmission(FOO, adm("tas-main").ps(psa("one").assign("cpu", "tas-second", "1000m")
            .delayed(DelayedTopologyRequest.READY).ta(List.of(HOST), d(1, "y1")))), true),
    new Delayed(base("workload in CQ with two TAS flavors - one with ProvisioningRequest, one regular; second pass")
        .nodes(twoFlavorNodes())
        .admissionChecks(AdmissionCheck.of("prov-check", PROV))
        .flavors(flavor("tas-default").nodeLabel("tas-node", "true").topology("tas-single-level"),
            flavor("tas-second").nodeLabel("tas-node-second", "true").topology("tas-single-level"))
        .clusterQueues(cq("tas-main").group(fq("tas-default").res("cpu", "50"), fq("tas-second").res("cpu", "50"))
            .checkOnFlavors("prov-check", "tas-second"))
        .workload(wl("foo").podSet(ps("one", 1).required(HOST).req("cpu", "1"))
            .podSet(ps("two", 1).required(HOST).req("cpu", "1"))
            .reserved(adm("tas-main")
                .ps(psa("one").assign("cpu", "tas-default", "1").ta(List.of(HOST), d(1, "x1")))
                .ps(psa("two").assign("cpu", "tas-second", "1").delayed(DelayedTopologyRequest.PENDING)))
            .check("prov-check", CheckState.READY))
        .wantAdmission(FOO, adm("tas-main")
            .ps(psa("one").assign("cpu", "tas-default", "1").ta(List.of(HOST), d(1, "x1")))
            .ps(psa("two").assign("cpu", "tas-second", "1").delayed(DelayedTopologyRequest.READY)
                .ta(List.of(HOST), d(1, "y1")))), true),
    new Delayed(base("workload in CQ with ProvisioningRequest gets QuotaReserved only; implicit defaulting")
        .admissionChecks(AdmissionCheck.of("prov-check", PROV))
        .flavors(flavor("tas-default").nodeLabel("tas-node", "true").topology("tas-single-level"))
        .clusterQueues(cq("tas-main").group(fq("tas-default").res("cpu", "50").res("memory", "50Gi"))
            .checks("prov-check"))
        .workload(wl("foo").podSet(ps("one", 1).req("cpu", "1")).check("prov-check", CheckState.PENDING))
        .wantAdmission(FOO, adm("tas-main").ps(psa("one").assign("cpu", "tas-default", "1000m")
            .delayed(DelayedTopologyRequest.PENDING))), false),
    new Delayed(base("workload in CQ with ProvisioningRequest when two TAS flavors; second pass; implicit defaulting")
        .nodes(twoFlavorNodes())
        .admissionChecks(AdmissionCheck.of("prov-check", PROV))
        .flavors(flavor("tas-default").nodeLabel("tas-node", "true").topology("tas-single-level"),
            flavor("tas-second").nodeLabel("tas-node-second", "true").topology("tas-single-level"))
        .clusterQueues(cq("tas-main").group(fq("tas-default").res("cpu", "50"), fq("tas-second").res("cpu", "50"))
            .checks("prov-check"))
        .workload(wl("foo").podSet(ps("one", 1).req("cpu", "1"))
            .reserved(adm("tas-main").ps(psa("one").assign("cpu", "tas-second", "1000m")
                .delayed(DelayedTopologyRequest.PENDING)))
            .check("prov-check", CheckState.READY))
        .wantAdmission(FOO, adm("tas-main").ps(psa("one").assign("cpu", "tas-second", "1000m")
            .delayed(DelayedTopologyRequest.READY).ta(List.of(HOST), d(1, "y1")))), true),
    new Delayed(base("workload in CQ with ProvisioningRequest gets QuotaReserved only")
        .admissionChecks(AdmissionCheck.of("prov-check", PROV))
        .flavors(flavor("tas-default").nodeLabel("tas-node", "true").topology("tas-single-level"))
        .clusterQueues(cq("tas-main").group(fq("tas-default").res("cpu", "50").res("memory", "50Gi"))
            .checks("prov-check"))
        .workload(wl("foo").podSet(ps("one", 1).required(HOST).req("cpu", "1")).check("prov-check", CheckState.PENDING))
        .wantAdmission(FOO, adm("tas-main").ps(psa("one").assign("cpu", "tas-default", "1000m")
            .delayed(DelayedTopologyRequest.PENDING))), false),
    new Delayed(base("workload with a custom AdmissionCheck gets TAS assigned")
        .nodes(defaultSingleNode())
        .admissionChecks(AdmissionCheck.of("custom-check", "custom-admission-check-controller"))
        .flavors(flavor("tas-default").nodeLabel("tas-node", "true").topology("tas-single-level"))
        .clusterQueues(cq("tas-main").group(fq("tas-default").res("cpu", "50").res("memory", "50Gi"))
            .checks("custom-check"))
        .workload(wl("foo").podSet(ps("one", 1).required(HOST).req("cpu", "1"))
            .check("custom-check", CheckState.PENDING))
        .wantAdmission(FOO, adm("tas-main").ps(psa("one").assign("cpu", "tas-default", "1000m")
            .ta(List.of(HOST), d(1, "x1")))), false));
  }

  /** A case and whether upstream's workload is admitted after the cycle (its {@code Admitted} event). */
  record Delayed(Case base, boolean wantAdmitted) {
    @Override
    public String toString() {
      return base.toString();
    }
  }
}
