package io.fleetkit.autoscale.provisioner;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.policy.PodDisruptionBudgetSpec;
import io.fleetkit.api.policy.PodDisruptionBudgetStatus;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.autoscale.cluster.simulator.SimulatedNodes;
import io.fleetkit.reconcile.controllers.Evictions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The termination of the provisioner's nodes against Karpenter's {@code pkg/controllers/node/termination/suite_test.go}
 * (kubernetes-sigs/karpenter 2266468), Describe "Termination", Context "Reconciliation"; each test names its case. A
 * FleetKit node stands for its NodeClaim; upstream's {@code Delete(node)} is the node's expiration (expireAfter 1 s,
 * whatever budgets and do-not-disrupt, as upstream's deletion), the termination controller's and queue's reconciles are
 * the provisioner's loops, and upstream's {@code ExpectDeleted(pod)} (the kubelet's part) is {@link #podEnds}.
 * Consolidation is off ({@code consolidateAfter: Never}) so that only the terminations under test run.
 */
final class ProvisionerTerminationUpstreamTest {
  private static final long GI = 1024L * 1024 * 1024;
  private static final OwnerReference RS = new OwnerReference("apps/v1", "ReplicaSet", "web", "rs-1", true, true);
  private static final InstanceType LARGE = new InstanceType("m.large", ResourceList.builder()
      .put("cpu", Quantity.ofMilli(8000)).put("memory", Quantity.ofBytes(32 * GI)).put("pods", Quantity.of(110))
      .build(), Map.of("kubernetes.io/arch", "amd64"), List.of(), 0.096);
  private static final Duration EXPIRE = Duration.ofSeconds(1);

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();

  @AfterEach
  void close() {
    store.close();
  }

  private Provisioner provisioner(@Nullable Duration terminationGracePeriod) {
    return Provisioner.builder(store).clock(clock).instanceType(LARGE).options(ProvisionerOptions.defaults()
        .withConsolidateAfter(null).withExpireAfter(EXPIRE).withTerminationGracePeriod(terminationGracePeriod))
        .build();
  }

  private void node(String name) {
    store.create(SimulatedNodes.launched(Packer.node(LARGE, name).toBuilder()
        .label(Provisioner.MANAGED_LABEL, "default").build(), clock.now(), Duration.ZERO));
  }

  /** A Running, Ready pod on {@code node} owned by {@code owner}, changed by {@code change}. */
  private Pod pod(String name, String node, OwnerReference owner, UnaryOperator<Pod.Builder> change) {
    Pod p = store.create(change.apply(Pod.builder().name(name).ownerReference(owner).nodeName(node)
        .container("app", "img", ResourceList.ofCpuMemory(100, GI))).build());
    return store.updateStatus(p.withStatus(p.status().withPhase(PodPhase.Running).withConditionUpdated(
        PodCondition.of(PodCondition.READY, ConditionStatus.True, "", "", clock.now()))));
  }

  /** A Running, Ready pod of a ReplicaSet (upstream's {@code defaultOwnerRefs}). */
  private Pod pod(String name, String node, UnaryOperator<Pod.Builder> change) {
    return pod(name, node, RS, change);
  }

  private Pod pod(String name, String node) {
    return pod(name, node, b -> b);
  }

  /** Upstream's {@code Delete(node)}: the node expires, its termination begins in this loop. */
  private ProvisionerResult terminate(Provisioner p) {
    clock.advance(EXPIRE);
    ProvisionerResult r = p.runOnce();
    assertThat(r.expiredNodes()).isNotEmpty();
    return r;
  }

  private ProvisionerResult loopAfter(Provisioner p, Duration d) {
    clock.advance(d);
    return p.runOnce();
  }

  /** The kubelet's part: the pod (being deleted) ends. */
  private void podEnds(String name) {
    store.delete(Pod.class, "default", name, DeleteOptions.gracePeriod(0));
  }

  private boolean terminating(String pod) {
    return store.require(Pod.class, "default", pod).metadata().deletionTimestamp() != null;
  }

  private boolean nodeExists(String node) {
    return store.get(Node.class, "", node).isPresent();
  }

  @Test
  void shouldDeleteNodes() {
    // upstream: "should delete nodes"
    node("n");
    Provisioner p = provisioner(null);
    terminate(p);
    assertThat(loopAfter(p, Duration.ofSeconds(10)).deletedNodes()).containsExactly("n");
    assertThat(nodeExists("n")).isFalse();
  }

  @Test
  void shouldIgnoreNodesNotManagedByThisKarpenterInstance() {
    // upstream: "should ignore nodes not managed by this Karpenter instance": a node of no provisioner, even tainted
    // as one being terminated, is left alone
    store.create(Packer.node(LARGE, "other").toBuilder().taint(io.fleetkit.api.scheduling.Taint.of(
        NodeTermination.DISRUPTED_TAINT_KEY, "", TaintEffect.NoSchedule)).build());
    pod("a", "other");
    Provisioner p = provisioner(null);
    assertThat(loopAfter(p, Duration.ofMinutes(1)).drainEvents()).isEmpty();
    assertThat(nodeExists("other")).isTrue();
    assertThat(terminating("a")).isFalse();
  }

  @Test
  void shouldNotRaceIfDeletingNodesInParallel() {
    // upstream: "should not race if deleting nodes in parallel" (10 nodes)
    for (int i = 0; i < 10; i++) {
      node("n" + i);
    }
    Provisioner p = provisioner(null);
    assertThat(terminate(p).expiredNodes()).hasSize(10);
    assertThat(loopAfter(p, Duration.ofSeconds(10)).deletedNodes()).hasSize(10);
    assertThat(store.list(Node.class).items()).isEmpty();
  }

  @Test
  void shouldNotEvictPodsThatTolerateTheDisruptionTaint_equalAndExistsOperators() {
    // upstream: "should not evict pods that tolerate karpenter disruption taint with equal operator", "... with exists
    // operator"
    node("n");
    pod("evict", "n");
    pod("skip-equal", "n", b -> b.toleration(Toleration.equal(NodeTermination.DISRUPTED_TAINT_KEY, "",
        TaintEffect.NoSchedule)));
    pod("skip-exists", "n", b -> b.toleration(Toleration.exists(NodeTermination.DISRUPTED_TAINT_KEY,
        TaintEffect.NoSchedule)));
    Provisioner p = provisioner(null);
    ProvisionerResult r = terminate(p);
    assertThat(r.drainEvents()).extracting(DrainEvent::pod).containsExactly("default/evict");
    assertThat(terminating("evict")).isTrue();
    assertThat(terminating("skip-equal")).isFalse();
    assertThat(terminating("skip-exists")).isFalse();
    podEnds("evict");
    assertThat(loopAfter(p, Duration.ofSeconds(10)).deletedNodes()).containsExactly("n");
  }

  @Test
  void shouldEvictPodsThatTolerateTheUnschedulableTaint() {
    // upstream: "should evict pods that tolerate the node.kubernetes.io/unschedulable taint"
    node("n");
    pod("evict", "n", b -> b.toleration(Toleration.exists("node.kubernetes.io/unschedulable",
        TaintEffect.NoSchedule)));
    Provisioner p = provisioner(null);
    terminate(p);
    assertThat(terminating("evict")).isTrue();
    assertThat(loopAfter(p, Duration.ofSeconds(10)).deletedNodes()).as("still terminating").isEmpty();
    podEnds("evict");
    assertThat(loopAfter(p, Duration.ofSeconds(10)).deletedNodes()).containsExactly("n");
  }

  @Test
  void shouldDeleteNodesThatHavePodsWithoutAnOwnerRef() {
    // upstream: "should delete nodes that have pods without an ownerRef"
    node("n");
    store.create(Pod.builder().name("bare").nodeName("n").container("app", "img", ResourceList.ofCpuMemory(100, GI))
        .build());
    Provisioner p = provisioner(null);
    terminate(p);
    assertThat(terminating("bare")).isTrue();
    assertThat(nodeExists("n")).isTrue();
    podEnds("bare");
    assertThat(loopAfter(p, Duration.ofSeconds(10)).deletedNodes()).containsExactly("n");
  }

  @Test
  void shouldDeleteNodesWithTerminalPods() {
    // upstream: "should delete nodes with terminal pods"
    node("n");
    for (PodPhase phase : List.of(PodPhase.Succeeded, PodPhase.Failed)) {
      Pod p = store.create(Pod.builder().name(phase.name().toLowerCase()).nodeName("n").container("app", "img",
          ResourceList.ofCpuMemory(100, GI)).build());
      store.updateStatus(p.withStatus(p.status().withPhase(phase)));
    }
    Provisioner p = provisioner(null);
    assertThat(terminate(p).drainEvents()).isEmpty();
    assertThat(loopAfter(p, Duration.ofSeconds(10)).deletedNodes()).containsExactly("n");
  }

  @Test
  void shouldFailToEvictPodsThatViolateAPdb() {
    // upstream: "should fail to evict pods that violate a PDB" (minAvailable 1 over its one pod: no disruption)
    node("n");
    pod("no-evict", "n", b -> b.label("app", "db"));
    PodDisruptionBudget pdb = store.create(PodDisruptionBudget.of(ObjectMeta.of("default", "db"),
        new PodDisruptionBudgetSpec(IntOrPercent.ONE, LabelSelector.of(Map.of("app", "db")), null, null)));
    store.updateStatus(pdb.withStatus(new PodDisruptionBudgetStatus(pdb.metadata().generation(), Map.of(), 0, 1, 1, 1,
        List.of())));
    Provisioner p = provisioner(null);
    ProvisionerResult r = terminate(p);
    assertThat(r.drainEvents()).singleElement().satisfies(e -> {
      assertThat(e.kind()).isEqualTo(DrainEvent.Kind.EVICTION_REFUSED);
      assertThat(e.node()).isEqualTo("n");
      assertThat(e.message()).startsWith("Cannot evict pod as it would violate the pod's disruption budget.");
    });
    assertThat(terminating("no-evict")).isFalse();
    // retried: still refused (reported once), the node waits
    ProvisionerResult again = loopAfter(p, Duration.ofSeconds(10));
    assertThat(again.drainEvents()).isEmpty();
    assertThat(again.deletedNodes()).isEmpty();
    assertThat(terminating("no-evict")).isFalse();
    // the pod goes by other means: the node is deleted
    podEnds("no-evict");
    assertThat(loopAfter(p, Duration.ofSeconds(10)).deletedNodes()).containsExactly("n");
  }

  @Test
  void shouldExcludeNodesFromLoadBalancersWhenTerminating() {
    // upstream: "should exclude nodes from load balancers when terminating" (a fully blocking PDB keeps the node, the
    // label is there after the first reconcile, with the taint)
    node("n");
    pod("blocked", "n", b -> b.label("foo", "bar"));
    PodDisruptionBudget pdb = store.create(PodDisruptionBudget.of(ObjectMeta.of("default", "foo"),
        new PodDisruptionBudgetSpec(null, LabelSelector.of(Map.of("foo", "bar")), IntOrPercent.ZERO, null)));
    store.updateStatus(pdb.withStatus(new PodDisruptionBudgetStatus(pdb.metadata().generation(), Map.of(), 0, 1, 1, 1,
        List.of())));
    terminate(provisioner(null));
    Node n = store.require(Node.class, "", "n");
    assertThat(n.metadata().labels()).containsEntry(Node.LABEL_EXCLUDE_FROM_EXTERNAL_LOAD_BALANCERS, "karpenter");
    assertThat(NodeTermination.isTainted(n)).isTrue();
  }

  @Test
  void shouldEvictPodsInOrderAndWaitUntilPodsAreFullyDeleted() {
    // upstream: "should evict pods in order and wait until pods are fully deleted"
    node("n");
    pod("evict", "n");
    OwnerReference ds = new OwnerReference("apps/v1", "DaemonSet", "ds", "ds-1", true, true);
    pod("daemon-evict", "n", ds, b -> b);
    pod("node-critical", "n", b -> b.priorityClassName("system-node-critical"));
    pod("cluster-critical", "n", b -> b.priorityClassName("system-cluster-critical"));
    pod("daemon-node-critical", "n", ds, b -> b.priorityClassName("system-node-critical"));
    pod("daemon-cluster-critical", "n", ds, b -> b.priorityClassName("system-cluster-critical"));
    List<List<String>> groups = List.of(List.of("evict"), List.of("daemon-evict"),
        List.of("cluster-critical", "node-critical"), List.of("daemon-cluster-critical", "daemon-node-critical"));
    Provisioner p = provisioner(null);
    ProvisionerResult r = terminate(p);
    for (int i = 0; i < groups.size(); i++) {
      List<String> group = groups.get(i);
      assertThat(r.drainEvents()).as("group %d", i).extracting(DrainEvent::pod)
          .containsExactlyInAnyOrderElementsOf(group.stream().map(n -> "default/" + n).toList());
      group.forEach(n -> assertThat(terminating(n)).isTrue());
      if (i + 1 < groups.size()) {
        groups.get(i + 1).forEach(n -> assertThat(terminating(n)).as("next group %s", n).isFalse());
        // the group is being deleted but not gone: the next one waits
        assertThat(loopAfter(p, Duration.ofSeconds(1)).drainEvents()).isEmpty();
      }
      group.forEach(this::podEnds);
      r = loopAfter(p, Duration.ofSeconds(1));
    }
    assertThat(r.deletedNodes()).containsExactly("n");
  }

  @Test
  void shouldEvictNonCriticalPodsFirst() {
    // upstream: "should evict non-critical pods first"
    node("n");
    pod("evict", "n");
    pod("node-critical", "n", b -> b.priorityClassName("system-node-critical"));
    pod("cluster-critical", "n", b -> b.priorityClassName("system-cluster-critical"));
    Provisioner p = provisioner(null);
    assertThat(terminate(p).drainEvents()).extracting(DrainEvent::pod).containsExactly("default/evict");
    podEnds("evict");
    assertThat(loopAfter(p, Duration.ofSeconds(1)).drainEvents()).extracting(DrainEvent::pod)
        .containsExactlyInAnyOrder("default/node-critical", "default/cluster-critical");
    podEnds("node-critical");
    podEnds("cluster-critical");
    assertThat(loopAfter(p, Duration.ofSeconds(10)).deletedNodes()).containsExactly("n");
  }

  @Test
  void shouldNotEvictStaticPods() {
    // upstream: "should not evict static pods" (owned by the Node)
    node("n");
    pod("evict", "n");
    pod("static", "n", new OwnerReference("v1", "Node", "n", "node-uid", false, false), b -> b);
    Provisioner p = provisioner(null);
    assertThat(terminate(p).drainEvents()).extracting(DrainEvent::pod).containsExactly("default/evict");
    assertThat(terminating("static")).isFalse();
    podEnds("evict");
    assertThat(loopAfter(p, Duration.ofSeconds(10)).deletedNodes()).containsExactly("n");
    assertThat(store.get(Pod.class, "default", "static")).as("gone with its node").isEmpty();
  }

  @Test
  void shouldNotDeleteNodesUntilAllPodsAreDeleted() {
    // upstream: "should not delete nodes until all pods are deleted"
    node("n");
    pod("p0", "n");
    pod("p1", "n");
    Provisioner p = provisioner(null);
    terminate(p);
    assertThat(terminating("p0")).isTrue();
    assertThat(terminating("p1")).isTrue();
    assertThat(loopAfter(p, Duration.ofSeconds(10)).deletedNodes()).isEmpty();
    podEnds("p1");
    assertThat(loopAfter(p, Duration.ofSeconds(1)).deletedNodes()).isEmpty();
    assertThat(nodeExists("n")).isTrue();
    podEnds("p0");
    assertThat(loopAfter(p, Duration.ofSeconds(1)).deletedNodes()).containsExactly("n");
  }

  @Test
  void shouldBypassPodsWhichAreStuckTerminatingPastTheirGracePeriod() {
    // upstream: "should bypass pods which are stuck terminating past their grace period": the pod's deletion
    // timestamp (eviction + its 30 s) more than a minute ago
    node("n");
    pod("stuck", "n");
    Provisioner p = provisioner(null);
    terminate(p);
    assertThat(terminating("stuck")).isTrue();
    assertThat(loopAfter(p, Duration.ofSeconds(90)).deletedNodes()).as("exactly a minute past it").isEmpty();
    assertThat(loopAfter(p, Duration.ofSeconds(1)).deletedNodes()).containsExactly("n");
  }

  @Test
  void shouldNotEvictANewPodWithTheSameName() {
    // upstream: "should not evict a new pod with the same name using the old pod's eviction queue key"
    node("n");
    pod("test-pod", "n");
    Provisioner p = provisioner(null);
    terminate(p);
    podEnds("test-pod");
    assertThat(loopAfter(p, Duration.ofSeconds(10)).deletedNodes()).containsExactly("n");
    node("n2");
    Pod fresh = pod("test-pod", "n2");
    p.runOnce();
    assertThat(store.require(Pod.class, "default", "test-pod").metadata().uid()).isEqualTo(fresh.metadata().uid());
    assertThat(terminating("test-pod")).isFalse();
  }

  @Test
  void shouldPreemptivelyDeletePodsToSatisfyTheirTerminationGracePeriodSeconds() {
    // upstream: "should preemptively delete pods to satisfy their terminationGracePeriodSeconds" (node 300 s, pod
    // 300 s, do-not-disrupt): 10 s into the drain the pod is deleted, else it could not get its 300 s
    node("n");
    pod("p", "n", b -> b.annotation(Provisioner.DO_NOT_DISRUPT, "true").terminationGracePeriodSeconds(300));
    Provisioner p = provisioner(Duration.ofSeconds(300));
    assertThat(terminate(p).drainEvents()).isEmpty(); // the deadline minus 300 s is now: not yet past
    ProvisionerResult r = loopAfter(p, Duration.ofSeconds(10));
    assertThat(r.drainEvents()).containsExactly(new DrainEvent("n", "default/p", DrainEvent.Kind.DELETED,
        "granted 290s of its 300s terminationGracePeriodSeconds"));
    assertThat(nodeExists("n")).isTrue();
    assertThat(terminating("p")).isTrue();
    Pod deleted = store.require(Pod.class, "default", "p");
    assertThat(deleted.status().condition(PodCondition.DISRUPTION_TARGET)).as("deleted, not evicted").isNull();
  }

  @Test
  void shouldNotGatePastDeadlinePodsBehindGracefulEvictionOfEarlierTiers() {
    // upstream: "should not gate past-deadline pods behind graceful eviction of earlier tiers" (node 300 s; a
    // non-critical pod of 30 s, evicted; a critical one of 600 s, deleted at once)
    node("n");
    pod("non-critical", "n", b -> b.terminationGracePeriodSeconds(30));
    pod("critical", "n", b -> b.priorityClassName("system-node-critical").terminationGracePeriodSeconds(600));
    Provisioner p = provisioner(Duration.ofSeconds(300));
    ProvisionerResult r = terminate(p);
    assertThat(r.drainEvents()).containsExactlyInAnyOrder(
        new DrainEvent("n", "default/critical", DrainEvent.Kind.DELETED,
            "granted 300s of its 600s terminationGracePeriodSeconds"),
        new DrainEvent("n", "default/non-critical", DrainEvent.Kind.EVICTED, ""));
    assertThat(terminating("critical")).isTrue();
  }

  @Test
  void shouldOnlyDeletePodsWhenTheirGracePeriodIsLessThanTheNodesRemaining() {
    // upstream: "should only delete pods when their terminationGracePeriodSeconds is less than the the node's
    // remaining terminationGracePeriod" (node 300 s, pod 60 s, do-not-disrupt): kept at 90 s, deleted at 265 s
    node("n");
    pod("p", "n", b -> b.annotation(Provisioner.DO_NOT_DISRUPT, "true").terminationGracePeriodSeconds(60));
    Provisioner p = provisioner(Duration.ofSeconds(300));
    terminate(p);
    assertThat(loopAfter(p, Duration.ofSeconds(90)).drainEvents()).isEmpty();
    assertThat(terminating("p")).isFalse();
    assertThat(loopAfter(p, Duration.ofSeconds(150)).drainEvents()).as("240 s: exactly its 60 s left").isEmpty();
    ProvisionerResult r = loopAfter(p, Duration.ofSeconds(25));
    assertThat(r.drainEvents()).containsExactly(new DrainEvent("n", "default/p", DrainEvent.Kind.DELETED,
        "granted 35s of its 60s terminationGracePeriodSeconds"));
    assertThat(terminating("p")).isTrue();
  }

  @Test
  void shouldUpdateTheDeletionTimestampOfTerminatingPodsPastTheNodesDeadline() {
    // upstream: "should update deletion timestamp for terminating pods when it is after node deletion timestamp"
    // (node 300 s; the pod, do-not-disrupt with 6000 s, already being deleted): its deletion is shortened to the time
    // left. Upstream's first drain runs 90 s after the node's deletion (grace ~210 s); the provisioner drains in the
    // loop that terminates the node, so the time left is the whole 300 s, and 90 s later nothing changes
    node("n");
    pod("p", "n", b -> b.annotation(Provisioner.DO_NOT_DISRUPT, "true").terminationGracePeriodSeconds(6000));
    Provisioner p = provisioner(Duration.ofSeconds(300));
    clock.advance(EXPIRE);
    Instant start = clock.now();
    store.delete(Pod.class, "default", "p");
    assertThat(store.require(Pod.class, "default", "p").metadata().deletionTimestamp())
        .isEqualTo(start.plusSeconds(6000));
    ProvisionerResult r = p.runOnce();
    assertThat(r.expiredNodes()).containsExactly("n");
    assertThat(r.drainEvents()).containsExactly(new DrainEvent("n", "default/p", DrainEvent.Kind.DELETED,
        "granted 300s of its 6000s terminationGracePeriodSeconds"));
    Pod pod = store.require(Pod.class, "default", "p");
    assertThat(pod.metadata().deletionGracePeriodSeconds()).isEqualTo(300L);
    assertThat(pod.metadata().deletionTimestamp()).isEqualTo(start.plusSeconds(300));
    assertThat(loopAfter(p, Duration.ofSeconds(90)).drainEvents()).as("no longer past the deadline").isEmpty();
    assertThat(store.require(Pod.class, "default", "p").metadata().deletionGracePeriodSeconds()).isEqualTo(300L);
  }

  @Test
  void shouldNotFinishDrainingUntilMinDrainTimeHasPassed() {
    // upstream: "should not finish draining until minDrainTime has passed"
    node("n");
    Provisioner p = provisioner(null);
    terminate(p);
    assertThat(NodeTermination.isTainted(store.require(Node.class, "", "n"))).isTrue();
    assertThat(store.require(Node.class, "", "n").spec().taints()).anySatisfy(t -> {
      assertThat(t.key()).isEqualTo("karpenter.sh/disrupted");
      assertThat(t.effect()).isEqualTo(TaintEffect.NoSchedule);
    });
    assertThat(p.runOnce().deletedNodes()).isEmpty();
    assertThat(loopAfter(p, NodeTermination.MIN_DRAIN_TIME.minusSeconds(2)).deletedNodes()).isEmpty();
    assertThat(loopAfter(p, NodeTermination.MIN_DRAIN_TIME).deletedNodes()).containsExactly("n");
  }

  @Test
  void terminationGracePeriod_pdbBlockedPodDeletedAtTheDeadline_theDrainEnds() {
    // the NodePool CRD's terminationGracePeriod: "bypasses any blocked PDBs"; a 30 s pod is deleted 30 s before the
    // deadline, and the node goes once it has ended
    node("n");
    pod("db", "n", b -> b.label("app", "db"));
    PodDisruptionBudget pdb = store.create(PodDisruptionBudget.of(ObjectMeta.of("default", "db"),
        new PodDisruptionBudgetSpec(IntOrPercent.ONE, LabelSelector.of(Map.of("app", "db")), null, null)));
    store.updateStatus(pdb.withStatus(new PodDisruptionBudgetStatus(pdb.metadata().generation(), Map.of(), 0, 1, 1, 1,
        List.of())));
    Provisioner p = provisioner(Duration.ofMinutes(10));
    assertThat(terminate(p).drainEvents()).extracting(DrainEvent::kind)
        .containsExactly(DrainEvent.Kind.EVICTION_REFUSED);
    assertThat(loopAfter(p, Duration.ofSeconds(569)).drainEvents()).isEmpty(); // 31 s left
    assertThat(loopAfter(p, Duration.ofSeconds(2)).drainEvents()).containsExactly(new DrainEvent("n", "default/db",
        DrainEvent.Kind.DELETED, "granted 29s of its 30s terminationGracePeriodSeconds"));
    assertThat(Evictions.budgetsFor(store, store.require(Pod.class, "default", "db"))).hasSize(1);
    podEnds("db");
    assertThat(loopAfter(p, Duration.ofSeconds(10)).deletedNodes()).containsExactly("n");
  }
}
