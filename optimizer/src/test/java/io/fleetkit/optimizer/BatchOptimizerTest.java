package io.fleetkit.optimizer;

import static io.fleetkit.optimizer.Fixtures.gangPod;
import static io.fleetkit.optimizer.Fixtures.group;
import static io.fleetkit.optimizer.Fixtures.node;
import static io.fleetkit.optimizer.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.scheduling.PodGroup;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.scheduler.plugins.coscheduling.GangTopologyPlugin;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class BatchOptimizerTest {
  private static final BatchOptimizer OPT =
      BatchOptimizer.builder().seed(7).stepLimit(300).timeLimit(Duration.ofSeconds(20)).build();

  @Test
  void plan_gangThatArrivalOrderGreedStrands_placesTheGang() {
    // Two 4-GPU nodes. A 2-GPU singleton arriving first lands on one node under one-by-one placement, after which
    // the 2x4-GPU gang no longer fits; the optimum places the gang (8 GPUs) and leaves the singleton (2 GPUs).
    List<Node> nodes = List.of(node("n1", 32000, 128, 4), node("n2", 32000, 128, 4));
    List<Pod> pending = List.of(pod("a-small", 1000, 1, 2, 0).build(), gangPod("g-0", "train", 4),
        gangPod("g-1", "train", 4));
    BatchPlan plan = OPT.plan(new BatchProblem(nodes, List.of(), pending, List.of(group("train", 2))));
    assertThat(plan.placements()).containsOnlyKeys("default/g-0", "default/g-1");
    assertThat(plan.placements().values()).containsExactlyInAnyOrder("n1", "n2");
    assertThat(plan.placedGpuMilli()).isEqualTo(8000);
    assertThat(plan.unplaced()).containsOnlyKeys("default/a-small");
  }

  @Test
  void plan_twoGangsForTooFewGpus_placesExactlyOneWholeGang() {
    // Issue 5's case: two 8-pod gangs (1 GPU each) for 12 GPUs: exactly one runs, the other holds nothing.
    List<Node> nodes = List.of(node("n1", 64000, 256, 4), node("n2", 64000, 256, 4), node("n3", 64000, 256, 4));
    List<Pod> pending = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      pending.add(gangPod("a-" + i, "a", 1));
      pending.add(gangPod("b-" + i, "b", 1));
    }
    BatchPlan plan = OPT.plan(new BatchProblem(nodes, List.of(), pending, List.of(group("a", 8), group("b", 8))));
    long a = plan.placements().keySet().stream().filter(k -> k.startsWith("default/a-")).count();
    long b = plan.placements().keySet().stream().filter(k -> k.startsWith("default/b-")).count();
    assertThat(List.of(a, b)).containsExactlyInAnyOrder(8L, 0L);
    assertThat(plan.unplaced()).hasSize(8).allSatisfy((k, v) -> assertThat(v).contains("minMember 8"));
  }

  @Test
  void plan_sixteenPodGangAndFourPodGangOnTwelveGpus_runsTheSmallGangOnly() {
    List<Node> nodes = List.of(node("n1", 64000, 256, 4), node("n2", 64000, 256, 4), node("n3", 64000, 256, 4));
    List<Pod> pending = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      pending.add(gangPod("big-" + i, "big", 1));
    }
    for (int i = 0; i < 4; i++) {
      pending.add(gangPod("small-" + i, "small", 1));
    }
    BatchPlan plan = OPT.plan(new BatchProblem(nodes, List.of(), pending, List.of(group("big", 16),
        group("small", 4))));
    assertThat(plan.placements().keySet()).allMatch(k -> k.startsWith("default/small-")).hasSize(4);
  }

  @Test
  void plan_sharesOfOneDevice_packsDeviceByDeviceWithoutOvercommit() {
    // One node with 2 devices: shares 600, 600, 500 cannot all fit (each device holds 600+... only one of them
    // with 400 left), so at most two of the three shares, plus no whole device is left for the 1-GPU pod.
    List<Node> nodes = List.of(node("n1", 32000, 128, 2));
    List<Pod> pending = List.of(pod("s1", 100, 1, 0, 600).build(), pod("s2", 100, 1, 0, 600).build(),
        pod("s3", 100, 1, 0, 500).build());
    BatchPlan plan = OPT.plan(BatchProblem.of(nodes, pending));
    assertThat(plan.placements()).hasSize(2);
    assertThat(plan.placedGpuMilli()).isEqualTo(1200);
  }

  @Test
  void plan_taintedNode_onlyTolerantPodsLand() {
    Node tainted = Node.builder().name("gpu-tainted").ready()
        .allocatable(node("x", 32000, 128, 4).allocatable()).gpus(node("x", 32000, 128, 4).status().gpus())
        .taint(Taint.of("dedicated", "ml", TaintEffect.NoSchedule)).build();
    List<Pod> pending = List.of(pod("plain", 1000, 1, 2, 0).build(),
        pod("tolerant", 1000, 1, 2, 0).toleration(Toleration.equal("dedicated", "ml", TaintEffect.NoSchedule))
            .build());
    BatchPlan plan = OPT.plan(BatchProblem.of(List.of(tainted), pending));
    assertThat(plan.placements()).containsOnlyKeys("default/tolerant");
    assertThat(plan.unplaced().get("default/plain")).contains("tolerations");
  }

  @Test
  void plan_requiredNodeSelector_isRespected() {
    Node labelled = Node.builder().name("n-fast").label("disk", "ssd").ready()
        .allocatable(node("x", 32000, 128, 0).allocatable()).build();
    List<Node> nodes = List.of(node("n-plain", 32000, 128, 0), labelled);
    List<Pod> pending = List.of(pod("needs-ssd", 1000, 1, 0, 0).nodeSelector("disk", "ssd").build());
    BatchPlan plan = OPT.plan(BatchProblem.of(nodes, pending));
    assertThat(plan.placements()).containsEntry("default/needs-ssd", "n-fast");
  }

  @Test
  void plan_runningPodsHoldCapacity_pendingPodsUseOnlyTheRest() {
    List<Node> nodes = List.of(node("n1", 32000, 128, 4));
    Pod running = pod("old", 1000, 1, 3, 0).nodeName("n1").build();
    List<Pod> pending = List.of(pod("two", 1000, 1, 2, 0).build(), pod("one", 1000, 1, 1, 0).build());
    BatchPlan plan = OPT.plan(new BatchProblem(nodes, List.of(running), pending, List.of()));
    assertThat(plan.placements()).containsOnlyKeys("default/one");
  }

  @Test
  void plan_requiredTopology_keepsTheGangInOneRack() {
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(Node.builder().name("n" + i).label("rack", i < 2 ? "r1" : "r2").ready()
          .allocatable(node("x", 32000, 128, 2).allocatable()).gpus(node("x", 32000, 128, 2).status().gpus())
          .build());
    }
    Pod blocker = pod("blocker", 1000, 1, 1, 0).nodeName("n0").build();
    PodGroup g = PodGroup.builder().namespace("default").name("ring").minMember(4)
        .annotation(GangTopologyPlugin.REQUIRED, "rack").build();
    List<Pod> pending = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      pending.add(gangPod("ring-" + i, "ring", 1));
    }
    BatchPlan plan = OPT.plan(new BatchProblem(nodes, List.of(blocker), pending, List.of(g)));
    assertThat(plan.placements()).hasSize(4);
    assertThat(plan.placements().values()).allMatch(n -> n.equals("n2") || n.equals("n3"));
  }

  @Test
  void plan_sameSeedAndStepLimit_isReproducible() {
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      nodes.add(node("n" + i, 16000, 64, 4));
    }
    List<Pod> pending = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      pending.add(pod("p" + i, 500 + 300 * (i % 5), 1 + i % 3, i % 4 == 0 ? 1 : 0, i % 4 == 0 ? 0 : 100 * (i % 7 + 1))
          .build());
    }
    BatchOptimizer o = BatchOptimizer.builder().seed(42).stepLimit(200).timeLimit(Duration.ofSeconds(30)).build();
    BatchPlan first = o.plan(BatchProblem.of(nodes, pending));
    BatchPlan second = o.plan(BatchProblem.of(nodes, pending));
    assertThat(second.placements()).isEqualTo(first.placements());
    assertThat(second.score()).isEqualTo(first.score());
  }

  @Test
  void plan_preferredTopology_keepsTheGangInOneZoneWhenItFits() {
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      nodes.add(Node.builder().name("n" + i).label("zone", i % 2 == 0 ? "a" : "b").ready()
          .allocatable(node("x", 32000, 128, 2).allocatable()).gpus(node("x", 32000, 128, 2).status().gpus())
          .build());
    }
    PodGroup g = PodGroup.builder().namespace("default").name("job").minMember(3)
        .annotation(GangTopologyPlugin.PREFERRED, "zone").build();
    List<Pod> pending = List.of(gangPod("job-0", "job", 1), gangPod("job-1", "job", 1), gangPod("job-2", "job", 1));
    BatchPlan plan = OPT.plan(new BatchProblem(nodes, List.of(), pending, List.of(g)));
    assertThat(plan.placements()).hasSize(3);
    assertThat(plan.placements().values().stream().map(n -> Integer.parseInt(n.substring(1)) % 2).distinct())
        .hasSize(1);
  }

  @Test
  void plan_unimprovedStepLimit_isReproducibleAndFeasible() {
    List<Node> nodes = List.of(node("n0", 8000, 32, 2), node("n1", 8000, 32, 2), node("n2", 8000, 32, 0));
    List<Pod> pending = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      pending.add(pod("p" + i, 1000 + 250 * (i % 3), 2, 0, i % 2 == 0 ? 100 * (i % 9 + 1) : 0).build());
    }
    BatchOptimizer o = BatchOptimizer.builder().seed(5).unimprovedStepLimit(50).timeLimit(Duration.ofSeconds(30))
        .build();
    BatchPlan first = o.plan(BatchProblem.of(nodes, pending));
    assertThat(o.plan(BatchProblem.of(nodes, pending)).placements()).isEqualTo(first.placements());
    assertThat(first.score()).startsWith("0hard/");
    assertThat(first.placements().size() + first.unplaced().size()).isEqualTo(12);
  }

  @Test
  void problem_runningPodOnUnknownNode_isRejectedWithTheNodeName() {
    Pod stray = pod("stray", 100, 1, 0, 0).nodeName("ghost").build();
    assertThatThrownBy(() -> new BatchProblem(List.of(node("n1", 1000, 1, 0)), List.of(stray), List.of(), List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("default/stray")
        .hasMessageContaining("\"ghost\"");
  }

  @Test
  void problem_podNamingMissingGroup_isRejected() {
    assertThatThrownBy(() -> BatchProblem.of(List.of(node("n1", 1000, 1, 0)), List.of(gangPod("x", "nope", 0))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("default/nope");
  }

  @Test
  void builder_nonPositiveTimeLimit_isRejected() {
    assertThatThrownBy(() -> BatchOptimizer.builder().timeLimit(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeLimit must be positive");
  }
}
