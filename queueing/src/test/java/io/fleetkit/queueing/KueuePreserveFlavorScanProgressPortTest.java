package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/scheduler/scheduler_preserve_flavor_scan_progress_test.go} (commit
 * ff69552e), TestScheduleForPreserveFlavorScanProgress, 2 of 4 cases ("gate enabled", "no generation churn, gate
 * enabled"; the two "gate disabled" cases need {@code FlavorFungibilityPreserveScanProgress} off, and FleetKit has its
 * default, on, only).
 *
 * <p>Two TAS flavors of one 2-CPU node each; the ClusterQueue has 4 CPUs of quota on each, so quota keeps accepting
 * flavor-1 after its node is full. The blocker (selecting flavor-1's node) takes node-f1; the pending workload, of the
 * same priority (so {@code withinClusterQueue: LowerPriority} finds no victim, and nothing in the cohort borrows for
 * {@code reclaimWithinCohort: Any}), needs a whole node. Its first search stops on flavor-1 (quota fits), whose
 * topology does not, and no candidate can be preempted: it is requeued with flavor-1 recorded as the last tried, and
 * the next cycle resumes at flavor-2. With churn the ClusterQueue's generation advances every cycle (flavor-2's quota
 * flips between 5 and 4), which does not discard progress recorded in the preceding cycle.
 */
final class KueuePreserveFlavorScanProgressPortTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final String HOST = Topology.HOSTNAME_LABEL;
  private static final int CYCLES = 4;

  private static ClusterQueue clusterQueue(String flavorTwoQuota) {
    return ClusterQueue.builder("tas-cq")
        .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.ANY))
        .resourceGroup(FlavorQuotas.of("tas-flavor-1", FlavorResourceQuota.of("cpu", "4")),
            FlavorQuotas.of("tas-flavor-2", FlavorResourceQuota.of("cpu", flavorTwoQuota)))
        .build();
  }

  private static Node node(String name, String flavor) {
    return Node.builder().name(name).label("tas-node", "true").label("tas-flavor", flavor).label(HOST, name)
        .allocatable(ResourceList.builder().put("cpu", "2").put("pods", "10").build()).ready().build();
  }

  private static Workload workload(String name, Instant created, Map<String, String> nodeSelector) {
    return Workload.builder("default", name).queueName("tas-lq").priority(10).creationTime(created)
        .podSet(PodSet.of("one", 1, ResourceList.builder().put("cpu", "2").build()).withNodeSelector(nodeSelector)
            .withTopologyRequest(PodSetTopologyRequest.ofRequired(HOST)))
        .build();
  }

  @ParameterizedTest(name = "churn={0}")
  @ValueSource(booleans = {true, false})
  void schedule_flavorOneFullByTopology_resumesAtFlavorTwo(boolean churn) {
    ManualClock clock = new ManualClock(NOW);
    AdmissionEngine engine = AdmissionEngine.builder().clock(clock).fairSharing(true)
        .topology(Topology.of("tas-single-level", HOST))
        .resourceFlavor(new ResourceFlavor("tas-flavor-1", Map.of("tas-flavor", "f1"))
            .withTopologyName("tas-single-level"))
        .resourceFlavor(new ResourceFlavor("tas-flavor-2", Map.of("tas-flavor", "f2"))
            .withTopologyName("tas-single-level"))
        .clusterQueue(clusterQueue("4"))
        .localQueue(LocalQueue.of("default", "tas-lq", "tas-cq"))
        .nodes(List.of(node("node-f1", "f1"), node("node-f2", "f2")))
        .build();
    engine.submit(workload("blocker", NOW.minus(Duration.ofMinutes(1)), Map.of("tas-flavor", "f1")));
    engine.submit(workload("pending", NOW, Map.of()));

    for (int i = 0; i < CYCLES; i++) {
      engine.schedule();
      if (churn) {
        // a busy cohort: the quotas change, so the ClusterQueue's generation advances every cycle
        engine.putClusterQueue(clusterQueue(i % 2 == 0 ? "5" : "4"));
      }
    }

    assertThat(flavorOf(engine, "default/pending")).isEqualTo("tas-flavor-2");
    assertThat(flavorOf(engine, "default/blocker")).isEqualTo("tas-flavor-1");
  }

  private static String flavorOf(AdmissionEngine engine, String key) {
    return engine.admission(key).map(r -> r.podSets().get(0).flavors().get("cpu")).orElse("");
  }
}
