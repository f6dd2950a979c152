package io.fleetkit.queueing.controller;

import static io.fleetkit.queueing.controller.QueueFixtures.NS;
import static io.fleetkit.queueing.controller.QueueFixtures.job;
import static io.fleetkit.queueing.controller.QueueFixtures.quotaReserved;
import static io.fleetkit.queueing.controller.QueueFixtures.running;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.queueing.AdmissionEngine;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.Topology;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A Job whose workload the engine evicts for a node failure (no replacement for the failed node of its topology
 * assignment) is suspended with reason {@value QueueLabels#REASON_NODE_FAILURES} and Kueue's message, and waits in its
 * queue again.
 */
final class QueueNodeFailureControllerTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private AdmissionEngine engine;
  private QueueAdmissionController ctl;

  @AfterEach
  void close() {
    if (ctl != null) {
      ctl.close();
    }
    store.close();
  }

  private static Node node(String name) {
    return Node.builder().name(name).labels(QueueFixtures.POOL).label(Topology.HOSTNAME_LABEL, name)
        .allocatable(ResourceList.builder().put("cpu", "2").put("pods", "10").build()).ready().build();
  }

  @Test
  void workloadEvictedForANodeFailure_jobIsSuspendedWithNodeFailures() {
    engine = AdmissionEngine.builder().clock(clock.asClock())
        .topology(Topology.of("hosts", Topology.HOSTNAME_LABEL))
        .resourceFlavor(new ResourceFlavor("batch", QueueFixtures.POOL).withTopologyName("hosts"))
        .clusterQueue(ClusterQueue.builder("cq")
            .resourceGroup(FlavorQuotas.of("batch", FlavorResourceQuota.of("cpu", "4"))).build())
        .localQueue(LocalQueue.of(NS, "lq", "cq"))
        .nodes(List.of(node("n1")))
        .build();
    ctl = QueueAdmissionController.builder(store, engine).clock(clock).stepping().build();
    ctl.start().join();
    store.create(job("a", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();
    assertThat(running(store.require(Job.class, NS, "a"))).isTrue();
    assertThat(engine.admission(NS + "/a").orElseThrow().podSets().get(0).topologyAssignment()).isNotNull();

    engine.removeNode("n1");
    store.create(job("b", "lq", 1, "1", 0, true, 10)); // a submit runs the next cycles

    ctl.runUntilIdle();
    Job a = store.require(Job.class, NS, "a");
    assertThat(a.spec().suspend()).isTrue();
    assertThat(quotaReserved(a).status()).isEqualTo(ConditionStatus.False);
    assertThat(quotaReserved(a).reason()).isEqualTo(QueueLabels.REASON_NODE_FAILURES);
    assertThat(quotaReserved(a).message())
        .isEqualTo("Workload was evicted as there was no replacement for unhealthy node(s): n1");
    assertThat(engine.pending("cq")).contains(NS + "/a");
  }

  // ---- followNodes: the engine fed from the store's Nodes ----

  private void startFollowing(io.fleetkit.api.core.Node... inStore) {
    startFollowing(b -> { }, inStore);
  }

  private void startFollowing(java.util.function.Consumer<AdmissionEngine.Builder> config,
      io.fleetkit.api.core.Node... inStore) {
    for (io.fleetkit.api.core.Node n : inStore) {
      store.create(n);
    }
    AdmissionEngine.Builder b = AdmissionEngine.builder();
    config.accept(b);
    engine = b.clock(clock.asClock())
        .topology(Topology.of("hosts", Topology.HOSTNAME_LABEL))
        .resourceFlavor(new ResourceFlavor("batch", QueueFixtures.POOL).withTopologyName("hosts"))
        .clusterQueue(ClusterQueue.builder("cq")
            .resourceGroup(FlavorQuotas.of("batch", FlavorResourceQuota.of("cpu", "4"))).build())
        .localQueue(LocalQueue.of(NS, "lq", "cq"))
        .build();
    ctl = QueueAdmissionController.builder(store, engine).clock(clock).stepping().followNodes().build();
    ctl.start().join();
  }

  /** The nodes the topology assignment of {@code job}'s pod set names. */
  private List<String> placedOn(String job) {
    return engine.admission(NS + "/" + job).orElseThrow().podSets().get(0).topologyAssignment().domains().stream()
        .map(d -> d.values().get(d.values().size() - 1)).toList();
  }

  @Test
  void followNodes_aDeletedNodesPodsAreReplacedOnAnother_withoutAnySubmit() {
    startFollowing(node("n1"), node("n2"));
    store.create(job("a", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();
    assertThat(running(store.require(Job.class, NS, "a"))).isTrue();
    String first = placedOn("a").get(0);
    String other = first.equals("n1") ? "n2" : "n1";

    store.delete(Node.class, "", first);
    ctl.runUntilIdle();
    assertThat(placedOn("a")).containsExactly(other);
    assertThat(engine.unhealthyNodes(NS + "/a")).isEmpty();
    assertThat(running(store.require(Job.class, NS, "a"))).isTrue();
  }

  @Test
  void followNodes_anUntoleratedNoExecuteTaint_movesThePodsToAnotherNode_withoutAnySubmit() {
    // without the pod-termination trigger an untolerated taint fails the node at once (Kueue's
    // TASReplaceNodeOnNodeTaints with TASReplaceNodeOnPodTermination off)
    startFollowing(b -> b.replaceNodeOnPodTermination(false), node("n1"), node("n2"));
    store.create(job("a", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();
    String first = placedOn("a").get(0);
    String other = first.equals("n1") ? "n2" : "n1";

    Node tainted = store.require(Node.class, "", first);
    store.update(tainted.toBuilder().taint(io.fleetkit.api.scheduling.Taint.of("maintenance", "",
        io.fleetkit.api.scheduling.TaintEffect.NoExecute)).build());
    ctl.runUntilIdle();

    assertThat(placedOn("a")).containsExactly(other);
    assertThat(engine.unhealthyNodes(NS + "/a")).isEmpty();
    assertThat(running(store.require(Job.class, NS, "a"))).isTrue();
  }

  @Test
  void followNodes_aNotReadyNodesJobPodsStopped_replacesBeforeTheDelay() {
    startFollowing(node("n1"), node("n2"));
    store.create(job("a", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();
    String first = placedOn("a").get(0);
    String other = first.equals("n1") ? "n2" : "n1";
    Job a = store.require(Job.class, NS, "a");
    io.fleetkit.api.core.Pod pod = io.fleetkit.api.core.Pod.builder().name("a-0").namespace(NS)
        .container("c", "img", ResourceList.builder().put("cpu", "1").build()).nodeName(first)
        .phase(io.fleetkit.api.core.PodPhase.Running).build();
    pod = pod.toBuilder().metadata(pod.metadata().toBuilder().ownerReference(new io.fleetkit.api.meta.OwnerReference(
        "batch/v1", "Job", "a", a.metadata().uid(), true, true)).build()).build();
    store.create(pod);
    Node n = store.require(Node.class, "", first);
    java.time.Instant now = clock.instant();
    store.updateStatus(n.withStatus(n.status().withConditions(List.of(new io.fleetkit.api.core.NodeCondition(
        io.fleetkit.api.core.NodeCondition.READY, ConditionStatus.False, "KubeletNotReady", "", now, now)))));
    ctl.runUntilIdle();
    assertThat(placedOn("a")).as("its pod still runs there: within the delay").containsExactly(first);

    io.fleetkit.api.core.Pod running = store.require(io.fleetkit.api.core.Pod.class, NS, "a-0");
    store.updateStatus(running.withStatus(running.status().withPhase(io.fleetkit.api.core.PodPhase.Failed)));
    ctl.runUntilIdle();

    assertThat(placedOn("a")).as("replaced once its pod stopped, before the delay").containsExactly(other);
    assertThat(running(store.require(Job.class, NS, "a"))).isTrue();
  }

  @Test
  void followNodes_aNodeNotReadyForTheDelay_evictsTheWorkloadWithoutReplacement_andNotBefore() {
    startFollowing(node("n1"));
    store.create(job("a", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();
    assertThat(placedOn("a")).containsExactly("n1");

    Node n1 = store.require(Node.class, "", "n1");
    java.time.Instant now = clock.instant();
    store.updateStatus(n1.withStatus(n1.status().withConditions(List.of(new io.fleetkit.api.core.NodeCondition(
        io.fleetkit.api.core.NodeCondition.READY, ConditionStatus.False, "KubeletNotReady", "", now, now)))));
    ctl.runUntilIdle();
    assertThat(running(store.require(Job.class, NS, "a"))).as("within the delay").isTrue();

    clock.advance(engine.nodeFailureDelay().minusSeconds(1));
    ctl.runUntilIdle();
    assertThat(running(store.require(Job.class, NS, "a"))).isTrue();
    clock.advance(java.time.Duration.ofSeconds(1));
    ctl.runUntilIdle();
    Job a = store.require(Job.class, NS, "a");
    assertThat(a.spec().suspend()).isTrue();
    assertThat(quotaReserved(a).reason()).isEqualTo(QueueLabels.REASON_NODE_FAILURES);
    assertThat(quotaReserved(a).message())
        .isEqualTo("Workload was evicted as there was no replacement for unhealthy node(s): n1");
  }

  @Test
  void followNodes_heartbeatsChangeNothing() {
    startFollowing(node("n1"));
    store.create(job("a", "lq", 1, "1", 0, true, 10));
    ctl.runUntilIdle();
    int before = ctl.controller().queue().len();
    Node n1 = store.require(Node.class, "", "n1");
    store.updateStatus(n1.withStatus(n1.status().withConditions(List.of(new io.fleetkit.api.core.NodeCondition(
        io.fleetkit.api.core.NodeCondition.READY, ConditionStatus.True, "KubeletReady", "", clock.instant(), null)))));
    assertThat(ctl.controller().queue().len()).isEqualTo(before);
    assertThat(placedOn("a")).containsExactly("n1");
  }
}
