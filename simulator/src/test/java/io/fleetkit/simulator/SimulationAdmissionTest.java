package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.admission.Admission;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A simulation with the standard admission chain: a Deployment larger than its namespace's quota records
 * {@code FailedCreate} in the timeline with the denial, ends with as many ready replicas as the quota allows, and
 * nothing else is lost (another namespace's workload, replacements after a node failure once the quota is
 * replenished).
 */
final class SimulationAdmissionTest {

  private static List<Object> objects() {
    Deployment api = Deployment.builder().namespace("team-b").name("api").replicas(2)
        .matchLabels(Map.of("app", "api"))
        .podSpec(PodSpec.builder().container("app", "nginx:1", ResourceList.ofCpuMemory(500, 0)).build()).build();
    return List.of(Namespace.of("team-b"),
        ResourceQuota.of("default", "pods", ResourceList.builder().put("pods", "3").build()),
        SimFixtures.deployment("web", 5), api);
  }

  private static Simulation.Builder builder() {
    Simulation.Builder b = Simulation.builder().objects(SimFixtures.nodes(3)).admission(Admission::standard).seed(4);
    for (Object o : objects()) {
      b.object((io.fleetkit.api.meta.ApiObject<?>) o);
    }
    return b;
  }

  @Test
  void run_deploymentAboveItsQuota_failedCreateInTheTimelineAndFewerReadyReplicas() {
    try (Simulation sim = builder().build()) {
      sim.runFor(Duration.ofMinutes(5));

      List<TimelineEvent> failed = sim.timeline().stream().filter(e -> e.kind().equals("FailedCreate")).toList();
      assertThat(failed).hasSize(1);
      assertThat(failed.get(0).object()).startsWith("ReplicaSet/default/web-");
      assertThat(failed.get(0).message()).startsWith("Error creating: Pod default/web-")
          .contains("exceeded quota: pods, requested: pods=1, used: pods=3, limited: pods=3");
      assertThat(sim.summary().deployments()).containsExactly(new WorkloadSummary("default/web", 5, 3),
          new WorkloadSummary("team-b/api", 2, 2));
    }
  }

  @Test
  void run_nodeWithQuotaPodsFails_quotaReplenishedAndTheReplicasReplaced() {
    try (Simulation sim = builder().build()) {
      sim.runFor(Duration.ofSeconds(30));
      String node = SimFixtures.readyPods(sim, "web").get(0).spec().nodeName();
      sim.failNode(node);

      boolean replaced = sim.runUntil(s -> SimFixtures.readyPods(s, "web").size() == 3
          && SimFixtures.readyPods(s, "web").stream().noneMatch(p -> p.spec().nodeName().equals(node)),
          Duration.ofMinutes(15));

      assertThat(replaced).isTrue();
      assertThat(sim.timeline()).extracting(TimelineEvent::kind).contains("PodEvicted");
      assertThat(sim.store().require(ResourceQuota.class, "default", "pods").status().used().pods()).isEqualTo(3);
      // the evicted pods stay Terminating on the failed node (no kubelet ends them), as upstream's
      assertThat(sim.store().list(Pod.class, "default").items()).filteredOn(p -> p.metadata().deletionTimestamp() == null)
          .hasSize(3);
      assertThat(sim.store().list(Pod.class, "default").items()).filteredOn(p -> p.metadata().deletionTimestamp() != null)
          .allMatch(p -> p.spec().nodeName().equals(node));
    }
  }

  @Test
  void build_podTheQuotaRefuses_rejectedInTheTimelineAndTheRunGoesOn() {
    Pod extra = new Pod(ObjectMeta.of("default", "extra"),
        PodSpec.builder().container("app", "nginx:1", ResourceList.EMPTY).build(),
        io.fleetkit.api.core.PodStatus.PENDING);
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(1)).admission(Admission::standard)
        .object(ResourceQuota.of("default", "none", ResourceList.builder().put("pods", "0").build()))
        .object(extra).build()) {
      sim.runFor(Duration.ofSeconds(10));
      assertThat(sim.timeline()).filteredOn(e -> e.kind().equals("Rejected")).singleElement()
          .satisfies(e -> {
            assertThat(e.object()).isEqualTo("Pod/default/extra");
            assertThat(e.message()).contains("exceeded quota: none");
          });
      assertThat(sim.store().get(Pod.class, "default", "extra")).isEmpty();
    }
  }
}
