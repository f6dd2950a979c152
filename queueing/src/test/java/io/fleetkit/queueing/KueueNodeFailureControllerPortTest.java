package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.scheduling.TolerationOperator;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Port of kubernetes-sigs/kueue {@code pkg/controller/tas/node_controller_test.go} {@code TestNodeFailureReconciler}
 * and {@code TestGetWorkloadStatus} (commit ff69552e79ad21652c36caa97038382e55625cf7) through the {@link
 * AdmissionEngine}: the engine is built with the case's feature gates (Kueue's defaults at that commit:
 * TASReplaceNodeOnPodTermination on, TASReplaceNodeDueToNotReadyOverFixedTime off, TASReplaceNodeOnNodeTaints on,
 * overridden by the case), its workload restored admitted with its topology assignment (and unhealthy nodes), the
 * workload's pods reported per node of its assignment as the count of upstream's pods that are progressing there
 * ({@link NodeReplacement#isProgressing}), and then upstream's reconcile requests given as node events: {@link
 * AdmissionEngine#putNode} for a node the case has, {@link AdmissionEngine#removeNode} for one it does not.
 *
 * <p>Checked: the workload's unhealthy nodes ({@code status.unhealthyNodes}), or its eviction for multiple failed
 * nodes with Kueue's message (reported by the next cycle); where upstream expects a requeue after {@code
 * NodeFailureDelay}, that the node's failure is due once that delay has passed ({@link
 * AdmissionEngine#nodeFailuresDue}). A finished workload is one the engine no longer has ({@code delete}); an
 * evicted one is one that is pending again. The cases left out are listed in docs/conformance.md.
 */
final class KueueNodeFailureControllerPortTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final Duration DELAY = Duration.ofSeconds(30);
  private static final Instant EARLIER = NOW.minus(DELAY);
  private static final String NODE = "test-node-name";
  private static final String NODE2 = "test-node-name-2";
  private static final String UNASSIGNED = "unassigned-node";
  private static final String WL = "default/test-workload";
  private static final String FLAVOR = "unit-test-flavor";
  private static final String HOST = Topology.HOSTNAME_LABEL;

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void reconcile_upstreamCase_givesUpstreamUnhealthyNodes(Case c) {
    ManualClock clock = new ManualClock(NOW);
    AdmissionEngine.Builder b = AdmissionEngine.builder().clock(clock)
        .topology(Topology.of("hosts", HOST))
        .topology(Topology.of("racks", "rack"))
        .resourceFlavor(new ResourceFlavor(FLAVOR, Map.of()).withTopologyName("hosts"))
        .resourceFlavor(new ResourceFlavor("rf-toleration-flavor", Map.of(), List.of(),
            List.of(new Toleration("foo", TolerationOperator.Exists, "", TaintEffect.NoSchedule, null)))
            .withTopologyName("hosts"))
        .resourceFlavor(new ResourceFlavor("rack-flavor", Map.of()).withTopologyName("racks"))
        .clusterQueue(ClusterQueue.builder("cq")
            .resourceGroup(FlavorQuotas.of(FLAVOR, FlavorResourceQuota.of("cpu", "10")),
                FlavorQuotas.of("rf-toleration-flavor", FlavorResourceQuota.of("cpu", "10")),
                FlavorQuotas.of("rack-flavor", FlavorResourceQuota.of("cpu", "10")))
            .build())
        .localQueue(LocalQueue.of("default", "lq", "cq"))
        .replaceNodeOnPodTermination(c.podTermination)
        .replaceNodeDueToNotReadyOverFixedTime(c.fixedTime)
        .replaceNodeOnNodeTaints(c.taints);
    if (c.check != null) {
      b.admissionCheck(AdmissionCheck.of("check", "test-controller"));
      b.clusterQueue(ClusterQueue.builder("cq-checked")
          .resourceGroup(FlavorQuotas.of(FLAVOR, FlavorResourceQuota.of("cpu", "10"))).admissionChecks("check")
          .build());
    }
    AdmissionEngine engine = b.build();
    Workload wl = Workload.builder("default", "test-workload").queueName("lq").creationTime(EARLIER)
        .podSet(c.podSet).build();
    if (c.workload == State.EVICTED) {
      engine.submit(wl);
    } else if (c.workload != State.NONE && c.check != null) {
      engine.assumeReserved(wl, "cq-checked", List.of(new PodSetAssignment("main", c.podSet.count(),
          Map.of("cpu", c.flavor), ResourceList.EMPTY, c.assignment)), NOW);
      engine.setCheckState(WL, c.check);
      assertThat(engine.isAdmitted(WL)).isTrue();
    } else if (c.workload != State.NONE) {
      engine.assumeAdmitted(wl, "cq", Map.of("cpu", c.flavor), Map.of(), Map.of("main", c.assignment), NOW);
      if (!c.unhealthy.isEmpty()) {
        engine.assumeUnhealthyNodes(WL, c.unhealthy);
      }
      if (c.workload == State.FINISHED) {
        engine.delete(WL);
      } else {
        Set<String> nodes = new LinkedHashSet<>();
        c.assignment.domains().forEach(d -> nodes.add(d.values().get(d.values().size() - 1)));
        for (String n : nodes) {
          engine.setProgressingPods(WL, n, (int) c.pods.stream().filter(p -> NodeReplacement.isProgressing(p, n))
              .count());
        }
      }
    }

    for (String request : c.requests) {
      Node node = c.nodes.stream().filter(n -> n.name().equals(request)).findFirst().orElse(null);
      if (node == null) {
        engine.removeNode(request);
      } else {
        engine.putNode(node);
      }
    }

    if (c.wantEvicted != null) {
      CycleResult r = engine.schedule();
      assertThat(r.nodeReplacements()).singleElement().satisfies(x -> {
        assertThat(x.workload()).isEqualTo(WL);
        assertThat(x.kind()).isEqualTo(NodeReplacement.Kind.EVICTED);
        assertThat(x.message()).isEqualTo(c.wantEvicted);
      });
      assertThat(engine.admission(WL)).as("quota released").isEmpty();
      return;
    }
    assertThat(engine.unhealthyNodes(WL)).as("unhealthy nodes").isEqualTo(c.wantUnhealthy);
    if (c.workload == State.EVICTED || c.workload == State.FINISHED) {
      assertThat(engine.admission(WL)).isEmpty();
      assertThat(engine.schedule().nodeReplacements()).as("no node failure handling").isEmpty();
    }
    if (c.wantRequeue) {
      assertThat(engine.nodeFailuresDue()).as("due before the delay").isFalse();
      clock.advance(DELAY);
      assertThat(engine.nodeFailuresDue()).as("due once the delay passed").isTrue();
      // the cycle records it and, finding no other node, evicts the workload (FailFast)
      assertThat(engine.schedule().nodeReplacements()).as("recorded after the delay")
          .extracting(NodeReplacement::workload, NodeReplacement::unhealthyNodes)
          .containsExactly(org.assertj.core.groups.Tuple.tuple(WL, List.of(NODE)));
    }
  }

  // ---- TestGetWorkloadStatus --------------------------------------------------------------------------------------

  /**
   * {@code TestGetWorkloadStatus}: "Healthy pod on assigned node", "Node Ready, TASReplaceNodeOnNodeTaints disabled ->
   * Healthy", "Node NotReady, ReplaceNodeOnPodTermination disabled -> Unhealthy immediately" (the reconcile reaches
   * the workloads once the delay has run out: the node's Ready condition changed at the delay's start), "Node
   * NotReady, ReplaceNodeOnPodTermination enabled -> Healthy (Waiting for pod termination)"; and "Workload not found
   * returns workloadHealthy" (a pod report for a workload the engine does not have records nothing).
   */
  @Test
  void workloadStatus_upstreamCases() {
    Pod running = pod("test-pod", NODE, PodPhase.Running);
    assertThat(status(readyNode(NODE, null), running, true, true, true)).as("Healthy pod on assigned node").isEmpty();
    assertThat(status(readyNode(NODE, null), running, true, false, false)).as("taints disabled").isEmpty();
    assertThat(status(notReady(NODE, EARLIER), running, false, true, true))
        .as("NotReady, ReplaceNodeOnPodTermination disabled").containsExactly(NODE);
    assertThat(status(notReady(NODE, NOW), pod("valid-pod", NODE, PodPhase.Running), true, false, true))
        .as("NotReady, ReplaceNodeOnPodTermination enabled").isEmpty();
    AdmissionEngine engine = AdmissionEngine.builder().resourceFlavors(FLAVOR)
        .clusterQueue(ClusterQueue.builder("cq").resourceGroup(FlavorQuotas.of(FLAVOR,
            FlavorResourceQuota.of("cpu", "1"))).build()).build();
    assertThat(engine.setProgressingPods(WL, NODE, 1)).as("Workload not found").isFalse();
  }

  private static List<String> status(Node node, Pod pod, boolean podTermination, boolean fixedTime, boolean taints) {
    Case c = new Case("status").nodes(node).pods(pod).requests(NODE);
    c.podTermination = podTermination;
    c.fixedTime = fixedTime;
    c.taints = taints;
    ManualClock clock = new ManualClock(NOW);
    AdmissionEngine engine = AdmissionEngine.builder().clock(clock).topology(Topology.of("hosts", HOST))
        .resourceFlavor(new ResourceFlavor(FLAVOR, Map.of()).withTopologyName("hosts"))
        .clusterQueue(ClusterQueue.builder("cq").resourceGroup(FlavorQuotas.of(FLAVOR,
            FlavorResourceQuota.of("cpu", "10"))).build())
        .replaceNodeOnPodTermination(podTermination).replaceNodeDueToNotReadyOverFixedTime(fixedTime)
        .replaceNodeOnNodeTaints(taints).build();
    Workload wl = Workload.builder("default", "test-workload").queueName("lq").creationTime(EARLIER)
        .podSet(c.podSet).build();
    engine.assumeAdmitted(wl, "cq", Map.of("cpu", FLAVOR), Map.of(), Map.of("main", c.assignment), NOW);
    engine.setProgressingPods(WL, NODE, NodeReplacement.isProgressing(pod, NODE) ? 1 : 0);
    engine.putNode(node);
    return engine.unhealthyNodes(WL);
  }

  // ---- the cases ----------------------------------------------------------------------------------------------------

  private static final Toleration FOO_NO_EXECUTE_300 =
      new Toleration("foo", TolerationOperator.Exists, "", TaintEffect.NoExecute, 300L);
  private static final Toleration FOO_NO_SCHEDULE =
      new Toleration("foo", TolerationOperator.Exists, "", TaintEffect.NoSchedule, null);
  private static final Taint FOO_NO_EXECUTE = Taint.of("foo", "", TaintEffect.NoExecute);
  private static final Taint FOO_NO_SCHEDULE_TAINT = Taint.of("foo", "", TaintEffect.NoSchedule);

  static Stream<Case> cases() {
    return Stream.of(
        new Case("Node Found and Healthy - not marked as unavailable")
            .nodes(readyNode(NODE, null)).pods(running()).requests(NODE),
        new Case("Node becomes healthy, it is removed from the list of nodes to replace")
            .nodes(readyNode(NODE, null)).unhealthy(NODE).pods(running()).requests(NODE),
        new Case("Node Found and Unhealthy (NotReady), delay not passed - not marked as unavailable")
            .gates(false, true, true).nodes(notReady(NODE, NOW)).pods(running()).requests(NODE).requeue(),
        new Case("Node Found and Unhealthy (NotReady), delay passed - marked as unavailable")
            .gates(false, true, true).nodes(notReady(NODE, EARLIER)).pods(running()).requests(NODE).want(NODE),
        new Case("Node NotReady, delay passed, pod running, fixed-time marking disabled - not marked")
            .nodes(notReady(NODE, EARLIER)).pods(running()).requests(NODE),
        new Case("Node NotReady, delay passed, pod running, fixed-time marking enabled - marked")
            .gates(true, true, true).nodes(notReady(NODE, EARLIER)).pods(running()).requests(NODE).want(NODE),
        new Case("Node NotReady, delay passed, pod running, both gates disabled - marked at the fixed time")
            .gates(false, false, true).nodes(notReady(NODE, EARLIER)).pods(running()).requests(NODE).want(NODE),
        new Case("Node NotReady, pod terminating, both gates disabled - marked")
            .gates(false, false, true).nodes(notReady(NODE, EARLIER)).pods(terminating()).requests(NODE).want(NODE),
        new Case("Node NotReady, pod terminating, marked as unavailable")
            .nodes(notReady(NODE, EARLIER)).pods(terminating()).requests(NODE).want(NODE),
        new Case("Node NotReady, pod failed, marked as unavailable")
            .nodes(notReady(NODE, NOW)).pods(pod("test-pod", NODE, PodPhase.Failed)).requests(NODE).want(NODE),
        new Case("Node NotReady, pod failed, ReplaceNodeOnPodTermination feature gate off, requeued")
            .gates(false, true, true).nodes(notReady(NODE, NOW)).pods(pod("test-pod", NODE, PodPhase.Failed))
            .requests(NODE).requeue(),
        new Case("Node NotReady, pod running, not marked as unavailable, requeued")
            .nodes(notReady(NODE, NOW)).pods(running()).requests(NODE),
        new Case("Node NotReady, 2 succeeded pods, 1 running pod -> waits")
            .podSet(2).assignment(ta(d(NODE, 2)))
            .nodes(notReady(NODE, NOW)).pods(pod("succeeded-pod-1", NODE, PodPhase.Succeeded),
                pod("succeeded-pod-2", NODE, PodPhase.Succeeded), pod("running-pod-2", NODE, PodPhase.Running))
            .requests(NODE),
        new Case("Node NotReady, 2 succeeded pods, 1 pending pod, 1 failed pod -> waits")
            .podSet(2).assignment(ta(d(NODE, 2)))
            .nodes(notReady(NODE, NOW)).pods(pod("succeeded-pod-1", NODE, PodPhase.Succeeded),
                pod("succeeded-pod-2", NODE, PodPhase.Succeeded), pod("pending-pod-2", NODE, PodPhase.Pending),
                pod("failed-pod-2", NODE, PodPhase.Failed))
            .requests(NODE),
        new Case("Node Deleted - marked as unavailable").pods(running()).requests(NODE).want(NODE),
        new Case("Node Deleted, late pod exists for reassigned workload -> UnhealthyNodes not polluted")
            .assignment(ta(d(NODE2, 1))).pods(selectorPod("late-pod", NODE)).requests(NODE),
        new Case("NodeReady missing, late pod exists for reassigned workload -> UnhealthyNodes not polluted")
            .assignment(ta(d(NODE2, 1))).nodes(Node.builder().name(NODE).build())
            .pods(selectorPod("late-pod", NODE)).requests(NODE),
        new Case("Two Nodes Unhealthy (NotReady), delay passed - workload evicted")
            .gates(false, true, true).podSet(2).assignment(ta(d(NODE, 1), d(NODE2, 1)))
            .nodes(notReady(NODE, EARLIER), notReady(NODE2, EARLIER))
            .pods(pod("pod1", NODE, PodPhase.Pending), pod("pod2", NODE2, PodPhase.Pending)).requests(NODE, NODE2)
            .evicted(NodeReplacement.MULTIPLE_FAILURES_MESSAGE + NODE + ", " + NODE2),
        new Case("Node has untolerated NoExecute taint -> Unhealthy")
            .gates(false, true, true).nodes(readyNode(NODE, FOO_NO_EXECUTE)).pods(running()).requests(NODE)
            .want(NODE),
        new Case("Node has NoExecute taint with TolerationSeconds -> Healthy (wait for eviction)")
            .tolerations(FOO_NO_EXECUTE_300).nodes(readyNode(NODE, FOO_NO_EXECUTE)).pods(running()).requests(NODE),
        new Case("Node has NoExecute taint with TolerationSeconds, pod terminating -> Unhealthy")
            .tolerations(FOO_NO_EXECUTE_300).nodes(readyNode(NODE, FOO_NO_EXECUTE)).pods(terminating())
            .requests(NODE).want(NODE),
        new Case("Node has untolerated NoExecute taint, ReplaceNodeOnPodTermination on, pod running -> Healthy (wait)")
            .nodes(readyNode(NODE, FOO_NO_EXECUTE)).pods(running()).requests(NODE),
        new Case("Node has untolerated NoExecute taint, ReplaceNodeOnPodTermination on, pod terminating -> Unhealthy")
            .nodes(readyNode(NODE, FOO_NO_EXECUTE)).pods(terminating()).requests(NODE).want(NODE),
        new Case("Node has untolerated NoExecute taint, ReplaceNodeOnPodTermination on, no pods -> Unhealthy "
            + "(immediate)")
            .nodes(readyNode(NODE, FOO_NO_EXECUTE)).requests(NODE).want(NODE),
        new Case("Node has untolerated NoExecute taint, ReplaceNodeOnPodTermination off -> Unhealthy (Immediate)")
            .gates(false, true, true).nodes(readyNode(NODE, FOO_NO_EXECUTE)).pods(running()).requests(NODE)
            .want(NODE),
        new Case("Node has NoExecute taint with TolerationSeconds, ReplaceNodeOnPodTermination off -> Healthy (wait "
            + "for eviction)")
            .gates(false, true, true).tolerations(FOO_NO_EXECUTE_300).nodes(readyNode(NODE, FOO_NO_EXECUTE))
            .pods(running()).requests(NODE),
        new Case("Node has NoExecute taint with TolerationSeconds, ReplaceNodeOnPodTermination off, pod terminating "
            + "-> Unhealthy")
            .gates(false, true, true).tolerations(FOO_NO_EXECUTE_300).nodes(readyNode(NODE, FOO_NO_EXECUTE))
            .pods(terminating()).requests(NODE).want(NODE),
        new Case("Node has NoExecute taint and pods missing -> Unhealthy (immediate)")
            .nodes(readyNode(NODE, Taint.of("key1", "value1", TaintEffect.NoExecute))).requests(NODE).want(NODE),
        new Case("Node has NoSchedule taint, ReplaceNodeOnPodTermination on, pod running -> Healthy")
            .nodes(readyNode(NODE, FOO_NO_SCHEDULE_TAINT)).pods(running()).requests(NODE),
        new Case("Node has NoSchedule taint, ReplaceNodeOnPodTermination off, pod running -> Unhealthy")
            .gates(false, true, true).nodes(readyNode(NODE, FOO_NO_SCHEDULE_TAINT)).pods(running()).requests(NODE)
            .want(NODE),
        new Case("Node has NoSchedule taint, tolerated -> Healthy")
            .tolerations(FOO_NO_SCHEDULE).nodes(readyNode(NODE, FOO_NO_SCHEDULE_TAINT)).pods(running())
            .requests(NODE),
        new Case("Node has NoSchedule taint tolerated by assigned ResourceFlavor -> Healthy")
            .flavor("rf-toleration-flavor").nodes(readyNode(NODE, FOO_NO_SCHEDULE_TAINT)).requests(NODE),
        new Case("Assigned node gets NoSchedule taint tolerated by AdmissionCheck PodSetUpdate -> Healthy")
            .check(new AdmissionCheckState("check", CheckState.READY, NOW, "", null, 0, List.of(
                PodSetUpdate.of("main").withTolerations(List.of(FOO_NO_SCHEDULE)))))
            .nodes(readyNode(NODE, FOO_NO_SCHEDULE_TAINT)).requests(NODE),
        new Case("Node NotReady, pod pending (assigned via nodeSelector) -> Unhealthy")
            .nodes(notReady(NODE, NOW)).pods(selectorPod("pending-pod-selector", NODE)).requests(NODE).want(NODE),
        new Case("Node NotReady, pod pending (gated by TopologySchedulingGate) -> Unhealthy (immediate)")
            .nodes(notReady(NODE, NOW)).pods(gated()).requests(NODE).want(NODE),
        new Case("Node has untolerated NoExecute taint, pod pending (assigned via nodeSelector) -> Unhealthy")
            .nodes(readyNode(NODE, FOO_NO_EXECUTE)).pods(selectorPod("pending-pod-selector", NODE)).requests(NODE)
            .want(NODE),
        new Case("Node has untolerated NoExecute taint, pod pending (gated by TopologySchedulingGate) -> Unhealthy "
            + "(immediate)")
            .nodes(readyNode(NODE, FOO_NO_EXECUTE)).pods(gated()).requests(NODE).want(NODE),
        new Case("Node NotReady, pod pending, no hostname topology level -> Healthy (ignore)")
            .flavor("rack-flavor").assignment(new TopologyAssignment(List.of("rack"),
                List.of(TopologyAssignment.Domain.of(1, "rack-1"))))
            .nodes(notReady(NODE, NOW)).pods(Pod.builder().name("pending-pod-rack").namespace("default").container("c", "img", ResourceList.EMPTY)
                .nodeSelector("rack", "rack-1").phase(PodPhase.Pending).build())
            .requests(NODE),
        new Case("Node has untolerated NoSchedule taint, pod is Gated -> Healthy")
            .nodes(readyNode(NODE, FOO_NO_SCHEDULE_TAINT)).pods(gated()).requests(NODE).want(NODE),
        new Case("Node has untolerated NoSchedule taint, workload has no pods at all -> Unhealthy")
            .nodes(readyNode(NODE, FOO_NO_SCHEDULE_TAINT)).requests(NODE).want(NODE),
        new Case("Node NotReady, finished workload on TAS node -> ignored")
            .state(State.FINISHED).nodes(notReady(NODE, EARLIER)).pods(running()).requests(NODE),
        new Case("Node NotReady, evicted workload on TAS node -> ignored")
            .state(State.EVICTED).nodes(notReady(NODE, EARLIER)).pods(running()).requests(NODE));
  }

  private static Node readyNode(String name, @Nullable Taint taint) {
    Node.Builder b = Node.builder().name(name).condition(new NodeCondition(NodeCondition.READY, ConditionStatus.True,
        "", "", null, NOW));
    if (taint != null) {
      b.taint(taint);
    }
    return b.build();
  }

  private static Node notReady(String name, Instant since) {
    return Node.builder().name(name).condition(new NodeCondition(NodeCondition.READY, ConditionStatus.False, "", "",
        null, since)).build();
  }

  private static Pod pod(String name, String node, PodPhase phase) {
    return Pod.builder().name(name).namespace("default").container("c", "img", ResourceList.EMPTY).nodeName(node).phase(phase).build();
  }

  private static Pod running() {
    return pod("test-pod", NODE, PodPhase.Running);
  }

  /** Upstream's {@code terminatingPod}: the running pod with a deletion timestamp. */
  private static Pod terminating() {
    Pod p = running();
    return p.toBuilder().metadata(p.metadata().toBuilder().deletionTimestamp(NOW).finalizer("kueue.x-k8s.io/managed")
        .build()).build();
  }

  /** A pending pod pinned to {@code node} by a hostname node selector, not bound. */
  private static Pod selectorPod(String name, String node) {
    return Pod.builder().name(name).namespace("default").container("c", "img", ResourceList.EMPTY).nodeSelector(HOST, node).phase(PodPhase.Pending).build();
  }

  private static Pod gated() {
    return Pod.builder().name("gated-pod").namespace("default").container("c", "img", ResourceList.EMPTY).schedulingGate("kueue.x-k8s.io/topology")
        .phase(PodPhase.Pending).build();
  }

  private static TopologyAssignment.Domain d(String node, int count) {
    return TopologyAssignment.Domain.of(count, node);
  }

  private static TopologyAssignment ta(TopologyAssignment.Domain... domains) {
    return new TopologyAssignment(List.of(HOST), List.of(domains));
  }

  enum State { ADMITTED, FINISHED, EVICTED, NONE }

  /** One upstream case. */
  static final class Case {
    final String name;
    boolean podTermination = true;
    boolean fixedTime;
    boolean taints = true;
    PodSet podSet = podSet(1, List.of());
    String flavor = FLAVOR;
    TopologyAssignment assignment = ta(d(NODE, 1));
    State workload = State.ADMITTED;
    List<String> unhealthy = List.of();
    @Nullable AdmissionCheckState check;
    List<Node> nodes = List.of();
    List<Pod> pods = List.of();
    List<String> requests = List.of();
    List<String> wantUnhealthy = List.of();
    @Nullable String wantEvicted;
    boolean wantRequeue;

    Case(String name) {
      this.name = name;
    }

    private static PodSet podSet(int count, List<Toleration> tolerations) {
      PodSet ps = PodSet.of("main", count, ResourceList.builder().put("cpu", "1").build());
      return tolerations.isEmpty() ? ps : ps.withTolerations(tolerations);
    }

    /** TASReplaceNodeOnPodTermination, TASReplaceNodeDueToNotReadyOverFixedTime, TASReplaceNodeOnNodeTaints. */
    Case gates(boolean podTermination, boolean fixedTime, boolean taints) {
      this.podTermination = podTermination;
      this.fixedTime = fixedTime;
      this.taints = taints;
      return this;
    }

    Case podSet(int count) {
      podSet = podSet(count, podSet.tolerations());
      return this;
    }

    Case tolerations(Toleration... ts) {
      podSet = podSet(podSet.count(), List.of(ts));
      return this;
    }

    Case flavor(String f) {
      flavor = f;
      return this;
    }

    Case assignment(TopologyAssignment a) {
      assignment = a;
      return this;
    }

    Case state(State s) {
      workload = s;
      return this;
    }

    Case unhealthy(String... nodes) {
      unhealthy = List.of(nodes);
      return this;
    }

    Case check(AdmissionCheckState st) {
      check = st;
      return this;
    }

    Case nodes(Node... ns) {
      nodes = List.of(ns);
      return this;
    }

    Case pods(Pod... ps) {
      pods = List.of(ps);
      return this;
    }

    Case requests(String... names) {
      requests = List.of(names);
      return this;
    }

    Case want(String... nodes) {
      wantUnhealthy = List.of(nodes);
      return this;
    }

    Case evicted(String message) {
      wantEvicted = message;
      return this;
    }

    Case requeue() {
      wantRequeue = true;
      return this;
    }

    @Override
    public String toString() {
      return name;
    }
  }
}
