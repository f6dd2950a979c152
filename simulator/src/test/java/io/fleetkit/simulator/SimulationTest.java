package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.SimulatedController;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class SimulationTest {

  @Test
  void run_deploymentOnFiveNodes_allReplicasReadyAtOnce() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(5))
        .object(SimFixtures.deployment("web", 10)).seed(1).build()) {
      sim.runFor(Duration.ofSeconds(5));

      assertThat(SimFixtures.readyPods(sim, "web")).hasSize(10);
      assertThat(sim.summary().deployments()).containsExactly(new WorkloadSummary("default/web", 10, 10));
      assertThat(sim.timeline()).extracting(TimelineEvent::kind).contains("PodCreated", "PodScheduled", "PodReady");
    }
  }

  @Test
  void run_twoOfFiveNodesDie_tenReadyReplicasOnTheOtherThreeAfterGraceAndToleration() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(5))
        .object(SimFixtures.deployment("web", 10)).seed(3)
        .failNode("node-1", Duration.ofSeconds(60)).failNode("node-2", Duration.ofSeconds(60)).build()) {
      sim.runFor(Duration.ofSeconds(59));
      assertThat(SimFixtures.readyPods(sim, "web")).hasSize(10);
      long onDying = SimFixtures.readyPods(sim, "web").stream()
          .filter(p -> p.spec().nodeName().equals("node-1") || p.spec().nodeName().equals("node-2")).count();
      assertThat(onDying).isPositive();

      // last heartbeat <= 60 s, grace 50 s, monitor every 5 s: Unknown and pods not ready by ~115 s
      sim.runFor(Duration.ofSeconds(61));
      assertThat(SimFixtures.readyPods(sim, "web")).hasSize(10 - (int) onDying);

      // tolerations are 300 s from the taint: nothing is replaced before ~400 s
      sim.runFor(Duration.ofSeconds(280));
      assertThat(SimFixtures.readyPods(sim, "web")).hasSize(10 - (int) onDying);

      boolean healed = sim.runUntil(s -> SimFixtures.readyPods(s, "web").size() == 10, Duration.ofSeconds(120));
      assertThat(healed).isTrue();
      assertThat(sim.elapsed()).isBetween(Duration.ofSeconds(400), Duration.ofSeconds(520));
      List<Pod> ready = SimFixtures.readyPods(sim, "web");
      assertThat(ready).extracting(p -> p.spec().nodeName()).doesNotContain("node-1", "node-2");
      assertThat(sim.timeline()).extracting(TimelineEvent::kind)
          .contains("NodeFailed", "NodeUnreachable", "NodeTainted", "PodEvicted");
      assertThat(sim.taintEviction().evictedCount()).isEqualTo(onDying);
    }
  }

  /**
   * The kubelets renew node Leases every 10 s and post the node status only every 5 minutes; the node lifecycle
   * controller counts a Lease renewal as a heartbeat, so a failed node still goes Unknown one grace period after its
   * last renewal.
   */
  @Test
  void run_nodeLeases_statusEveryFiveMinutes_failedNodeDetectedFromItsLastRenewal() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(3))
        .object(SimFixtures.deployment("web", 3)).seed(4).nodeMonitorGracePeriod(Duration.ofSeconds(40))
        .failNode("node-1", Duration.ofSeconds(455)).build()) {
      sim.runFor(Duration.ofSeconds(1));
      String version = sim.store().require(Node.class, "", "node-2").metadata().resourceVersion();
      sim.runFor(Duration.ofSeconds(298)); // 0:01 to 4:59: Lease renewals only, no node write
      assertThat(sim.store().require(Node.class, "", "node-2").metadata().resourceVersion()).isEqualTo(version);
      sim.runFor(Duration.ofSeconds(2)); // the status post at 5:00
      assertThat(sim.store().require(Node.class, "", "node-2").metadata().resourceVersion()).isNotEqualTo(version);

      // last renewal at 7:30 (the kubelet dies at 7:35), grace 40 s: Unknown at the first pass after 8:10, 8:15
      sim.runFor(Duration.ofSeconds(193));
      assertThat(sim.timeline()).noneMatch(e -> e.kind().equals("NodeUnreachable"));
      sim.runFor(Duration.ofSeconds(1));
      assertThat(sim.timeline()).filteredOn(e -> e.kind().equals("NodeUnreachable")).singleElement()
          .satisfies(e -> {
            assertThat(e.object()).isEqualTo("Node/node-1");
            assertThat(e.at()).isEqualTo(Duration.ofSeconds(495));
          });
      assertThat(SimFixtures.readyPods(sim, "web")).noneMatch(p -> p.spec().nodeName().equals("node-1"));
    }
  }

  @Test
  void run_sameInputsTwice_sameTimeline() {
    List<TimelineEvent> first = scenario();
    List<TimelineEvent> second = scenario();
    assertThat(first).isNotEmpty().isEqualTo(second);
  }

  private static List<TimelineEvent> scenario() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(4))
        .object(SimFixtures.deployment("web", 6)).seed(9).failNode("node-2", Duration.ofSeconds(30)).build()) {
      sim.runFor(Duration.ofMinutes(8));
      return sim.timeline();
    }
  }

  @Test
  void controller_registeredFactory_startedSteppedAndClosed() {
    int[] calls = new int[3];
    Simulation.Builder b = Simulation.builder().objects(SimFixtures.nodes(2)).withoutDefaultControllers()
        .object(SimFixtures.deployment("web", 2))
        .controller((store, clock, seed) -> SimulatedController.of("counter", () -> calls[0]++, () -> {
          calls[1]++;
          return 0;
        }, () -> calls[2]++));
    try (Simulation sim = b.build()) {
      sim.runFor(Duration.ofSeconds(3));
      assertThat(sim.store().list(Pod.class).items()).as("no ReplicaSet/Deployment controller").isEmpty();
    }
    assertThat(calls[0]).isEqualTo(1);
    assertThat(calls[1]).isGreaterThan(3);
    assertThat(calls[2]).isEqualTo(1);
  }

  @Test
  void reviveNode_beforeEviction_podsRunThereAgain() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(3))
        .object(SimFixtures.deployment("web", 6)).seed(2)
        .failNode("node-1", Duration.ofSeconds(10)).reviveNode("node-1", Duration.ofSeconds(120)).build()) {
      sim.runFor(Duration.ofSeconds(100));
      assertThat(SimFixtures.readyPods(sim, "web").size()).isLessThan(6);
      sim.runFor(Duration.ofSeconds(40));
      assertThat(SimFixtures.readyPods(sim, "web")).hasSize(6);
      assertThat(sim.taintEviction().evictedCount()).isZero();
      assertThat(sim.timeline()).extracting(TimelineEvent::kind).contains("NodeRecovered", "NodeReady");
    }
  }

  @Test
  void run_jobAndStatefulSet_jobCompletesAndStatefulSetHeals() {
    Job job = Job.builder().namespace("default").name("batch").parallelism(2).completions(3)
        .templateLabels(Map.of("job", "batch")).podSpec(PodSpec.builder()
            .container("work", "busybox:1", ResourceList.ofCpuMemory(500, 0)).restartPolicy(RestartPolicy.Never)
            .build()).build();
    StatefulSet db = StatefulSet.builder().namespace("default").name("db").replicas(3).serviceName("db")
        .matchLabels(Map.of("app", "db"))
        .podSpec(PodSpec.builder().container("db", "postgres:16", ResourceList.ofCpuMemory(500, 0)).build())
        .build();
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(3)).object(job).object(db).seed(5)
        .failNode("node-1", Duration.ofSeconds(40)).build()) {
      sim.runFor(Duration.ofSeconds(35));
      assertThat(sim.summary().jobs()).containsExactly(new JobSummary("default/batch", 3, 0, "Complete"));
      assertThat(sim.summary().statefulSets()).containsExactly(new WorkloadSummary("default/db", 3, 3));

      boolean healed = sim.runUntil(s -> s.summary().statefulSets().get(0).ready() == 3
          && SimFixtures.readyPods(s, "db").stream().noneMatch(p -> p.spec().nodeName().equals("node-1")),
          Duration.ofMinutes(15));
      assertThat(healed).isTrue();
      assertThat(SimFixtures.readyPods(sim, "db")).extracting(p -> p.metadata().name())
          .containsExactlyInAnyOrder("db-0", "db-1", "db-2");
    }
  }

  @Test
  void build_faultOnUnknownNode_rejected() {
    assertThatThrownBy(() -> Simulation.builder().objects(SimFixtures.nodes(1))
        .failNode("nope", Duration.ofSeconds(1)).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no such node");
  }
}
