package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.scheduling.PodAffinity;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import io.fleetkit.api.scheduling.TopologySpreadConstraint;
import io.fleetkit.api.scheduling.UnsatisfiableConstraintAction;
import java.util.Map;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.NodeAffinity;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.time.ManualClock;
import java.util.List;
import org.junit.jupiter.api.Test;

/** End-to-end cycles with kube's default profile and the default plugins present in this build. */
final class DefaultProfileSchedulingTest {
  private final ManualClock clock = ManualClock.atEpoch2026();

  private Scheduler scheduler() {
    return Scheduler.builder().clock(clock).seed(3).parallelism(2).build();
  }

  @Test
  void defaultProfile_insufficientCpuAndTaints_kubeMessage() {
    try (Scheduler s = scheduler()) {
      for (int i = 0; i < 2; i++) {
        s.addNode(node("small" + i, 1000, 8192, 110));
      }
      for (int i = 0; i < 3; i++) {
        s.addNode(node("gpu" + i, 8000, 8192, 110).toBuilder()
            .taint(Taint.of("gpu", "true", TaintEffect.NoSchedule)).build());
      }
      s.addPod(pod("p", 2000, 512));
      ScheduleResult r = s.scheduleOne();
      assertThat(r.message())
          .isEqualTo("0/5 nodes are available: 2 Insufficient cpu, 3 node(s) had untolerated taint {gpu: true}. "
              + "preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.");
      s.addPod(pod("tolerant", 2000, 512).toBuilder()
          .toleration(Toleration.equal("gpu", "true", TaintEffect.NoSchedule)).build());
      assertThat(s.scheduleOne().nodeName()).startsWith("gpu");
    }
  }

  private static final io.fleetkit.api.core.ContainerImage TRAINER =
      io.fleetkit.api.core.ContainerImage.of(800L * 1024 * 1024, "registry.example.com/trainer:v3");

  private static Pod trainerPod(String name) {
    return Pod.builder().name(name).container("train", "registry.example.com/trainer:v3",
        io.fleetkit.api.resource.ResourceList.ofCpuMemory(100, 64L * 1024 * 1024)).build();
  }

  @Test
  void defaultProfile_largeImage_podLandsOnTheNodeThatHasIt() {
    for (String holder : List.of("a", "b")) {
      for (int seed = 0; seed < 5; seed++) {
        try (Scheduler s = Scheduler.builder().clock(clock).seed(seed).parallelism(2).build()) {
          for (String name : List.of("a", "b")) {
            io.fleetkit.api.core.Node n = node(name, 4000, 8192, 110);
            s.addNode(name.equals(holder) ? n.toBuilder().image(TRAINER).build() : n);
          }
          s.addPod(trainerPod("train-" + seed));
          assertThat(s.scheduleOne().nodeName()).as("seed %d", seed).isEqualTo(holder);
        }
      }
    }
  }

  @Test
  void defaultProfile_imagePulledLater_nodeUpdateIsSeen() {
    try (Scheduler s = scheduler()) {
      s.addNode(node("a", 4000, 8192, 110));
      s.addNode(node("b", 4000, 8192, 110));
      s.addNode(node("c", 4000, 8192, 110));
      s.updateNode(node("c", 4000, 8192, 110).toBuilder().image(TRAINER).build()); // c's kubelet reports the image
      s.addPod(trainerPod("train"));
      assertThat(s.scheduleOne().nodeName()).isEqualTo("c");
      s.updateNode(node("c", 4000, 8192, 110)); // collected: no node holds it, every node scores 0 again
      s.addPod(trainerPod("train-2"));
      // c already runs a pod, so the resource scores now prefer a or b
      assertThat(s.scheduleOne().nodeName()).isIn("a", "b");
    }
  }

  @Test
  void defaultProfile_replicasOfOneImage_followTheImageAsItSpreads() {
    // identical pods: the engine keeps ImageLocality's scores per node between them (its scoreKey), so a node that
    // starts reporting the image, and the counts that change with it, must still be seen by the next replica
    try (Scheduler s = scheduler()) {
      for (String name : List.of("a", "b", "c", "d")) {
        s.addNode(node(name, 4000, 8192, 110));
      }
      s.updateNode(node("b", 4000, 8192, 110).toBuilder().image(TRAINER).build());
      s.addPod(trainerPod("train-0"));
      assertThat(s.scheduleOne().nodeName()).isEqualTo("b");
      s.updateNode(node("d", 4000, 8192, 110).toBuilder().image(TRAINER).build()); // d pulls it; b runs a pod
      s.addPod(trainerPod("train-1"));
      assertThat(s.scheduleOne().nodeName()).isEqualTo("d");
    }
  }

  private static Pod hostPortPod(String name) {
    Pod p = pod(name, 100, 10);
    return p.withSpec(p.spec().toBuilder().containers(List.of(new io.fleetkit.api.core.Container("c", "img",
        p.spec().containers().get(0).resources(), List.of(new io.fleetkit.api.core.ContainerPort("http", 8080, "TCP",
            8080)), List.of(), null))).build());
  }

  @Test
  void defaultProfile_hostPorts_onePodPerNode_thenTheFreedPortIsTaken() {
    try (Scheduler s = scheduler()) {
      s.addNode(node("a", 4000, 8192, 110));
      s.addNode(node("b", 4000, 8192, 110));
      s.addPod(hostPortPod("web-1"));
      s.addPod(hostPortPod("web-2"));
      assertThat(s.runUntilIdle()).extracting(ScheduleResult::nodeName).containsExactlyInAnyOrder("a", "b");
      s.addPod(hostPortPod("web-3"));
      assertThat(s.scheduleOne().message())
          .isEqualTo("0/2 nodes are available: 2 node(s) didn't have free ports for the requested pod ports. "
              + "preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.");
      String freed = s.nodeOf("default/web-1").orElseThrow();
      s.removePod("default/web-1"); // the deletion frees port 8080 on its node: the parked pod is retried there
      clock.advance(java.time.Duration.ofSeconds(20));
      assertThat(s.runUntilIdle()).extracting(ScheduleResult::nodeName).containsExactly(freed);
    }
  }

  @Test
  void defaultProfile_schedulingGates_heldUntilTheLastGateIsRemoved() {
    try (Scheduler s = scheduler()) {
      s.addNode(node("a", 4000, 8192, 110));
      Pod gated = pod("gated", 100, 10).toBuilder().schedulingGate("example.com/quota")
          .schedulingGate("example.com/arch").build();
      s.addPod(gated);
      assertThat(s.runUntilIdle()).isEmpty();
      assertThat(s.pending()).singleElement().satisfies(p -> {
        assertThat(p.queue()).isEqualTo(PendingPod.Queue.GATED);
        assertThat(p.message()).isEqualTo("waiting for scheduling gates: [example.com/quota example.com/arch]");
      });
      s.updatePod(gated.withSpec(gated.spec().toBuilder().schedulingGates(List.of("example.com/arch")).build()));
      assertThat(s.runUntilIdle()).isEmpty();
      s.updatePod(gated.withSpec(gated.spec().toBuilder().schedulingGates(List.of()).build()));
      assertThat(s.runUntilIdle()).extracting(ScheduleResult::nodeName).containsExactly("a");
    }
  }

  @Test
  void defaultProfile_unschedulableNodeAndTooManyPods() {
    try (Scheduler s = scheduler()) {
      s.addNode(node("cordoned", 4000, 8192, 110).toBuilder().unschedulable(true).build());
      s.addNode(node("full", 4000, 8192, 1));
      s.addPod(pod("running", 100, 10).withNodeName("full"));
      s.addPod(pod("p", 100, 10));
      assertThat(s.scheduleOne().message())
          .isEqualTo("0/2 nodes are available: 1 Too many pods, 1 node(s) were unschedulable. preemption: 0/2 nodes "
              + "are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for "
              + "scheduling.");
    }
  }

  @Test
  void defaultProfile_matchFieldsNarrowsNodes_absentNodesCountedLikeKube() {
    try (Scheduler s = scheduler()) {
      s.addNode(node("a", 1000, 8192, 110));
      s.addNode(node("b", 1000, 8192, 110));
      s.addNode(node("c", 1000, 8192, 110));
      NodeSelectorTerm term = new NodeSelectorTerm(List.of(),
          List.of(new NodeSelectorRequirement("metadata.name", NodeSelectorOperator.In, List.of("a"))));
      Pod p = pod("pinned", 2000, 10).toBuilder()
          .affinity(new Affinity(new NodeAffinity(new NodeSelector(List.of(term)), List.of()), null, null)).build();
      s.addPod(p);
      assertThat(s.scheduleOne().message())
          .isEqualTo("0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. "
              + "preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.");
    }
  }

  @Test
  void defaultProfile_requiredAntiAffinity_onePodPerHost() {
    try (Scheduler s = scheduler()) {
      for (int i = 0; i < 3; i++) {
        s.addNode(node("n" + i, 4000, 8192, 110).toBuilder().label("kubernetes.io/hostname", "n" + i).build());
      }
      PodAffinityTerm term = PodAffinityTerm.of(LabelSelector.of(Map.of("color", "green")), "kubernetes.io/hostname");
      for (int i = 0; i < 4; i++) {
        s.addPod(pod("g" + i, 100, 10).toBuilder().label("color", "green")
            .affinity(new Affinity(null, null, new PodAffinity(List.of(term), List.of()))).build());
      }
      List<ScheduleResult> rs = s.runUntilIdle();
      assertThat(rs.stream().filter(ScheduleResult::isBound).map(ScheduleResult::nodeName).distinct()).hasSize(3);
      assertThat(rs).filteredOn(r -> !r.isBound()).singleElement().satisfies(r -> assertThat(r.message())
          .isEqualTo("0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes "
              + "are available: 3 No preemption victims found for incoming pod."));
    }
  }

  @Test
  void defaultProfile_topologySpread_keepsZonesWithinSkew() {
    try (Scheduler s = scheduler()) {
      String[] zones = {"z1", "z2", "z3"};
      for (int i = 0; i < 6; i++) {
        s.addNode(node("n" + i, 8000, 16384, 110).toBuilder()
            .label("topology.kubernetes.io/zone", zones[i % 3]).build());
      }
      TopologySpreadConstraint c = TopologySpreadConstraint.of(1, "topology.kubernetes.io/zone",
          UnsatisfiableConstraintAction.DoNotSchedule, LabelSelector.of(Map.of("app", "web")));
      for (int i = 0; i < 9; i++) {
        s.addPod(pod("w" + i, 100, 10).toBuilder().label("app", "web").topologySpreadConstraint(c).build());
      }
      assertThat(s.runUntilIdle()).allMatch(ScheduleResult::isBound);
      Map<String, Integer> perZone = new java.util.HashMap<>();
      for (int i = 0; i < 6; i++) {
        var ni = s.nodeInfo("n" + i).orElseThrow();
        perZone.merge(ni.labels().get("topology.kubernetes.io/zone"), ni.pods().size(), Integer::sum);
      }
      assertThat(perZone).containsEntry("z1", 3).containsEntry("z2", 3).containsEntry("z3", 3);
    }
  }

  @Test
  void defaultProfile_preemption_evictsLowerPriorityPodsNominatesAndBindsAfterBackoff() {
    try (Scheduler s = scheduler()) {
      s.addNode(node("n1", 4000, 32768, 110));
      for (int i = 0; i < 4; i++) {
        s.addPod(pod("low" + i, 900, 500, 0).withNodeName("n1"));
      }
      s.addPod(pod("high", 3000, 500, 10));
      ScheduleResult r = s.scheduleOne();
      assertThat(r.isBound()).isFalse();
      assertThat(r.nominatedNodeName()).isEqualTo("n1");
      assertThat(r.victims()).hasSize(3);
      assertThat(r.message()).isEqualTo("0/1 nodes are available: 1 Insufficient cpu.");
      assertThat(s.nodeInfo("n1").orElseThrow().pods()).hasSize(1);
      clock.advance(java.time.Duration.ofSeconds(1));
      ScheduleResult retry = s.scheduleOne();
      assertThat(retry.nodeName()).isEqualTo("n1");
    }
  }

  @Test
  void defaultProfile_preemptionNotHelpful_appendsKubeMessage() {
    try (Scheduler s = scheduler()) {
      s.addNode(node("n1", 4000, 32768, 110));
      s.addNode(node("n2", 4000, 32768, 110));
      s.addPod(pod("huge", 9000, 500, 10));
      // 9 CPUs exceed every node's allocatable: NodeResourcesFit says unresolvable, so preemption cannot help
      assertThat(s.scheduleOne().message()).isEqualTo("0/2 nodes are available: 2 Insufficient cpu. preemption: "
          + "0/2 nodes are available: 2 Preemption is not helpful for scheduling.");
    }
  }

  @Test
  void defaultProfile_spreadsEqualPodsByLeastAllocated() {
    try (Scheduler s = scheduler()) {
      for (int i = 0; i < 4; i++) {
        s.addNode(node("n" + i, 4000, 8192, 110));
      }
      for (int i = 0; i < 8; i++) {
        s.addPod(pod("p" + i, 500, 512));
      }
      assertThat(s.runUntilIdle()).allMatch(ScheduleResult::isBound);
      for (int i = 0; i < 4; i++) {
        assertThat(s.nodeInfo("n" + i).orElseThrow().pods()).hasSize(2);
      }
    }
  }

  @Test
  void defaultProfile_largeCluster_samplesAndRotates() {
    try (Scheduler s = scheduler()) {
      for (int i = 0; i < 1000; i++) {
        s.addNode(node(String.format("n%04d", i), 4000, 32768, 110));
      }
      for (int i = 0; i < 300; i++) {
        s.addPod(pod("p" + i, 100, 500));
      }
      List<ScheduleResult> rs = s.runUntilIdle();
      assertThat(rs).hasSize(300).allMatch(ScheduleResult::isBound);
      long used = rs.stream().map(ScheduleResult::nodeName).distinct().count();
      assertThat(used).isGreaterThan(100); // least-allocated scoring spreads over the rotating sample
    }
  }
}
