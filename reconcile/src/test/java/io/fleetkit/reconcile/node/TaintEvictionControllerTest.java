package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeSpec;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.Taints;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.scheduling.TolerationOperator;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes pkg/controller/tainteviction/taint_eviction_test.go: TestCreatePod (6 cases),
 * TestUpdatePod (4), TestCreateNode (3), TestUpdateNode (5), TestUpdateNodeWithMultipleTaints (1),
 * TestUpdateNodeWithMultiplePods (2), TestEventualConsistency (4), TestGetMinTolerationTime (5, through
 * {@link Taints#minTolerationSeconds}, the controller's {@code getMinTolerationTime}). Upstream waits up to 5 s of
 * wall time for the delete (and the DisruptionTarget patch); here the manual clock moves 5 s. Every case runs as
 * upstream's with PodDisruptionConditions on: an evicted pod is also patched. As upstream's test, no default
 * tolerations are added.
 */
final class TaintEvictionControllerTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private final TaintEvictionController tc = TaintEvictionController.create(store, clock);
  private final Set<String> patched = new HashSet<>();

  TaintEvictionControllerTest() {
    store.watch(Pod.class, "0", e -> {
      PodCondition c = e.object().status().condition(PodCondition.DISRUPTION_TARGET);
      if (c != null && c.reason().equals(TaintEvictionController.REASON)) {
        patched.add(e.object().metadata().name());
      }
    });
  }

  @AfterEach
  void close() {
    tc.close();
    store.close();
  }

  private static Pod pod(String name, String node, Toleration... tolerations) {
    PodSpec.Builder s = PodSpec.builder().container("c", "img", ResourceList.EMPTY).nodeName(node);
    for (Toleration t : tolerations) {
      s.toleration(t);
    }
    return Pod.builder().namespace("default").name(name).spec(s.build()).build();
  }

  /** upstream addToleration(pod, index, duration): key testTaintN, value testN, NoExecute; -1 = forever. */
  private static Toleration tol(int index, long seconds) {
    return new Toleration("testTaint" + index, TolerationOperator.Equal, "test" + index, TaintEffect.NoExecute,
        seconds < 0 ? null : seconds);
  }

  private static Taint taint(int index) {
    return Taint.of("testTaint" + index, "test" + index, TaintEffect.NoExecute);
  }

  private Node node(String name, int... taints) {
    List<Taint> ts = new ArrayList<>();
    for (int i : taints) {
      ts.add(taint(i));
    }
    return Node.builder().name(name).taints(ts).build();
  }

  private void setTaints(String name, int... taints) {
    Node n = store.require(Node.class, "", name);
    List<Taint> ts = new ArrayList<>();
    for (int i : taints) {
      ts.add(taint(i));
    }
    store.update(n.withSpec(new NodeSpec(false, ts, "")));
  }

  /** Whether the controller deleted the pod (upstream checks its fake client's delete action): gone, or terminating. */
  private boolean deleted(String pod) {
    return store.get(Pod.class, "default", pod).map(p -> p.metadata().deletionTimestamp() != null).orElse(true);
  }

  /** Moves time {@code seconds} forward in 100 ms steps, running the controller. */
  private void run(double seconds) {
    tc.sync();
    for (int i = 0; i < Math.round(seconds * 10); i++) {
      clock.advance(Duration.ofMillis(100));
      tc.sync();
    }
  }

  private void verify(String pod, boolean expectPatch, boolean expectDelete) {
    run(5);
    assertThat(patched.contains(pod)).as("patched " + pod).isEqualTo(expectPatch);
    assertThat(deleted(pod)).as("deleted " + pod).isEqualTo(expectDelete);
  }

  // TestCreatePod
  @Test
  void createPod_notScheduled_ignored() {
    tc.start();
    store.create(pod("pod1", ""));
    verify("pod1", false, false);
  }

  // upstream's processPodOnNode has no exception for terminal pods (a Job's finished pod is protected by the Job's
  // tracking finalizer until counted, not by the taint-eviction controller)
  @Test
  void createPod_terminalPodOnTaintedNode_deletedAsAnyOther() {
    store.create(node("node1", 1));
    tc.start();
    Pod p = store.create(pod("pod1", "node1"));
    store.updateStatus(p.withStatus(p.status().withPhase(io.fleetkit.api.core.PodPhase.Succeeded)));
    verify("pod1", true, true);
  }

  @Test
  void createPod_untaintedNode_kept() {
    store.create(node("node1"));
    tc.start();
    store.create(pod("pod1", "node1"));
    verify("pod1", false, false);
  }

  @Test
  void createPod_taintedNode_deleted() {
    store.create(node("node1", 1));
    tc.start();
    store.create(pod("pod1", "node1"));
    verify("pod1", true, true);
  }

  @Test
  void createPod_taintedNodeFiniteToleration_keptWithinWindowDeletedAfter() {
    store.create(node("node1", 1));
    tc.start();
    store.create(pod("pod1", "node1", tol(1, 100)));
    verify("pod1", false, false);
    run(96);
    assertThat(deleted("pod1")).isTrue();
  }

  @Test
  void createPod_taintedNodeInfiniteToleration_kept() {
    store.create(node("node1", 1));
    tc.start();
    store.create(pod("pod1", "node1", tol(1, -1)));
    verify("pod1", false, false);
  }

  @Test
  void createPod_taintedNodeInvalidToleration_deleted() {
    store.create(node("node1", 1));
    tc.start();
    store.create(pod("pod1", "node1", tol(2, -1)));
    verify("pod1", true, true);
  }

  // Gt and Lt tolerations (FleetKit's cases; the controller matches through Toleration.toleratesTaint)
  private static final String SLA = "node.kubernetes.io/sla";

  private Node slaNode(String name, String value) {
    return Node.builder().name(name).taints(List.of(Taint.of(SLA, value, TaintEffect.NoExecute))).build();
  }

  @Test
  void createPod_gtToleration_keptWhenTaintValueAboveThreshold_deletedWhenBelow() {
    store.create(slaNode("node1", "800"));
    tc.start();
    store.create(pod("above", "node1", Toleration.greaterThan(SLA, 750, TaintEffect.NoExecute)));
    store.create(pod("below", "node1", Toleration.greaterThan(SLA, 950, TaintEffect.NoExecute)));
    store.create(pod("equal", "node1", Toleration.lessThan(SLA, 800, TaintEffect.NoExecute)));
    verify("above", false, false);
    verify("below", true, true);
    verify("equal", true, true);
  }

  @Test
  void createPod_ltTolerationWithSeconds_deletedWhenItsTimeRunsOut() {
    store.create(slaNode("node1", "800"));
    tc.start();
    store.create(pod("pod1", "node1",
        new Toleration(SLA, TolerationOperator.Lt, "900", TaintEffect.NoExecute, 10L)));
    verify("pod1", false, false);
    run(6);
    assertThat(deleted("pod1")).isTrue();
  }

  @Test
  void createPod_gtTolerationOnNonNumericTaintValue_deletedAsUntolerated() {
    store.create(slaNode("node1", "high"));
    tc.start();
    store.create(pod("pod1", "node1", Toleration.greaterThan(SLA, 1, TaintEffect.NoExecute)));
    verify("pod1", true, true);
  }

  // TestUpdatePod
  @Test
  void updatePod_schedulingOntoTaintedNode_deleted() {
    store.create(node("node1", 1));
    tc.start();
    Pod p = store.create(pod("pod1", ""));
    store.updateWithStatus(p.withNodeName("node1")); // bound, as the scheduler binds
    verify("pod1", true, true);
  }

  @Test
  void updatePod_schedulingOntoTaintedNodeWithToleration_kept() {
    store.create(node("node1", 1));
    tc.start();
    Pod p = store.create(pod("pod1", "", tol(1, -1)));
    store.updateWithStatus(p.withNodeName("node1")); // bound, as the scheduler binds
    verify("pod1", false, false);
  }

  @Test
  void updatePod_removingToleration_deleted() {
    store.create(node("node1", 1));
    tc.start();
    store.create(pod("pod1", "node1", tol(1, 100)));
    assertThat(tc.scheduledEviction("default/pod1")).isPresent();
    clock.advance(Duration.ofMillis(100));
    // Upstream updates the pod through a fake client; the API server (and this store) refuse removing a toleration
    // (ValidatePodUpdate), so the pod is replaced by one without it, which the controller processes the same way.
    store.delete(Pod.class, "default", "pod1", io.fleetkit.api.store.DeleteOptions.gracePeriod(0));
    store.create(pod("pod1", "node1"));
    verify("pod1", true, true);
  }

  @Test
  void updatePod_lengtheningToleration_stillDeletedAtFirstDeadline() {
    store.create(node("node1", 1));
    tc.start();
    Pod p = store.create(pod("pod1", "node1", tol(1, 1)));
    assertThat(tc.scheduledEviction("default/pod1")).isPresent();
    clock.advance(Duration.ofMillis(100));
    store.update(p.withSpec(pod("pod1", "node1", tol(1, 100)).spec()));
    verify("pod1", true, true);
  }

  // TestCreateNode
  @Test
  void createNode_untainted_podKept() {
    store.create(pod("pod1", "node1"));
    tc.start();
    store.create(node("node1"));
    verify("pod1", false, false);
  }

  @Test
  void createNode_tainted_podDeleted() {
    store.create(pod("pod1", "node1"));
    tc.start();
    store.create(node("node1", 1));
    verify("pod1", true, true);
  }

  @Test
  void createNode_taintedTolerating_podKept() {
    store.create(pod("pod1", "node1", tol(1, -1)));
    tc.start();
    store.create(node("node1", 1));
    verify("pod1", false, false);
  }

  // TestUpdateNode
  @Test
  void updateNode_addedTaint_podDeleted() {
    store.create(node("node1"));
    store.create(pod("pod1", "node1"));
    tc.start();
    setTaints("node1", 1);
    verify("pod1", true, true);
  }

  @Test
  void updateNode_addedToleratedTaint_podKept() {
    store.create(node("node1"));
    store.create(pod("pod1", "node1", tol(1, 100)));
    tc.start();
    setTaints("node1", 1);
    verify("pod1", false, false);
  }

  @Test
  void updateNode_onlyOneAddedTaintTolerated_podDeleted() {
    store.create(node("node1"));
    store.create(pod("pod1", "node1", tol(1, 100)));
    tc.start();
    setTaints("node1", 1, 2);
    verify("pod1", true, true);
  }

  @Test
  void updateNode_taintRemoved_evictionCancelled() {
    store.create(node("node1", 1));
    store.create(pod("pod1", "node1", tol(1, 1)));
    tc.start();
    setTaints("node1");
    run(1.5);
    verify("pod1", false, false);
  }

  @Test
  void updateNode_multipleTolerations_evictedWhenFirstRunsOut() {
    store.create(node("node1"));
    Toleration t1 = new Toleration("testTaint1", TolerationOperator.Equal, "test1", TaintEffect.NoExecute, 1L);
    Toleration t2 = new Toleration("testTaint2", TolerationOperator.Equal, "test2", TaintEffect.NoExecute, 100L);
    store.create(pod("pod1", "node1", t1, t2));
    tc.start();
    setTaints("node1", 1, 2);
    verify("pod1", true, true);
  }

  // TestUpdateNodeWithMultipleTaints
  @Test
  void updateNode_infiniteThenTemporaryThenInfinite_neverDeleted() {
    Toleration t1 = new Toleration("testTaint1", TolerationOperator.Exists, "", TaintEffect.NoExecute, null);
    Toleration t2 = new Toleration("testTaint2", TolerationOperator.Exists, "", TaintEffect.NoExecute, 60L);
    store.create(node("node1"));
    store.create(pod("pod1", "node1", t1, t2));
    tc.start();
    assertThat(tc.scheduledEviction("default/pod1")).isEmpty();
    setTaints("node1", 1);
    assertThat(tc.scheduledEviction("default/pod1")).isEmpty();
    setTaints("node1", 1, 2);
    assertThat(tc.scheduledEviction("default/pod1")).isPresent();
    setTaints("node1", 1);
    assertThat(tc.scheduledEviction("default/pod1")).isEmpty();
    run(120);
    assertThat(deleted("pod1")).isFalse();
  }

  // TestUpdateNodeWithMultiplePods
  @Test
  void updateNode_podsWithDifferentTolerations_evictedAtTheirTimes() {
    store.create(node("node1"));
    store.create(pod("pod1", "node1"));
    store.create(pod("pod2", "node1", tol(1, 1)));
    store.create(pod("pod3", "node1", tol(1, -1)));
    tc.start();
    setTaints("node1", 1);
    run(0.5);
    assertThat(List.of(deleted("pod1"), deleted("pod2"), deleted("pod3"))).containsExactly(true, false, false);
    run(1);
    assertThat(List.of(deleted("pod1"), deleted("pod2"), deleted("pod3"))).containsExactly(true, true, false);
  }

  @Test
  void updateNode_notAllTaintsMatched_allEvictedAtOnce() {
    store.create(node("node1"));
    store.create(pod("pod1", "node1"));
    store.create(pod("pod2", "node1", tol(1, 1)));
    store.create(pod("pod3", "node1", tol(1, -1)));
    tc.start();
    setTaints("node1", 1, 2);
    run(0.5);
    assertThat(List.of(deleted("pod1"), deleted("pod2"), deleted("pod3"))).containsExactly(true, true, true);
  }

  // TestEventualConsistency
  @Test
  void eventualConsistency_podScheduledOntoTaintedNodeLater_deleted() {
    store.create(pod("pod1", "node1"));
    Pod pod2 = store.create(pod("pod2", ""));
    store.create(node("node1"));
    tc.start();
    setTaints("node1", 1);
    verify("pod1", true, true);
    store.updateWithStatus(pod2.withNodeName("node1")); // bound, as the scheduler binds
    verify("pod2", true, true);
  }

  @Test
  void eventualConsistency_tolerantPodScheduledLater_deletedAfterToleration() {
    store.create(pod("pod1", "node1"));
    Pod pod2 = store.create(pod("pod2", "", tol(1, 100)));
    store.create(node("node1"));
    tc.start();
    setTaints("node1", 1);
    verify("pod1", true, true);
    store.updateWithStatus(pod2.withNodeName("node1")); // bound, as the scheduler binds
    run(101);
    assertThat(deleted("pod2")).isTrue();
  }

  @Test
  void eventualConsistency_newPodOnTaintedNode_deleted() {
    store.create(pod("pod1", "node1"));
    store.create(node("node1"));
    tc.start();
    setTaints("node1", 1);
    verify("pod1", true, true);
    store.create(pod("pod2", "node1"));
    verify("pod2", true, true);
  }

  @Test
  void eventualConsistency_newTolerantPodOnTaintedNode_deletedAfterToleration() {
    store.create(pod("pod1", "node1"));
    store.create(node("node1"));
    tc.start();
    setTaints("node1", 1);
    verify("pod1", true, true);
    store.create(pod("pod2", "node1", tol(1, 100)));
    run(101);
    assertThat(deleted("pod2")).isTrue();
  }

  // FleetKit's cases for upstream's PodUpdated filter and TimedWorkerQueue's kept key of a fired worker

  /** How many status writes the store saw for {@code pod} (MODIFIED events whose spec did not change). */
  private long statusWrites(String pod, Runnable r) {
    long[] n = {0};
    var w = store.watch(Pod.class, store.resourceVersion(), e -> {
      if (e.object().metadata().name().equals(pod) && e.type() == io.fleetkit.api.store.WatchEventType.MODIFIED) {
        n[0]++;
      }
    });
    try {
      r.run();
    } finally {
      w.close();
    }
    return n[0];
  }

  @Test
  void podStuckTerminating_evictedOnce_notAgainAtEveryTolerationPeriod() {
    store.create(node("node1", 1));
    tc.start();
    store.create(pod("pod1", "node1", tol(1, 100)));
    run(101);
    assertThat(deleted("pod1")).isTrue();
    assertThat(tc.evictedCount()).isEqualTo(1);
    Pod terminating = store.require(Pod.class, "default", "pod1"); // no kubelet: it stays Terminating
    assertThat(terminating.metadata().deletionTimestamp()).isNotNull();
    long writes = statusWrites("pod1", () -> {
      // a status write (as a node lifecycle controller's Ready=False) does not reschedule it
      store.updateStatus(terminating.withStatus(terminating.status().withCondition(PodCondition.of(
          PodCondition.READY, io.fleetkit.api.meta.ConditionStatus.False, "NodeNotReady", "", clock.now()))));
      run(350);
    });
    assertThat(writes).as("only the test's own status write").isEqualTo(1);
    assertThat(tc.evictedCount()).isEqualTo(1);
    assertThat(tc.scheduledEviction("default/pod1")).isEmpty();
  }

  @Test
  void statusWrite_doesNotPostponeOrRescheduleAnEviction() {
    store.create(node("node1", 1));
    tc.start();
    Pod p = store.create(pod("pod1", "node1", tol(1, 100)));
    java.time.Instant due = tc.scheduledEviction("default/pod1").orElseThrow();
    run(50);
    store.updateStatus(p.withStatus(p.status().withPhase(io.fleetkit.api.core.PodPhase.Running)));
    assertThat(tc.scheduledEviction("default/pod1")).contains(due);
    run(51);
    assertThat(deleted("pod1")).isTrue();
  }

  @Test
  void evictedPodAlreadyMarked_conditionNotWrittenAgain() {
    store.create(node("node1"));
    tc.start();
    Pod p = store.create(pod("pod1", "node1"));
    PodCondition target = PodCondition.of(PodCondition.DISRUPTION_TARGET, io.fleetkit.api.meta.ConditionStatus.True,
        TaintEvictionController.REASON, "Taint manager: deleting due to NoExecute taint", clock.now());
    store.updateStatus(p.withStatus(p.status().withCondition(target)));
    long writes = statusWrites("pod1", () -> {
      setTaints("node1", 1);
      run(5);
    });
    assertThat(deleted("pod1")).isTrue();
    assertThat(writes).as("the deletion's mark only: the condition was there").isEqualTo(1);
  }

  @Test
  void evictionCancelledByRemovedTaint_scheduledAgainWhenTheTaintReturns() {
    store.create(node("node1", 1));
    tc.start();
    store.create(pod("pod1", "node1", tol(1, 100)));
    setTaints("node1");
    assertThat(tc.scheduledEviction("default/pod1")).isEmpty();
    setTaints("node1", 1);
    assertThat(tc.scheduledEviction("default/pod1")).isPresent();
    run(101);
    assertThat(deleted("pod1")).isTrue();
  }

  /** A toleration with only {@code tolerationSeconds} set, as upstream's table writes them. */
  private static Toleration seconds(@org.jspecify.annotations.Nullable Long s) {
    return new Toleration("", TolerationOperator.Exists, "", null, s);
  }

  // TestGetMinTolerationTime (seconds; upstream's -1 is forever, 0 is evict now)
  @Test
  void minTolerationTime_upstreamTable() {
    assertThat(Taints.minTolerationSeconds(List.of())).isZero();
    assertThat(Taints.minTolerationSeconds(List.of(seconds(null)))).isEqualTo(-1);
    assertThat(Taints.minTolerationSeconds(List.of(seconds(1L), seconds(2L)))).isEqualTo(1);
    assertThat(Taints.minTolerationSeconds(List.of(seconds(1L), seconds(null)))).isEqualTo(1);
    assertThat(Taints.minTolerationSeconds(List.of(seconds(null), seconds(1L)))).isEqualTo(1);
  }
}
