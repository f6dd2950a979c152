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
}
