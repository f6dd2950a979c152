package io.fleetkit.reconcile.rollouts;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServicePort;
import io.fleetkit.api.core.ServiceSpec;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.rollouts.AnalysisPhase;
import io.fleetkit.api.rollouts.AnalysisRun;
import io.fleetkit.api.rollouts.AnalysisTemplate;
import io.fleetkit.api.rollouts.BlueGreenStrategy;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.CanaryStrategy;
import io.fleetkit.api.rollouts.Metric;
import io.fleetkit.api.rollouts.MetricProvider;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RolloutAnalysis;
import io.fleetkit.api.rollouts.RolloutPhase;
import io.fleetkit.api.rollouts.RolloutStatus;
import io.fleetkit.reconcile.controllers.ActivePods;
import io.fleetkit.reconcile.node.HealthSource;
import io.fleetkit.simulator.Simulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Rollouts end to end in the simulation: kubelets, scheduler, ReplicaSets, analysis runs. */
final class RolloutSimulationTest {
  static List<Node> nodes(int n) {
    List<Node> out = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      out.add(Node.builder().name("node-" + i).capacity(ResourceList.builder().put("cpu", "16").put("memory", "32Gi")
          .put("pods", "110").build()).build());
    }
    return out;
  }

  static PodTemplateSpec template(String image, Map<String, String> annotations) {
    return new PodTemplateSpec(ObjectMeta.builder().labels(Map.of("app", "web")).annotations(annotations).build(),
        PodSpec.builder().container("app", image, ResourceList.ofCpuMemory(100, 0)).build());
  }

  static Rollout canary(int replicas, CanaryStrategy strategy) {
    return Rollout.builder().namespace("default").name("web").replicas(replicas).matchLabels(Map.of("app", "web"))
        .template(template("shop:1", Map.of())).canary(strategy).build();
  }

  static AnalysisTemplate errorRate() {
    return new AnalysisTemplate(ObjectMeta.of("default", "error-rate"), List.of(Metric.of("error-rate",
        new MetricProvider.Simulated("error-rate")).withInterval(Duration.ofSeconds(10)).withCount(3)
        .withConditions("result < 0.05", "")), List.of());
  }

  static Rollout rollout(Simulation sim) {
    return sim.store().require(Rollout.class, "default", "web");
  }

  static void update(Simulation sim, String image, Map<String, String> annotations) {
    Rollout r = rollout(sim);
    sim.store().update(r.withSpec(r.spec().withTemplate(template(image, annotations))));
  }

  static List<Pod> readyPods(Simulation sim, String image) {
    return sim.store().list(Pod.class, "default", (Pod p) -> ActivePods.isActive(p)
        && p.spec().containers().get(0).image().equals(image) && ready(p)).items();
  }

  static boolean ready(Pod p) {
    PodCondition c = p.status().condition(PodCondition.READY);
    return c != null && c.status() == ConditionStatus.True;
  }

  /** Runs in 1 s steps up to {@code seconds}, checking {@code invariant} after each. */
  static void run(Simulation sim, long seconds, Consumer<Simulation> invariant) {
    for (long i = 0; i < seconds; i++) {
      sim.runFor(Duration.ofSeconds(1));
      invariant.accept(sim);
    }
  }

  @Test
  void canary_passingAnalysis_promotedStepByStep() {
    CanaryStrategy c = CanaryStrategy.of(new CanaryStep.SetWeight(20), CanaryStep.Pause.of(Duration.ofSeconds(30)),
        new CanaryStep.SetWeight(50), new CanaryStep.Analysis(RolloutAnalysis.of("error-rate")))
        .withSurge(IntOrPercent.of(1), IntOrPercent.of(1));
    try (Simulation sim = Simulation.builder().objects(nodes(3)).object(errorRate()).object(canary(10, c)).seed(1)
        .build()) {
      sim.runFor(Duration.ofSeconds(5));
      assertThat(rollout(sim).status().phase()).isEqualTo(RolloutPhase.Healthy);
      String v1 = rollout(sim).status().stableRs();
      assertThat(readyPods(sim, "shop:1")).hasSize(10);

      update(sim, "shop:2", Map.of(HealthSource.READY_AFTER, "5"));
      List<Integer> weights = new ArrayList<>();
      run(sim, 120, s -> {
        RolloutStatus st = rollout(s).status();
        weights.add(st.canaryWeight());
        // never fewer ready pods than replicas - maxUnavailable, and no more than replicas + maxSurge
        int ready = readyPods(s, "shop:1").size() + readyPods(s, "shop:2").size();
        assertThat(ready).as("ready at %s", s.elapsed()).isGreaterThanOrEqualTo(9);
      });
      Rollout r = rollout(sim);
      assertThat(r.status().phase()).isEqualTo(RolloutPhase.Healthy);
      assertThat(r.status().stableRs()).isNotEqualTo(v1).isEqualTo(r.status().currentPodHash());
      assertThat(readyPods(sim, "shop:2")).hasSize(10);
      assertThat(readyPods(sim, "shop:1")).isEmpty();
      assertThat(weights).contains(20, 50);
      AnalysisRun run = sim.store().list(AnalysisRun.class, "default").items().get(0);
      assertThat(run.status().phase()).isEqualTo(AnalysisPhase.Successful);
      assertThat(run.status().metricResults().get(0).count()).isEqualTo(3);
    }
  }

  @Test
  void canary_failingAnalysis_abortedAndRolledBack() {
    CanaryStrategy c = CanaryStrategy.of(new CanaryStep.SetWeight(20),
        new CanaryStep.Analysis(RolloutAnalysis.of("error-rate")), new CanaryStep.SetWeight(60))
        .withSurge(IntOrPercent.of(1), IntOrPercent.of(0));
    try (Simulation sim = Simulation.builder().objects(nodes(3)).object(errorRate()).object(canary(10, c)).seed(2)
        .build()) {
      sim.runFor(Duration.ofSeconds(5));
      update(sim, "shop:2", Map.of(io.fleetkit.reconcile.rollouts.SimulatedMeasurementProvider.ERROR_RATE, "0.2"));
      run(sim, 90, s -> assertThat(readyPods(s, "shop:1").size() + readyPods(s, "shop:2").size())
          .isGreaterThanOrEqualTo(10));
      Rollout r = rollout(sim);
      assertThat(r.status().phase()).isEqualTo(RolloutPhase.Degraded);
      assertThat(r.status().abort()).isTrue();
      assertThat(r.status().message()).startsWith("RolloutAborted: AnalysisRun").contains("Failed");
      assertThat(r.status().canaryWeight()).isZero();
      assertThat(sim.summary().rollouts()).containsExactly(new io.fleetkit.simulator.RolloutSummary(
          "default/web", "Degraded", r.status().stableRs(), 0, true, 0, 3, r.status().message()));
      assertThat(sim.summary().rollouts().get(0).stepProgress()).isEqualTo("0/3");
      assertThat(sim.timeline()).extracting(e -> e.kind() + " " + e.message())
          .anyMatch(m -> m.startsWith("AnalysisRunStatus Failed"))
          .anyMatch(m -> m.startsWith("RolloutStatus Degraded") && m.contains("RolloutAborted"));
      assertThat(readyPods(sim, "shop:1")).hasSize(10);
      assertThat(readyPods(sim, "shop:2")).isEmpty();
      ReplicaSet canaryRs = sim.store().require(ReplicaSet.class, "default", "web-" + r.status().currentPodHash());
      assertThat(canaryRs.spec().replicas()).isZero();

      RolloutController.retry(sim.store(), "default", "web");
      update(sim, "shop:3", Map.of());
      sim.runFor(Duration.ofSeconds(120));
      assertThat(rollout(sim).status().phase()).isEqualTo(RolloutPhase.Healthy);
      assertThat(readyPods(sim, "shop:3")).hasSize(10);
    }
  }

  @Test
  void canary_indefinitePause_waitsForPromote() {
    CanaryStrategy c = CanaryStrategy.of(new CanaryStep.SetWeight(30), CanaryStep.Pause.indefinite());
    try (Simulation sim = Simulation.builder().objects(nodes(2)).object(canary(10, c)).seed(3).build()) {
      sim.runFor(Duration.ofSeconds(5));
      update(sim, "shop:2", Map.of());
      sim.runFor(Duration.ofMinutes(10));
      Rollout r = rollout(sim);
      assertThat(r.status().phase()).isEqualTo(RolloutPhase.Paused);
      assertThat(r.status().message()).isEqualTo("CanaryPauseStep");
      assertThat(readyPods(sim, "shop:2")).hasSize(3);
      RolloutController.promote(sim.store(), "default", "web", false);
      sim.runFor(Duration.ofSeconds(60));
      assertThat(rollout(sim).status().phase()).isEqualTo(RolloutPhase.Healthy);
      assertThat(readyPods(sim, "shop:2")).hasSize(10);
    }
  }

  @Test
  void canary_progressDeadline_withAbort_rollsBack() {
    CanaryStrategy c = CanaryStrategy.of(new CanaryStep.SetWeight(50));
    Rollout r0 = canary(4, c);
    r0 = r0.withSpec(new io.fleetkit.api.rollouts.RolloutSpec(4, r0.spec().selector(), r0.spec().template(),
        r0.spec().strategy(), 0, 10, 60, true, false));
    try (Simulation sim = Simulation.builder().objects(nodes(2)).object(r0).seed(4).build()) {
      sim.runFor(Duration.ofSeconds(5));
      update(sim, "shop:2", Map.of(HealthSource.READY_AFTER, "never"));
      sim.runFor(Duration.ofSeconds(59));
      assertThat(rollout(sim).status().phase()).isEqualTo(RolloutPhase.Progressing);
      sim.runFor(Duration.ofSeconds(30));
      Rollout r = rollout(sim);
      assertThat(r.status().phase()).isEqualTo(RolloutPhase.Degraded);
      assertThat(r.status().message()).contains("ProgressDeadlineExceeded");
      assertThat(r.status().abort()).isTrue();
      assertThat(readyPods(sim, "shop:1")).hasSize(4);
    }
  }

  @Test
  void blueGreen_prePromotionAnalysis_switchesActiveThenScalesOldDown() {
    Service active = new Service(ObjectMeta.of("default", "web-active"), ServiceSpec.builder()
        .selector(Map.of("app", "web")).ports(List.of(ServicePort.of(80))).build(), io.fleetkit.api.core.ServiceStatus.EMPTY);
    Service preview = new Service(ObjectMeta.of("default", "web-preview"), ServiceSpec.builder()
        .selector(Map.of("app", "web")).ports(List.of(ServicePort.of(80))).build(), io.fleetkit.api.core.ServiceStatus.EMPTY);
    Rollout r0 = Rollout.builder().namespace("default").name("web").replicas(4).matchLabels(Map.of("app", "web"))
        .template(template("shop:1", Map.of())).blueGreen(BlueGreenStrategy.of("web-active", "web-preview")
            .withPrePromotionAnalysis(RolloutAnalysis.of("error-rate"))).build();
    try (Simulation sim = Simulation.builder().objects(nodes(2)).object(errorRate()).object(active).object(preview)
        .object(r0).seed(5).build()) {
      sim.runFor(Duration.ofSeconds(5));
      String v1 = rollout(sim).status().activeSelector();
      assertThat(rollout(sim).status().phase()).isEqualTo(RolloutPhase.Healthy);
      assertThat(sim.store().require(Service.class, "default", "web-active").spec().selector())
          .containsEntry(Rollout.POD_TEMPLATE_HASH_LABEL, v1);
      update(sim, "shop:2", Map.of());
      sim.runFor(Duration.ofSeconds(10));
      Rollout mid = rollout(sim);
      assertThat(mid.status().activeSelector()).isEqualTo(v1);
      assertThat(sim.store().require(Service.class, "default", "web-preview").spec().selector())
          .containsEntry(Rollout.POD_TEMPLATE_HASH_LABEL, mid.status().currentPodHash());
      assertThat(readyPods(sim, "shop:2")).hasSize(4);
      sim.runFor(Duration.ofSeconds(30));
      Rollout promoted = rollout(sim);
      assertThat(promoted.status().activeSelector()).isEqualTo(promoted.status().currentPodHash());
      assertThat(readyPods(sim, "shop:1")).as("old version kept during the scale-down delay").hasSize(4);
      sim.runFor(Duration.ofSeconds(40));
      assertThat(readyPods(sim, "shop:1")).isEmpty();
      assertThat(rollout(sim).status().phase()).isEqualTo(RolloutPhase.Healthy);
    }
  }

  /** Argo's IsSaturated and scaleUpPreviewCheckPoint: a preview of 1 is scaled up to 3 before the switch. */
  @Test
  void blueGreen_previewReplicaCount_scaledUpToFullBeforeTheActiveSwitch() {
    Rollout r0 = Rollout.builder().namespace("default").name("web").replicas(3).matchLabels(Map.of("app", "web"))
        .template(template("shop:1", Map.of())).blueGreen(new BlueGreenStrategy("web-active", "web-preview", true, 0,
            10, 1, null, null, null)).build();
    try (Simulation sim = Simulation.builder().objects(nodes(2)).object(RolloutTrafficRoutingTest.service("web-active"))
        .object(RolloutTrafficRoutingTest.service("web-preview")).object(r0).seed(8).build()) {
      sim.runFor(Duration.ofSeconds(5));
      String v1 = rollout(sim).status().activeSelector();
      update(sim, "shop:2", Map.of(HealthSource.READY_AFTER, "5"));
      List<Integer> readyNewAtSwitch = new ArrayList<>();
      run(sim, 60, s -> {
        Rollout r = rollout(s);
        if (!r.status().activeSelector().equals(v1) && readyNewAtSwitch.isEmpty()) {
          readyNewAtSwitch.add(readyPods(s, "shop:2").size());
        }
        assertThat(readyPods(s, r.status().activeSelector().equals(v1) ? "shop:1" : "shop:2")).hasSize(3);
      });
      assertThat(readyNewAtSwitch).containsExactly(3);
      assertThat(rollout(sim).status().scaleUpPreviewCheckPoint()).isFalse();
      assertThat(rollout(sim).status().phase()).isEqualTo(RolloutPhase.Healthy);
    }
  }

  @Test
  void canary_analysisJobFails_abortedAutomatically() {
    io.fleetkit.api.batch.JobSpec failing = io.fleetkit.api.batch.Job.builder().namespace("default").name("x")
        .backoffLimit(0).templateLabels(Map.of("job", "smoke"))
        .podSpec(PodSpec.builder().container("smoke", "curl:8", ResourceList.ofCpuMemory(100, 0))
            .restartPolicy(io.fleetkit.api.core.RestartPolicy.Never).build())
        .build().spec();
    failing = new io.fleetkit.api.batch.JobSpec(failing.parallelism(), failing.completions(),
        failing.completionMode(), failing.backoffLimit(), failing.activeDeadlineSeconds(),
        failing.ttlSecondsAfterFinished(), failing.suspend(), failing.selector(),
        new PodTemplateSpec(failing.template().metadata().toBuilder()
            .annotation(HealthSource.EXIT_AFTER, "5").annotation(HealthSource.EXIT_CODE, "1").build(),
            failing.template().spec()));
    AnalysisTemplate smoke = new AnalysisTemplate(ObjectMeta.of("default", "smoke"), List.of(Metric.of("smoke",
        new MetricProvider.Job(failing))), List.of());
    CanaryStrategy c = CanaryStrategy.of(new CanaryStep.SetWeight(25),
        new CanaryStep.Analysis(RolloutAnalysis.of("smoke")), new CanaryStep.SetWeight(100));
    try (Simulation sim = Simulation.builder().objects(nodes(2)).object(smoke).object(canary(4, c)).seed(6)
        .build()) {
      sim.runFor(Duration.ofSeconds(5));
      update(sim, "shop:2", Map.of());
      sim.runFor(Duration.ofSeconds(60));
      Rollout r = rollout(sim);
      assertThat(r.status().phase()).isEqualTo(RolloutPhase.Degraded);
      assertThat(r.status().message()).contains("AnalysisRun").contains("Failed");
      assertThat(sim.store().list(io.fleetkit.api.batch.Job.class, "default").items()).hasSize(1);
      assertThat(readyPods(sim, "shop:1")).hasSize(4);
      assertThat(readyPods(sim, "shop:2")).isEmpty();
    }
  }
}
