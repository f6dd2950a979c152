package io.fleetkit.reconcile.controllers;

import static io.fleetkit.reconcile.controllers.DaemonSetHarness.SIMPLE_DAEMON_SET_LABEL;
import static io.fleetkit.reconcile.controllers.DaemonSetHarness.SIMPLE_DAEMON_SET_LABEL2;
import static io.fleetkit.reconcile.controllers.DaemonSetHarness.SIMPLE_NODE_LABEL;
import static io.fleetkit.reconcile.controllers.DaemonSetHarness.SIMPLE_NODE_LABEL2;
import static io.fleetkit.reconcile.controllers.DaemonSetHarness.newDaemonSet;
import static io.fleetkit.reconcile.controllers.DaemonSetHarness.newNode;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.apps.DaemonSetUpdateStrategy;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerPort;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.controllers.internal.DaemonSetPods;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from upstream {@code pkg/controller/daemon/daemon_controller_test.go} at commit
 * 003e86297d18a8538c9da3619871393f9703bf70. Each sync case builds the nodes, the set and its pods, runs exactly one
 * sync ({@link DaemonSetHarness#expectSync}) and compares the pods created and deleted and the events, under both of
 * upstream's {@code updateStrategies()} where upstream loops over them; every pod created must have the set as its
 * controller (upstream's {@code validateSyncDaemonSets}). The pod and node event cases check which set keys an event
 * puts in the controller's queue. Upstream's pods without a name or image get a container {@code foo/bar} (FleetKit
 * validates pods); resources and host ports play no part, as upstream.
 *
 * <p>Left out, each for a reason listed in docs/conformance.md: TestDeleteFinalStateUnknown, TestExpectationsOnRecreate,
 * TestDaemonSetPodCreateExpectationsError, TestDontDoAnythingIfBeingDeletedRace,
 * TestPodIsNotDeletedByDaemonsetWithEmptyLabelSelector, TestStoreDaemonSetStatus (4 cases).
 */
final class DaemonSetControllerUpstreamCasesTest {

  static Stream<DaemonSetUpdateStrategy> strategies() {
    return DaemonSetHarness.STRATEGIES.stream();
  }

  private static DaemonSet ds(String name, DaemonSetUpdateStrategy strategy) {
    return newDaemonSet(name).updateStrategy(strategy).build();
  }

  private static DaemonSet withPodSpec(DaemonSet ds, PodSpec spec) {
    return ds.withSpec(ds.spec().withTemplate(new io.fleetkit.api.core.PodTemplateSpec(
        ds.spec().template().metadata(), spec)));
  }

  private static PodSpec podSpec(Consumer<PodSpec.Builder> change) {
    PodSpec.Builder b = DaemonSetHarness.podSpec().toBuilder();
    change.accept(b);
    return b.build();
  }

  /** Upstream's {@code resourcePodSpec(nodeName, memory, cpu)}. */
  private static PodSpec resourcePodSpec(String nodeName, String memory, String cpu) {
    return PodSpec.builder().nodeName(nodeName).container(Container.of("foo", "foo/bar",
        ResourceList.of(Map.of("memory", Quantity.parse(memory), "cpu", Quantity.parse(cpu))))).build();
  }

  /** A container with one host port, as upstream's port-conflict cases. */
  private static PodSpec hostPortSpec(String nodeName, int hostPort) {
    return PodSpec.builder().nodeName(nodeName).container(new Container("foo", "foo/bar",
        ResourceRequirements.ofRequests(ResourceList.EMPTY), List.of(new ContainerPort("", 80, "TCP", hostPort)),
        List.of(), null)).build();
  }

  private static Affinity requiredAffinity(NodeSelectorTerm term) {
    return new Affinity(new NodeAffinity(new NodeSelector(List.of(term)), List.of()), null, null);
  }

  private static final Taint NO_SCHEDULE = Taint.of("dedicated", "user1", TaintEffect.NoSchedule);
  private static final Taint NO_EXECUTE = Taint.of("dedicated", "user1", TaintEffect.NoExecute);
  private static final Toleration NO_SCHEDULE_TOLERATION = Toleration.equal("dedicated", "user1",
      TaintEffect.NoSchedule);

  // --- TestSimpleDaemonSetLaunchesPods, TestSimpleDaemonSetScheduleDaemonSetPodsLaunchesPods

  @ParameterizedTest
  @MethodSource("strategies")
  void simpleDaemonSet_launchesPodsOnEveryNode_pinnedByNodeAffinity(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      h.addNodes(0, 5, null);
      h.create(ds("foo", strategy));
      h.expectSync("foo", 5, 0, 0);
      Set<String> nodes = new TreeSet<>();
      for (Pod p : h.podControl.templates) {
        assertThat(p.spec().nodeName()).isEmpty();
        NodeSelector required = p.spec().affinity().nodeAffinity().requiredDuringSchedulingIgnoredDuringExecution();
        assertThat(required.nodeSelectorTerms()).hasSize(1);
        assertThat(required.nodeSelectorTerms().get(0).matchFields()).singleElement().satisfies(r -> {
          assertThat(r.key()).isEqualTo("metadata.name");
          assertThat(r.operator()).isEqualTo(NodeSelectorOperator.In);
          assertThat(r.values()).hasSize(1);
          nodes.add(r.values().get(0));
        });
      }
      assertThat(nodes).containsExactly("node-0", "node-1", "node-2", "node-3", "node-4");
    }
  }

  // --- TestSimpleDaemonSetPodCreateErrors

  @ParameterizedTest
  @MethodSource("strategies")
  void podCreateErrors_slowStartLimitsCallsAndStatusCountsCreated(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      h.podControl.createLimit = 10;
      h.addNodes(0, 100, null);
      h.create(ds("foo", strategy));
      h.expectSync("foo", 10, 0, 0);
      assertThat(h.failures).singleElement().asString().contains("limit 10 already reached");
      int expectedLimit = 0;
      for (int pass = 0; expectedLimit <= 10; pass++) {
        expectedLimit += 1 << pass; // SlowStartInitialBatchSize << pass
      }
      assertThat(h.podControl.createCallCount).isLessThanOrEqualTo(expectedLimit);
      DaemonSet updated = h.ds("foo");
      assertThat(updated.status().desiredNumberScheduled()).isEqualTo(100);
      assertThat(updated.status().currentNumberScheduled()).isEqualTo(10);
      assertThat(updated.status().updatedNumberScheduled()).isEqualTo(10);
    }
  }

  // --- TestSimpleDaemonSetUpdatesStatusAfterLaunchingPods

  @ParameterizedTest
  @MethodSource("strategies")
  void statusAfterLaunchingPods_countsThemInTheSameSync(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      h.create(ds("foo", strategy));
      h.addNodes(0, 5, null);
      h.expectSync("foo", 5, 0, 0);
      assertThat(h.ds("foo").status().currentNumberScheduled()).isEqualTo(5);
    }
  }

  // --- TestSimpleDaemonSetUpdatesStatusError: the error the sync returns is the sync's when both fail; the status
  // is written (or attempted) after a failed sync, as upstream

  static Stream<Arguments> statusError() {
    List<Arguments> out = new ArrayList<>();
    for (DaemonSetUpdateStrategy s : DaemonSetHarness.STRATEGIES) {
      out.add(Arguments.of("sync error", s, true, false, "sync error"));
      out.add(Arguments.of("status error", s, false, true, "status error"));
      out.add(Arguments.of("sync and status error", s, true, true, "sync error"));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("statusError")
  void updatesStatusError_upstreamTable(String name, DaemonSetUpdateStrategy strategy, boolean syncErr,
      boolean statusErr, String expected) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      if (syncErr) {
        h.podControl.err = "sync error";
      }
      if (statusErr) {
        h.statusError = "status error";
      }
      h.create(ds("foo", strategy));
      h.addNodes(0, 1, null);
      h.expectSync("foo", 1, 0, 0);
      assertThat(h.failures).singleElement().asString().contains(expected);
      assertThat(h.controller.controller().queue().numRequeues(ObjectKey.of("default", "foo"))).isPositive();
      if (!statusErr) {
        assertThat(h.ds("foo").status().desiredNumberScheduled()).isEqualTo(1);
      }
    }
  }

  // --- TestNoNodesDoesNothing, TestOneNodeDaemonLaunchesPod, TestNotReadyNodeDaemonDoesLaunchPod

  @ParameterizedTest
  @MethodSource("strategies")
  void noNodes_doesNothing(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      h.create(ds("foo", strategy));
      h.expectSync("foo", 0, 0, 0);
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void oneNode_launchesPod(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      h.addNode(newNode("only-node", null).build());
      h.create(ds("foo", strategy));
      h.expectSync("foo", 1, 0, 0);
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void notReadyNode_launchesPod(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      h.addNode(DaemonSetHarness.withCondition(newNode("not-ready", null), NodeCondition.READY,
          ConditionStatus.False).build());
      h.create(ds("foo", strategy));
      h.expectSync("foo", 1, 0, 0);
    }
  }

  // --- TestInsufficientCapacityNodeDaemonDoesNotUnscheduleRunningPod

  @ParameterizedTest
  @MethodSource("strategies")
  void insufficientCapacity_doesNotMatter(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      PodSpec spec = resourcePodSpec("too-much-mem", "75M", "75m");
      h.addNode(newNode("too-much-mem", null).allocatable(ResourceList.of(Map.of("memory", Quantity.parse("100M"),
          "cpu", Quantity.parse("200m"), "pods", Quantity.parse("100")))).build());
      h.addPod(Pod.of(ObjectMeta.builder().namespace("default").name("other").build(), spec));
      h.create(withPodSpec(ds("foo", strategy), spec));
      h.expectSync("foo", 1, 0, 0);
    }
  }

  // --- TestInsufficientCapacityNodeSufficientCapacityWithNodeLabelDaemonLaunchPod

  @Test
  void insufficientCapacityWithNodeLabel_launchesOnTheLabelledNodeWithoutEvents() {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      PodSpec spec = resourcePodSpec("", "50M", "75m").toBuilder().nodeSelector(SIMPLE_NODE_LABEL).build();
      h.addNode(newNode("not-enough-resource", null).build());
      h.addNode(newNode("enough-resource", SIMPLE_NODE_LABEL).build());
      h.create(withPodSpec(newDaemonSet("foo").build(), spec));
      h.expectSync("foo", 1, 0, 0);
      assertThat(h.events).isEmpty();
    }
  }

  // --- TestNetworkUnavailableNodeDaemonLaunchesPod

  @ParameterizedTest
  @MethodSource("strategies")
  void networkUnavailableNode_launchesPod(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      h.addNode(DaemonSetHarness.withCondition(newNode("network-unavailable", null),
          NodeCondition.NETWORK_UNAVAILABLE, ConditionStatus.True).build());
      h.create(ds("simple", strategy));
      h.expectSync("simple", 1, 0, 0);
    }
  }

  // --- TestDontDoAnythingIfBeingDeleted

  @ParameterizedTest
  @MethodSource("strategies")
  void beingDeleted_doesNothing(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      PodSpec spec = resourcePodSpec("not-too-much-mem", "75M", "75m");
      h.addNode(newNode("not-too-much-mem", null).build());
      h.addPod(Pod.of(ObjectMeta.builder().namespace("default").name("other").build(), spec));
      DaemonSet d = withPodSpec(ds("foo", strategy), spec);
      h.create(d.withMetadata(d.metadata().toBuilder().finalizer("test/hold").build()));
      h.store.delete(DaemonSet.class, "default", "foo");
      assertThat(h.ds("foo").metadata().deletionTimestamp()).isNotNull();
      h.expectSync("foo", 0, 0, 0);
    }
  }

  // --- TestPortConflictWithSameDaemonPodDoesNotDeletePod, TestNoPortConflictNodeDaemonLaunchesPod

  @ParameterizedTest
  @MethodSource("strategies")
  void portConflictWithOwnPod_keepsIt(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      h.addNode(newNode("port-conflict", null).build());
      DaemonSet d = h.create(withPodSpec(ds("foo", strategy), hostPortSpec("port-conflict", 666)));
      h.addPod(h.newPod("foo-", "port-conflict", SIMPLE_DAEMON_SET_LABEL, d));
      h.expectSync("foo", 0, 0, 0);
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void noPortConflict_launchesPod(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      h.addNode(newNode("no-port-conflict", null).build());
      h.addPod(Pod.of(ObjectMeta.builder().namespace("default").name("other").build(),
          hostPortSpec("no-port-conflict", 6661)));
      h.create(withPodSpec(ds("foo", strategy), hostPortSpec("no-port-conflict", 6662)));
      h.expectSync("foo", 1, 0, 0);
    }
  }

  // --- TestDealsWithExistingPods

  @ParameterizedTest
  @MethodSource("strategies")
  void existingPods_missingCreatedExcessDeleted(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      DaemonSet d = h.create(ds("foo", strategy));
      h.addNodes(0, 5, null);
      h.addPods("node-1", SIMPLE_DAEMON_SET_LABEL, d, 1);
      h.addPods("node-2", SIMPLE_DAEMON_SET_LABEL, d, 2);
      h.addPods("node-3", SIMPLE_DAEMON_SET_LABEL, d, 5);
      h.addPods("node-4", SIMPLE_DAEMON_SET_LABEL2, d, 2);
      h.expectSync("foo", 2, 5, 0);
    }
  }

  // --- TestSelectorDaemonLaunchesPods, TestSelectorDaemonDeletesUnselectedPods,
  // TestSelectorDaemonDealsWithExistingPods, TestBadSelectorDaemonDoesNothing

  @ParameterizedTest
  @MethodSource("strategies")
  void nodeSelector_launchesOnMatchingNodes(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      h.addNodes(0, 4, null);
      h.addNodes(4, 3, SIMPLE_NODE_LABEL);
      h.create(withPodSpec(ds("foo", strategy), podSpec(b -> b.nodeSelector(SIMPLE_NODE_LABEL))));
      h.expectSync("foo", 3, 0, 0);
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void nodeSelector_deletesPodsOnUnselectedNodes(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      DaemonSet d = h.create(withPodSpec(ds("foo", strategy), podSpec(b -> b.nodeSelector(SIMPLE_NODE_LABEL))));
      h.addNodes(0, 5, null);
      h.addNodes(5, 5, SIMPLE_NODE_LABEL);
      h.addPods("node-0", SIMPLE_DAEMON_SET_LABEL2, d, 2);
      h.addPods("node-1", SIMPLE_DAEMON_SET_LABEL, d, 3);
      h.addPods("node-1", SIMPLE_DAEMON_SET_LABEL2, d, 1);
      h.addPods("node-4", SIMPLE_DAEMON_SET_LABEL, d, 1);
      h.expectSync("foo", 5, 4, 0);
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void nodeSelector_dealsWithExistingPods(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      DaemonSet d = h.create(withPodSpec(ds("foo", strategy), podSpec(b -> b.nodeSelector(SIMPLE_NODE_LABEL))));
      h.addNodes(0, 5, null);
      h.addNodes(5, 5, SIMPLE_NODE_LABEL);
      h.addPods("node-0", SIMPLE_DAEMON_SET_LABEL, d, 1);
      h.addPods("node-1", SIMPLE_DAEMON_SET_LABEL, d, 3);
      h.addPods("node-1", SIMPLE_DAEMON_SET_LABEL2, d, 2);
      h.addPods("node-2", SIMPLE_DAEMON_SET_LABEL, d, 4);
      h.addPods("node-6", SIMPLE_DAEMON_SET_LABEL, d, 13);
      h.addPods("node-7", SIMPLE_DAEMON_SET_LABEL2, d, 4);
      h.addPods("node-9", SIMPLE_DAEMON_SET_LABEL, d, 1);
      h.addPods("node-9", SIMPLE_DAEMON_SET_LABEL2, d, 1);
      h.expectSync("foo", 3, 20, 0);
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void badNodeSelector_doesNothing(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      h.addNodes(0, 4, null);
      h.addNodes(4, 3, SIMPLE_NODE_LABEL);
      h.create(withPodSpec(ds("foo", strategy), podSpec(b -> b.nodeSelector(SIMPLE_NODE_LABEL2))));
      h.expectSync("foo", 0, 0, 0);
    }
  }

  // --- TestNameDaemonSetLaunchesPods, TestBadNameDaemonSetDoesNothing, TestNameAndSelectorDaemonSetLaunchesPods,
  // TestInconsistentNameSelectorDaemonSetDoesNothing, TestSelectorDaemonSetLaunchesPods

  static Stream<Arguments> nameAndSelectorCases() {
    List<Arguments> out = new ArrayList<>();
    for (DaemonSetUpdateStrategy s : DaemonSetHarness.STRATEGIES) {
      out.add(Arguments.of("TestNameDaemonSetLaunchesPods", s, "node-0", null, 5, 0, 1));
      out.add(Arguments.of("TestBadNameDaemonSetDoesNothing", s, "node-10", null, 5, 0, 0));
      out.add(Arguments.of("TestNameAndSelectorDaemonSetLaunchesPods", s, "node-6", SIMPLE_NODE_LABEL, 4, 3, 1));
      out.add(Arguments.of("TestInconsistentNameSelectorDaemonSetDoesNothing", s, "node-0", SIMPLE_NODE_LABEL, 4, 3,
          0));
    }
    out.add(Arguments.of("TestSelectorDaemonSetLaunchesPods", DaemonSetUpdateStrategy.ON_DELETE, "",
        SIMPLE_NODE_LABEL, 4, 3, 3));
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("nameAndSelectorCases")
  void nodeNameAndSelector_upstreamTable(String name, DaemonSetUpdateStrategy strategy, String nodeName,
      @Nullable Map<String, String> selector, int plainNodes, int labelledNodes, int creates) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      h.addNodes(0, plainNodes, null);
      h.addNodes(plainNodes, labelledNodes, SIMPLE_NODE_LABEL);
      h.create(withPodSpec(ds("foo", strategy), podSpec(b -> {
        b.nodeName(nodeName);
        if (selector != null) {
          b.nodeSelector(selector);
        }
      })));
      h.expectSync("foo", creates, 0, 0);
    }
  }

  // --- TestNodeAffinityDaemonLaunchesPods

  @ParameterizedTest
  @MethodSource("strategies")
  void nodeAffinity_launchesOnMatchingNodes(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      h.addNodes(0, 4, null);
      h.addNodes(4, 3, SIMPLE_NODE_LABEL);
      h.create(withPodSpec(ds("foo", strategy), podSpec(b -> b.affinity(requiredAffinity(new NodeSelectorTerm(
          List.of(new NodeSelectorRequirement("color", NodeSelectorOperator.In, List.of("blue"))), List.of()))))));
      h.expectSync("foo", 3, 0, 0);
    }
  }

  // --- TestNumberReadyStatus, TestObservedGeneration

  @ParameterizedTest
  @MethodSource("strategies")
  void numberReady_followsPodReadiness(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      DaemonSet d = h.create(ds("foo", strategy));
      h.addNodes(0, 2, SIMPLE_NODE_LABEL);
      h.addPods("node-0", SIMPLE_DAEMON_SET_LABEL, d, 1);
      h.addPods("node-1", SIMPLE_DAEMON_SET_LABEL, d, 1);
      h.expectSync("foo", 0, 0, 0);
      assertThat(h.ds("foo").status().numberReady()).isZero();
      h.markPodsReady();
      h.expectSync("foo", 0, 0, 0);
      assertThat(h.ds("foo").status().numberReady()).isEqualTo(2);
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void observedGeneration_isTheSetsGeneration(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      DaemonSet d = h.create(ds("foo", strategy));
      h.addNodes(0, 1, SIMPLE_NODE_LABEL);
      h.addPods("node-0", SIMPLE_DAEMON_SET_LABEL, d, 1);
      h.expectSync("foo", 0, 0, 0);
      assertThat(h.ds("foo").status().observedGeneration()).isEqualTo(d.metadata().generation()).isEqualTo(1);
    }
  }

  // --- TestDaemonKillFailedPods

  static Stream<Arguments> killFailedPods() {
    List<Arguments> out = new ArrayList<>();
    for (DaemonSetUpdateStrategy s : DaemonSetHarness.STRATEGIES) {
      out.add(Arguments.of("normal (do nothing)", s, 0, 1, 0, 0, 0));
      out.add(Arguments.of("no pods (create 1)", s, 0, 0, 1, 0, 0));
      out.add(Arguments.of("1 failed pod (kill 1), 0 normal pod (create 0; will create in the next sync)", s, 1, 0,
          0, 1, 1));
      out.add(Arguments.of("1 failed pod (kill 1), 3 normal pods (kill 2)", s, 1, 3, 0, 3, 1));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("killFailedPods")
  void killFailedPods_upstreamTable(String name, DaemonSetUpdateStrategy strategy, int failed, int normal,
      int creates, int deletes, int events) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      DaemonSet d = h.create(ds("foo", strategy));
      h.addNodes(0, 1, null);
      h.addFailedPods("node-0", SIMPLE_DAEMON_SET_LABEL, d, failed);
      h.addPods("node-0", SIMPLE_DAEMON_SET_LABEL, d, normal);
      h.expectSync("foo", creates, deletes, events);
    }
  }

  // --- TestDaemonKillFailedPodsBackoff. Upstream's fake pod control cannot delete a pod it did not create, so its
  // failed pod stays for the second sync; here the store deletes it, and the kubelet's rejection that makes the
  // fight is played by adding a new failed pod after each sync.

  @ParameterizedTest
  @MethodSource("strategies")
  void killFailedPods_backsOffPerNode(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      DaemonSet d = h.create(ds("foo", strategy));
      h.addNodes(0, 1, null);
      h.addFailedPods("node-0", SIMPLE_DAEMON_SET_LABEL, d, 1);

      h.expectSync("foo", 0, 1, 1); // first sync deletes the pod, initializing backoff
      Duration initialDelay = h.controller.failedPodBackoff(d, "node-0");
      assertThat(initialDelay).isPositive();

      h.addFailedPods("node-0", SIMPLE_DAEMON_SET_LABEL, d, 1);
      h.expectSync("foo", 0, 0, 0); // an immediate second sync is held back
      assertThat(h.controller.failedPodBackoff(d, "node-0")).isEqualTo(initialDelay);

      h.clock.advance(initialDelay.minusNanos(1));
      h.expectSync("foo", 0, 0, 0); // just before the end of the delay: still held back
      h.clock.advance(Duration.ofNanos(1));
      h.expectSync("foo", 0, 1, 1); // after the delay it deletes the failed pod
      assertThat(h.controller.failedPodBackoff(d, "node-0")).isEqualTo(initialDelay.multipliedBy(2));
    }
  }

  // --- TestNoScheduleTaintedDoesntEvicitRunningIntolerantPod, TestNoExecuteTaintedDoesEvicitRunningIntolerantPod,
  // TestTaintedNodeDaemonDoesNotLaunchIntolerantPod, TestTaintedNodeDaemonLaunchesToleratePod

  @ParameterizedTest
  @MethodSource("strategies")
  void noScheduleTaint_keepsRunningIntolerantPod(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      DaemonSet d = h.create(ds("intolerant", strategy));
      h.addNode(DaemonSetHarness.tainted(newNode("tainted", null), NO_SCHEDULE));
      h.addPod(h.newPod("keep-running-me", "tainted", SIMPLE_DAEMON_SET_LABEL, d));
      h.expectSync("intolerant", 0, 0, 0);
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void noExecuteTaint_evictsRunningIntolerantPod(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      DaemonSet d = h.create(ds("intolerant", strategy));
      h.addNode(DaemonSetHarness.tainted(newNode("tainted", null), NO_EXECUTE));
      h.addPod(h.newPod("stop-running-me", "tainted", SIMPLE_DAEMON_SET_LABEL, d));
      h.expectSync("intolerant", 0, 1, 0);
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void taintedNode_noPodForIntolerantSet(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      h.addNode(DaemonSetHarness.tainted(newNode("tainted", null), NO_SCHEDULE));
      h.create(ds("intolerant", strategy));
      h.expectSync("intolerant", 0, 0, 0);
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void taintedNode_podForTolerantSet(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      h.addNode(DaemonSetHarness.tainted(newNode("tainted", null), NO_SCHEDULE));
      h.create(withPodSpec(ds("tolerate", strategy), podSpec(b -> b.toleration(NO_SCHEDULE_TOLERATION))));
      h.expectSync("tolerate", 1, 0, 0);
    }
  }

  // --- TestNotReadyNodeDaemonLaunchesPod, TestUnreachableNodeDaemonLaunchesPod, TestNodeDaemonLaunchesToleratePod

  @ParameterizedTest
  @MethodSource("strategies")
  void notReadyTaintedNode_launchesPod(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      h.addNode(DaemonSetHarness.tainted(DaemonSetHarness.withCondition(newNode("tainted", null),
          NodeCondition.READY, ConditionStatus.False), new Taint(DaemonSetPods.TAINT_NOT_READY, "",
          TaintEffect.NoExecute, h.clock.now())));
      h.create(ds("simple", strategy));
      h.expectSync("simple", 1, 0, 0);
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void unreachableTaintedNode_launchesPod(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      h.addNode(DaemonSetHarness.tainted(DaemonSetHarness.withCondition(newNode("tainted", null),
          NodeCondition.READY, ConditionStatus.Unknown), new Taint(DaemonSetPods.TAINT_UNREACHABLE, "",
          TaintEffect.NoExecute, h.clock.now())));
      h.create(ds("simple", strategy));
      h.expectSync("simple", 1, 0, 0);
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void untaintedNode_podForTolerantSet(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      h.addNodes(0, 1, null);
      h.create(withPodSpec(ds("tolerate", strategy), podSpec(b -> b.toleration(NO_SCHEDULE_TOLERATION))));
      h.expectSync("tolerate", 1, 0, 0);
    }
  }

  // --- TestDaemonSetRespectsTermination

  @ParameterizedTest
  @MethodSource("strategies")
  void terminatingPod_isWaitedFor(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      DaemonSet d = h.create(ds("foo", strategy));
      h.addNodes(0, 1, SIMPLE_NODE_LABEL);
      Pod p = h.newPod("node-0-", "node-0", SIMPLE_DAEMON_SET_LABEL, d);
      h.addPod(p.withMetadata(p.metadata().toBuilder().finalizer("test/hold").build()));
      h.store.delete(Pod.class, "default", p.metadata().name());
      h.expectSync("foo", 0, 0, 0);
    }
  }

  // --- TestTaintPressureNodeDaemonLaunchesPod

  @ParameterizedTest
  @MethodSource("strategies")
  void pressureTaints_tolerated(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      Node.Builder n = newNode("resources-pressure", null).conditions(List.of(
          new NodeCondition(NodeCondition.DISK_PRESSURE, ConditionStatus.True, "", "", null, null),
          new NodeCondition(NodeCondition.MEMORY_PRESSURE, ConditionStatus.True, "", "", null, null),
          new NodeCondition(NodeCondition.PID_PRESSURE, ConditionStatus.True, "", "", null, null)));
      h.addNode(DaemonSetHarness.tainted(n, Taint.of(DaemonSetPods.TAINT_DISK_PRESSURE, "", TaintEffect.NoSchedule),
          Taint.of(DaemonSetPods.TAINT_MEMORY_PRESSURE, "", TaintEffect.NoSchedule),
          Taint.of(DaemonSetPods.TAINT_PID_PRESSURE, "", TaintEffect.NoSchedule)));
      // upstream's setDaemonSetCritical: priority system-critical (its namespace kube-system plays no part here)
      DaemonSet d = ds("critical", strategy);
      d = withPodSpec(d, d.spec().template().spec().withPriority(2_000_000_000));
      h.create(d.withMetadata(d.metadata().toBuilder().namespace("default").build()));
      h.expectSync("critical", 1, 0, 0);
    }
  }

  // --- TestNodeShouldRunDaemonPod (its 11 cases under both strategies)

  record ShouldRunCase(String predicateName, PodSpec spec, boolean nodeUnschedulable, boolean shouldRun,
      boolean shouldContinueRunning) {
    @Override
    public String toString() {
      return predicateName;
    }
  }

  static Stream<Arguments> nodeShouldRunDaemonPod() {
    PodSpec hostPort = hostPortSpec("", 666);
    List<ShouldRunCase> cases = List.of(
        new ShouldRunCase("ShouldRunDaemonPod", resourcePodSpec("", "50M", "0.5"), false, true, true),
        new ShouldRunCase("InsufficientResourceError", resourcePodSpec("", "200M", "0.5"), false, true, true),
        new ShouldRunCase("ErrPodNotMatchHostName", resourcePodSpec("other-node", "50M", "0.5"), false, false,
            false),
        new ShouldRunCase("ErrPodNotFitsHostPorts", hostPort, false, true, true),
        new ShouldRunCase("InsufficientResourceError", resourcePodSpec("", "100M", "0.5"), false, true, true),
        new ShouldRunCase("ShouldRunDaemonPod", resourcePodSpec("", "50M", "0.5"), false, true, true),
        new ShouldRunCase("ErrNodeSelectorNotMatch", podSpec(b -> b.nodeSelector(SIMPLE_DAEMON_SET_LABEL2)), false,
            false, false),
        new ShouldRunCase("ShouldRunDaemonPod", podSpec(b -> b.nodeSelector(SIMPLE_DAEMON_SET_LABEL)), false, true,
            true),
        new ShouldRunCase("ErrPodAffinityNotMatch", podSpec(b -> b.affinity(requiredAffinity(new NodeSelectorTerm(
            List.of(new NodeSelectorRequirement("type", NodeSelectorOperator.In, List.of("test"))), List.of())))),
            false, false, false),
        new ShouldRunCase("ShouldRunDaemonPod", podSpec(b -> b.affinity(requiredAffinity(new NodeSelectorTerm(
            List.of(new NodeSelectorRequirement("type", NodeSelectorOperator.In, List.of("production"))),
            List.of())))), false, true, true),
        new ShouldRunCase("ShouldRunDaemonPodOnUnschedulableNode", resourcePodSpec("", "50M", "0.5"), true, true,
            true));
    List<Arguments> out = new ArrayList<>();
    for (int i = 0; i < cases.size(); i++) {
      for (DaemonSetUpdateStrategy s : DaemonSetHarness.STRATEGIES) {
        out.add(Arguments.of(i, cases.get(i), s));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "[{0}] {1} {2}")
  @MethodSource("nodeShouldRunDaemonPod")
  void nodeShouldRunDaemonPod_upstreamTable(int index, ShouldRunCase c, DaemonSetUpdateStrategy strategy) {
    Node.Builder nb = newNode("test-node", SIMPLE_DAEMON_SET_LABEL).allocatable(ResourceList.of(Map.of(
        "memory", Quantity.parse("100M"), "cpu", Quantity.parse("1"), "pods", Quantity.parse("100"))))
        .unschedulable(c.nodeUnschedulable());
    if (c.nodeUnschedulable()) {
      nb.taint(Taint.of(DaemonSetPods.TAINT_UNSCHEDULABLE, "", TaintEffect.NoSchedule)); // what the node controller adds
    }
    DaemonSet d = withPodSpec(ds("foo", strategy), c.spec());
    DaemonSetPlacement.ShouldRun got = DaemonSetPlacement.nodeShouldRunDaemonPod(nb.build(), d);
    assertThat(got.shouldRun()).as("shouldRun").isEqualTo(c.shouldRun());
    assertThat(got.shouldContinueRunning()).as("shouldContinueRunning").isEqualTo(c.shouldContinueRunning());
  }

  // --- TestUpdateNode (4 cases under both strategies)

  static Stream<Arguments> updateNode() {
    List<Arguments> out = new ArrayList<>();
    for (DaemonSetUpdateStrategy s : DaemonSetHarness.STRATEGIES) {
      out.add(Arguments.of("Nothing changed, should not enqueue", s, newNode("node1", null).build(),
          newNode("node1", null).build(), podSpec(b -> b.nodeSelector(SIMPLE_NODE_LABEL)), false, 0));
      out.add(Arguments.of("Node labels changed", s, newNode("node1", null).build(),
          newNode("node1", SIMPLE_NODE_LABEL).build(), podSpec(b -> b.nodeSelector(SIMPLE_NODE_LABEL)), true, 0));
      out.add(Arguments.of("Node taints changed", s, newNode("node1", null).taint(NO_SCHEDULE).build(),
          newNode("node1", null).build(), DaemonSetHarness.podSpec(), true, 0));
      out.add(Arguments.of("Node Allocatable changed", s, newNode("node1", null).build(),
          newNode("node1", null).allocatable(ResourceList.of(Map.of("memory", Quantity.parse("200M"),
              "cpu", Quantity.parse("200m")))).build(), resourcePodSpec("", "200M", "200m"), false, 1));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("updateNode")
  void updateNode_upstreamTable(String name, DaemonSetUpdateStrategy strategy, Node oldNode, Node newNode,
      PodSpec spec, boolean shouldEnqueue, int creates) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      Node stored = h.addNode(oldNode);
      h.create(withPodSpec(ds("ds", strategy), spec));
      h.expectSync("ds", creates, 0, 0);
      Sim.drain(h.controller.controller());
      h.store.update(newNode.withMetadata(newNode.metadata().toBuilder()
          .resourceVersion(stored.metadata().resourceVersion()).uid(stored.metadata().uid()).build()));
      assertThat(Sim.drain(h.controller.controller()).contains(ObjectKey.of("default", "ds")))
          .isEqualTo(shouldEnqueue);
    }
  }

  // --- TestDeleteNoDaemonPod (3 cases under both strategies)

  static Stream<Arguments> deleteNoDaemonPod() {
    List<Arguments> out = new ArrayList<>();
    for (DaemonSetUpdateStrategy s : DaemonSetHarness.STRATEGIES) {
      out.add(Arguments.of("Deleted non-daemon pods to release resources", s, false, "node1"));
      out.add(Arguments.of("Deleted non-daemon pods (with controller) to release resources", s, true, "node1"));
      out.add(Arguments.of("Deleted no scheduled pods", s, true, ""));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("deleteNoDaemonPod")
  void deleteNoDaemonPod_doesNotEnqueue(String name, DaemonSetUpdateStrategy strategy, boolean withController,
      String deletedNode) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      h.addNode(newNode("node1", null).allocatable(ResourceList.of(Map.of("memory", Quantity.parse("200M"),
          "cpu", Quantity.parse("200m")))).build());
      h.create(withPodSpec(ds("ds", strategy), resourcePodSpec("", "50M", "50m")));
      DaemonSet other = h.create(newDaemonSet("other-owner").matchLabels(Map.of("other", "owner")).build());
      for (int i = 0; i < 4; i++) {
        ObjectMeta.Builder m = ObjectMeta.builder().namespace("default").name("pod-" + i);
        if (withController) {
          m.ownerReference(OwnerReference.controllerOf(other));
        }
        h.addPod(Pod.of(m.build(), resourcePodSpec(i == 0 ? deletedNode : "node1", "50M", "50m")));
      }
      h.expectSync("ds", 1, 0, 0);
      Sim.drain(h.controller.controller());
      h.store.delete(Pod.class, "default", "pod-0");
      assertThat(Sim.drain(h.controller.controller())).doesNotContain(ObjectKey.of("default", "ds"));
    }
  }

  // --- TestDeleteUnscheduledPodForNotExistingNode

  @ParameterizedTest
  @MethodSource("strategies")
  void unscheduledPodForMissingNode_deleted(DaemonSetUpdateStrategy strategy) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      DaemonSet d = h.create(ds("foo", strategy));
      h.addNodes(0, 1, null);
      h.addPods("node-0", SIMPLE_DAEMON_SET_LABEL, d, 1);
      h.addPods("node-1", SIMPLE_DAEMON_SET_LABEL, d, 1);
      Pod p = h.newPod("pod1-node-3", "", SIMPLE_DAEMON_SET_LABEL, d);
      h.addPod(new Pod(p.metadata(), p.spec().toBuilder().affinity(DaemonSetPods.replaceNodeNameNodeAffinity(null,
          "node-2")).build(), p.status()));
      h.expectSync("foo", 0, 1, 0);
    }
  }

  // --- TestGetNodesToDaemonPods (2 cases): the claimed pods by node, deleted terminal pods left out or included

  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
  void getNodesToDaemonPods_upstreamTable(boolean includeDeletedTerminal) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      DaemonSet d = h.create(newDaemonSet("foo").build());
      DaemonSet d2 = h.create(newDaemonSet("foo2").build());
      h.addNodes(0, 2, null);
      List<String> wanted = new ArrayList<>();
      List<String> ignored = new ArrayList<>();
      wanted.add(h.addPod(h.newPod("matching-owned-0-", "node-0", SIMPLE_DAEMON_SET_LABEL, d)).metadata().name());
      wanted.add(h.addPod(h.newPod("matching-orphan-0-", "node-0", SIMPLE_DAEMON_SET_LABEL, null)).metadata().name());
      wanted.add(h.addPod(h.newPod("matching-owned-1-", "node-1", SIMPLE_DAEMON_SET_LABEL, d)).metadata().name());
      wanted.add(h.addPod(h.newPod("matching-orphan-1-", "node-1", SIMPLE_DAEMON_SET_LABEL, null)).metadata().name());
      Pod succeeded = h.newPod("matching-owned-succeeded-pod-0-", "node-0", SIMPLE_DAEMON_SET_LABEL, d);
      wanted.add(h.addPod(succeeded.withStatus(succeeded.status().withPhase(PodPhase.Succeeded))).metadata().name());
      ignored.add(h.addPod(h.newPod("non-matching-owned-0-", "node-0", SIMPLE_DAEMON_SET_LABEL2, d)).metadata()
          .name());
      ignored.add(h.addPod(h.newPod("non-matching-orphan-1-", "node-1", SIMPLE_DAEMON_SET_LABEL2, null)).metadata()
          .name());
      ignored.add(h.addPod(h.newPod("matching-owned-by-other-0-", "node-0", SIMPLE_DAEMON_SET_LABEL, d2)).metadata()
          .name());
      if (includeDeletedTerminal) { // "include deleted terminal pods"
        wanted.add(deletedTerminal(h, h.newPod("matching-owned-failed-deleted-pod-1-", "node-1",
            SIMPLE_DAEMON_SET_LABEL, d), PodPhase.Failed));
      } else { // "exclude deleted terminal pods"
        Pod failed = h.newPod("matching-owned-failed-pod-1-", "node-1", SIMPLE_DAEMON_SET_LABEL, d);
        wanted.add(h.addPod(failed.withStatus(failed.status().withPhase(PodPhase.Failed))).metadata().name());
        ignored.add(deletedTerminal(h, h.newPod("matching-owned-succeeded-deleted-pod-0-", "node-0",
            SIMPLE_DAEMON_SET_LABEL, d), PodPhase.Succeeded));
        ignored.add(deletedTerminal(h, h.newPod("matching-owned-failed-deleted-pod-1-", "node-1",
            SIMPLE_DAEMON_SET_LABEL, d), PodPhase.Failed));
      }
      ControllerRefManagerClaim claim = new ControllerRefManagerClaim(h, d);
      Map<String, List<Pod>> byNode = DaemonSetPods.byNode(claim.claimed, includeDeletedTerminal);
      Set<String> got = new TreeSet<>();
      byNode.forEach((node, pods) -> pods.forEach(p -> {
        assertThat(DaemonSetPlacement.targetNodeName(p)).isEqualTo(node);
        got.add(p.metadata().name());
      }));
      assertThat(got).containsExactlyInAnyOrderElementsOf(wanted).doesNotContainAnyElementsOf(ignored);
    }
  }

  private static String deletedTerminal(DaemonSetHarness h, Pod p, PodPhase phase) {
    Pod stored = h.addPod(p.withMetadata(p.metadata().toBuilder().finalizer("test/hold").build())
        .withStatus(p.status().withPhase(phase)));
    h.store.delete(Pod.class, "default", stored.metadata().name());
    return stored.metadata().name();
  }

  /** The set's claim over every pod of the namespace, as {@code getNodesToDaemonPods} claims before grouping. */
  private static final class ControllerRefManagerClaim {
    final List<Pod> claimed;

    ControllerRefManagerClaim(DaemonSetHarness h, DaemonSet d) {
      var c = io.fleetkit.reconcile.controllers.internal.ControllerRefManager.forSync(h.store, d, d.spec().selector())
          .claim(h.store.list(Pod.class, "default").items());
      assertThat(c.failed()).isFalse();
      claimed = c.claimed();
    }
  }

  // --- TestAddNode

  @Test
  void addNode_enqueuesSetsThatShouldRunThere() {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      h.create(withPodSpec(newDaemonSet("ds").build(), podSpec(b -> b.nodeSelector(SIMPLE_NODE_LABEL))));
      h.start();
      Sim.drain(h.controller.controller());
      h.addNode(newNode("node1", null).build());
      assertThat(Sim.drain(h.controller.controller())).isEmpty();
      h.addNode(newNode("node2", SIMPLE_NODE_LABEL).build());
      assertThat(Sim.drain(h.controller.controller())).containsExactly(ObjectKey.of("default", "ds"));
    }
  }

  // --- TestAddPod, TestAddPodOrphan, TestUpdatePod, TestUpdatePodOrphanSameLabels, TestUpdatePodOrphanWithNewLabels,
  // TestUpdatePodChangeControllerRef, TestUpdatePodControllerRefRemoved, TestDeletePod, TestDeletePodOrphan

  private static final class PodEvents implements AutoCloseable {
    final DaemonSetHarness h = new DaemonSetHarness();
    final DaemonSet ds1;
    final DaemonSet ds2;

    PodEvents(DaemonSetUpdateStrategy strategy, boolean third) {
      ds1 = h.create(ds("foo1", strategy));
      ds2 = h.create(ds("foo2", strategy));
      if (third) {
        h.create(newDaemonSet("foo3").updateStrategy(strategy).matchLabels(SIMPLE_DAEMON_SET_LABEL2).build());
      }
      h.start();
      Sim.drain(h.controller.controller());
    }

    Set<String> queued() {
      Set<String> keys = new TreeSet<>();
      for (ObjectKey k : Sim.drain(h.controller.controller())) {
        keys.add(k.namespace() + "/" + k.name());
      }
      return keys;
    }

    @Override
    public void close() {
      h.close();
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void addPod_enqueuesItsController(DaemonSetUpdateStrategy strategy) {
    try (PodEvents e = new PodEvents(strategy, false)) {
      e.h.addPod(e.h.newPod("pod1-", "node-0", SIMPLE_DAEMON_SET_LABEL, e.ds1));
      assertThat(e.queued()).containsExactly("default/foo1");
      e.h.addPod(e.h.newPod("pod2-", "node-0", SIMPLE_DAEMON_SET_LABEL, e.ds2));
      assertThat(e.queued()).containsExactly("default/foo2");
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void addPodOrphan_enqueuesMatchingSets(DaemonSetUpdateStrategy strategy) {
    try (PodEvents e = new PodEvents(strategy, true)) {
      e.h.addPod(e.h.newPod("pod1-", "node-0", SIMPLE_DAEMON_SET_LABEL, null));
      assertThat(e.queued()).containsExactly("default/foo1", "default/foo2");
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void updatePod_enqueuesItsController(DaemonSetUpdateStrategy strategy) {
    try (PodEvents e = new PodEvents(strategy, false)) {
      Pod p1 = e.h.addPod(e.h.newPod("pod1-", "node-0", SIMPLE_DAEMON_SET_LABEL, e.ds1));
      Pod p2 = e.h.addPod(e.h.newPod("pod2-", "node-0", SIMPLE_DAEMON_SET_LABEL, e.ds2));
      e.queued();
      e.h.store.update(p1.withMetadata(p1.metadata().toBuilder().annotation("bump", "1").build()));
      assertThat(e.queued()).containsExactly("default/foo1");
      e.h.store.update(p2.withMetadata(p2.metadata().toBuilder().annotation("bump", "1").build()));
      assertThat(e.queued()).containsExactly("default/foo2");
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void updatePodOrphanSameLabels_enqueuesNothing(DaemonSetUpdateStrategy strategy) {
    try (PodEvents e = new PodEvents(strategy, false)) {
      Pod p = e.h.addPod(e.h.newPod("pod1-", "node-0", SIMPLE_DAEMON_SET_LABEL, null));
      e.queued();
      e.h.store.update(p.withMetadata(p.metadata().toBuilder().annotation("bump", "1").build()));
      assertThat(e.queued()).isEmpty();
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void updatePodOrphanWithNewLabels_enqueuesMatchingSets(DaemonSetUpdateStrategy strategy) {
    try (PodEvents e = new PodEvents(strategy, false)) {
      Pod p = e.h.addPod(e.h.newPod("pod1-", "node-0", Map.of("foo2", "bar2"), null));
      e.queued();
      e.h.store.update(p.withMetadata(p.metadata().toBuilder().labels(SIMPLE_DAEMON_SET_LABEL).build()));
      assertThat(e.queued()).containsExactly("default/foo1", "default/foo2");
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void updatePodChangeControllerRef_enqueuesOldAndNewController(DaemonSetUpdateStrategy strategy) {
    try (PodEvents e = new PodEvents(strategy, false)) {
      Pod p = e.h.addPod(e.h.newPod("pod1-", "node-0", SIMPLE_DAEMON_SET_LABEL, e.ds2));
      e.queued();
      e.h.store.update(p.withMetadata(p.metadata().toBuilder()
          .ownerReferences(List.of(OwnerReference.controllerOf(e.ds1))).build()));
      assertThat(e.queued()).containsExactly("default/foo1", "default/foo2");
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void updatePodControllerRefRemoved_enqueuesOldControllerAndMatchingSets(DaemonSetUpdateStrategy strategy) {
    try (PodEvents e = new PodEvents(strategy, false)) {
      Pod p = e.h.addPod(e.h.newPod("pod1-", "node-0", SIMPLE_DAEMON_SET_LABEL, e.ds1));
      e.queued();
      e.h.store.update(p.withMetadata(p.metadata().toBuilder().ownerReferences(List.of()).build()));
      assertThat(e.queued()).containsExactly("default/foo1", "default/foo2");
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void deletePod_enqueuesItsController(DaemonSetUpdateStrategy strategy) {
    try (PodEvents e = new PodEvents(strategy, false)) {
      Pod p1 = e.h.addPod(e.h.newPod("pod1-", "node-0", SIMPLE_DAEMON_SET_LABEL, e.ds1));
      Pod p2 = e.h.addPod(e.h.newPod("pod2-", "node-0", SIMPLE_DAEMON_SET_LABEL, e.ds2));
      e.queued();
      e.h.store.delete(Pod.class, "default", p1.metadata().name());
      assertThat(e.queued()).containsExactly("default/foo1");
      e.h.store.delete(Pod.class, "default", p2.metadata().name());
      assertThat(e.queued()).containsExactly("default/foo2");
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void deletePodOrphan_enqueuesNothing(DaemonSetUpdateStrategy strategy) {
    try (PodEvents e = new PodEvents(strategy, true)) {
      Pod p = e.h.addPod(e.h.newPod("pod1-", "node-0", SIMPLE_DAEMON_SET_LABEL, null));
      e.queued();
      e.h.store.delete(Pod.class, "default", p.metadata().name());
      assertThat(e.queued()).isEmpty();
    }
  }

  // --- TestSurgeDealsWithExistingPods, TestSurgePreservesReadyOldPods,
  // TestSurgeCreatesNewPodWhenAtMaxSurgeAndOldPodDeleted, TestSurgeDeletesUnreadyOldPods,
  // TestSurgePreservesOldReadyWithUnsatisfiedMinReady, TestSurgeDeletesOldReadyWithUnsatisfiedMinReady

  private static DaemonSet surgeSet(int minReadySeconds) {
    return newDaemonSet("foo").minReadySeconds(minReadySeconds).updateStrategy(DaemonSetHarness.surge(
        IntOrPercent.of(1))).build();
  }

  /** An old pod: the set's labels without the revision hash, created at {@code created}. */
  private static Pod old(Pod p) {
    Map<String, String> labels = new HashMap<>(p.metadata().labels());
    labels.remove(WorkloadLabels.CONTROLLER_REVISION_HASH);
    return p.withMetadata(p.metadata().toBuilder().labels(labels).build());
  }

  private static Set<String> deleted(DaemonSetHarness h) {
    return new TreeSet<>(h.podControl.deletePodNames);
  }

  @Test
  void surge_dealsWithExistingPods() {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      DaemonSet d = h.create(surgeSet(0));
      h.addNodes(0, 5, null);
      h.addPods("node-1", SIMPLE_DAEMON_SET_LABEL, d, 1);
      h.addPods("node-2", SIMPLE_DAEMON_SET_LABEL, d, 2);
      h.addPods("node-3", SIMPLE_DAEMON_SET_LABEL, d, 5);
      h.addPods("node-4", SIMPLE_DAEMON_SET_LABEL2, d, 2);
      h.expectSync("foo", 2, 5, 0);
    }
  }

  @Test
  void surge_preservesReadyOldPods() {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      DaemonSet d = h.create(surgeSet(0));
      h.addNodes(0, 5, null);
      // current hash: kept; the oldest old pod, ready: kept; a younger ready old pod: deleted
      h.addPod(h.newPod("node-1-", "node-1", SIMPLE_DAEMON_SET_LABEL, d));
      h.clock.advance(Duration.ofSeconds(1));
      h.addPod(DaemonSetHarness.ready(old(h.newPod("node-1-old-", "node-1", SIMPLE_DAEMON_SET_LABEL, d)), null));
      h.clock.advance(Duration.ofSeconds(1));
      Pod oldReady = h.addPod(DaemonSetHarness.ready(old(h.newPod("node-1-delete-", "node-1",
          SIMPLE_DAEMON_SET_LABEL, d)), null));
      h.addPods("node-2", SIMPLE_DAEMON_SET_LABEL, d, 1);
      h.expectSync("foo", 3, 1, 0);
      assertThat(deleted(h)).containsExactly(oldReady.metadata().name());
    }
  }

  @Test
  void surge_createsNewPodWhenAtMaxSurgeAndOldPodDeleted() {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      DaemonSet d = h.create(surgeSet(0));
      h.addNodes(0, 5, null);
      // old ready pods everywhere, the oldest first
      for (int i = 1; i < 5; i++) {
        Pod p = old(h.newPod("node-" + i + "-preserve-", "node-" + i, SIMPLE_DAEMON_SET_LABEL, d));
        if (i == 4) {
          p = p.withMetadata(p.metadata().toBuilder().finalizer("test/hold").build());
        }
        Pod stored = h.addPod(DaemonSetHarness.ready(p, null));
        if (i == 4) { // the last old pod is being deleted: its node needs a new pod even above the surge
          h.store.delete(Pod.class, "default", stored.metadata().name());
        }
      }
      h.clock.advance(Duration.ofSeconds(49));
      h.addPod(DaemonSetHarness.ready(old(h.newPod("node-0-old-ready-", "node-0", SIMPLE_DAEMON_SET_LABEL, d)),
          null));
      h.clock.advance(Duration.ofSeconds(50));
      // the newest hash, not ready: consumes the surge budget
      h.addPod(DaemonSetHarness.notReady(h.newPod("node-0-", "node-0", SIMPLE_DAEMON_SET_LABEL, d)));
      h.expectSync("foo", 1, 0, 0);
    }
  }

  @Test
  void surge_deletesUnreadyOldPods() {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      DaemonSet d = h.create(surgeSet(0));
      h.addNodes(0, 5, null);
      Pod oldUnready = h.addPod(DaemonSetHarness.notReady(old(h.newPod("node-1-old-unready-", "node-1",
          SIMPLE_DAEMON_SET_LABEL, d))));
      h.clock.advance(Duration.ofSeconds(10));
      Pod oldReady = h.addPod(DaemonSetHarness.ready(old(h.newPod("node-1-delete-", "node-1",
          SIMPLE_DAEMON_SET_LABEL, d)), null));
      h.clock.advance(Duration.ofSeconds(40));
      h.addPod(h.newPod("node-1-", "node-1", SIMPLE_DAEMON_SET_LABEL, d));
      h.addPods("node-2", SIMPLE_DAEMON_SET_LABEL, d, 1);
      h.expectSync("foo", 3, 2, 0);
      assertThat(deleted(h)).containsExactlyInAnyOrder(oldReady.metadata().name(), oldUnready.metadata().name());
    }
  }

  /** The two minReadySeconds cases: the newest pod went ready {@code readyFor} before the sync. */
  private static void surgeWithMinReady(Duration readyFor, boolean oldReadyDeleted) {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      DaemonSet d = h.create(surgeSet(15));
      h.addNodes(0, 5, null);
      Instant t50 = h.clock.now(); // upstream's times 50, 60 and 100 only order the pods; the sync is at 50+readyFor
      Pod oldReady = h.addPod(DaemonSetHarness.ready(old(h.newPod("node-1-old-ready-", "node-1",
          SIMPLE_DAEMON_SET_LABEL, d)), null));
      h.clock.advance(Duration.ofMillis(1));
      Pod oldExcess = h.addPod(DaemonSetHarness.ready(old(h.newPod("node-1-delete-", "node-1",
          SIMPLE_DAEMON_SET_LABEL, d)), null));
      h.clock.advance(Duration.ofMillis(1));
      h.addPod(DaemonSetHarness.ready(h.newPod("node-1-", "node-1", SIMPLE_DAEMON_SET_LABEL, d), t50));
      h.addPods("node-2", SIMPLE_DAEMON_SET_LABEL, d, 1);
      h.clock.advanceTo(t50.plus(readyFor));
      h.expectSync("foo", 3, oldReadyDeleted ? 2 : 1, 0);
      if (oldReadyDeleted) {
        assertThat(deleted(h)).containsExactlyInAnyOrder(oldExcess.metadata().name(), oldReady.metadata().name());
      } else {
        assertThat(deleted(h)).containsExactly(oldExcess.metadata().name());
      }
    }
  }

  @Test
  void surge_preservesOldReadyWithUnsatisfiedMinReady() {
    surgeWithMinReady(Duration.ofSeconds(10), false);
  }

  @Test
  void surge_deletesOldReadyWithSatisfiedMinReady() {
    surgeWithMinReady(Duration.ofSeconds(20), true);
  }

  // --- TestShouldIgnoreNodeUpdate

  @Test
  void shouldIgnoreNodeUpdate_upstreamTable() {
    Node plain = newNode("node1", null).build();
    assertThat(io.fleetkit.reconcile.controllers.internal.DaemonSetNodeEvents.shouldIgnoreNodeUpdate(plain,
        newNode("node1", null).build())).as("Nothing changed").isTrue();
    assertThat(io.fleetkit.reconcile.controllers.internal.DaemonSetNodeEvents.shouldIgnoreNodeUpdate(plain,
        newNode("node1", SIMPLE_NODE_LABEL).build())).as("Node labels changed").isFalse();
    assertThat(io.fleetkit.reconcile.controllers.internal.DaemonSetNodeEvents.shouldIgnoreNodeUpdate(
        newNode("node1", null).taint(NO_SCHEDULE).build(), plain)).as("Node taints changed").isFalse();
  }

  @Test
  void shouldIgnoreNodeUpdate_sameImagesNewResourceVersion_ignored_changedImages_not() {
    io.fleetkit.api.core.ContainerImage pause = io.fleetkit.api.core.ContainerImage.of(321520, "pause:3.9");
    Node old = newNode("node1", null).image(pause).build();
    Node posted = old.withMetadata(old.metadata().toBuilder().resourceVersion("7").build());
    assertThat(io.fleetkit.reconcile.controllers.internal.DaemonSetNodeEvents.shouldIgnoreNodeUpdate(old, posted))
        .isTrue();
    assertThat(io.fleetkit.reconcile.controllers.internal.DaemonSetNodeEvents.shouldIgnoreNodeUpdate(old,
        newNode("node1", null).build())).isFalse();
  }

  @Test
  void podPhaseFixture_failedPodsAreFailed() {
    try (DaemonSetHarness h = new DaemonSetHarness()) {
      DaemonSet d = h.create(newDaemonSet("foo").build());
      h.addFailedPods("node-0", SIMPLE_DAEMON_SET_LABEL, d, 1);
      assertThat(h.pods()).singleElement().satisfies(p -> assertThat(p.status().phase()).isEqualTo(PodPhase.Failed));
    }
  }
}
