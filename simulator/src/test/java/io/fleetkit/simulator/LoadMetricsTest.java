package io.fleetkit.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.DeploymentSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.simulation.LoadPattern;
import io.fleetkit.api.simulation.WorkloadLoad;
import io.fleetkit.autoscale.hpa.PodResourceMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link LoadMetrics} keeps its grouping of pods by workload from the pod and ReplicaSet watches: what it answers
 * must be what a fresh instance (which groups from a list of the store) answers, and within one simulated instant it
 * keeps answering from the snapshot of its first read.
 */
final class LoadMetricsTest {
  private static final List<String> APPS = List.of("web", "api", "batch");

  private static List<WorkloadLoad> loads() {
    return APPS.stream().map(a -> new WorkloadLoad("Deployment", "default", a, LoadPattern.constant(600), 1, 0))
        .toList();
  }

  @Test
  void answersAsAFreshGroupingAfterScalingRolloutsAndDeletions() {
    Simulation sim = Simulation.builder().objects(SimFixtures.nodes(6)).object(SimFixtures.deployment("web", 3))
        .object(SimFixtures.deployment("api", 2)).object(SimFixtures.deployment("batch", 1)).build();
    LoadMetrics kept = new LoadMetrics(sim.store(), sim.clock(), sim.clock().now(), loads());
    Random random = new Random(7);
    for (int step = 0; step < 25; step++) {
      String app = APPS.get(random.nextInt(APPS.size()));
      Deployment d = sim.store().get(Deployment.class, "default", app).orElseThrow();
      switch (random.nextInt(3)) {
        case 0 -> sim.store().update(d.withSpec(d.spec().withReplicas(random.nextInt(5))));
        case 1 -> { // a rollout: a new ReplicaSet takes over, its pods asking for another CPU request
          DeploymentSpec s = d.spec();
          PodTemplateSpec t = new PodTemplateSpec(s.template().metadata(), PodSpec.builder()
              .container("app", "nginx:" + step, ResourceList.ofCpuMemory(250 * (1 + random.nextInt(3)), 0)).build());
          sim.store().update(d.withSpec(new DeploymentSpec(s.replicas(), s.selector(), t, s.strategy(),
              s.minReadySeconds(), s.revisionHistoryLimit(), s.progressDeadlineSeconds(), s.paused())));
        }
        default -> {
          List<Pod> pods = sim.store().list(Pod.class, "default", LabelSelector.of(Map.of("app", app))).items();
          if (!pods.isEmpty()) {
            Pod p = pods.get(random.nextInt(pods.size()));
            sim.store().delete(Pod.class, "default", p.metadata().name());
          }
        }
      }
      sim.runFor(Duration.ofSeconds(1 + random.nextInt(20)));
      LoadMetrics fresh = new LoadMetrics(sim.store(), sim.clock(), sim.clock().now(), loads());
      for (WorkloadLoad l : loads()) {
        assertEquals(fresh.servingPods(l), kept.servingPods(l), "step " + step + ", " + l.target());
        assertEquals(fresh.capacity(l), kept.capacity(l), "step " + step + ", " + l.target());
        assertEquals(ownRequests(sim, l.name()) / 1.0, kept.capacity(l), "step " + step + ", " + l.target());
        LabelSelector s = LabelSelector.of(Map.of("app", l.name()));
        assertEquals(usage(fresh.podResourceMetrics("default", s, "cpu")),
            usage(kept.podResourceMetrics("default", s, "cpu")), "step " + step + ", " + l.target());
      }
      fresh.close();
    }
    kept.close();
    sim.close();
  }

  @Test
  void keepsTheFirstReadOfAnInstantUntilRefreshed() {
    Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2)).object(SimFixtures.deployment("web", 2))
        .build();
    WorkloadLoad web = loads().get(0);
    LoadMetrics metrics = new LoadMetrics(sim.store(), sim.clock(), sim.clock().now(), List.of(web));
    assertEquals(2, metrics.servingPods(web));
    Deployment d = sim.store().get(Deployment.class, "default", "web").orElseThrow();
    sim.store().update(d.withSpec(d.spec().withReplicas(4)));
    sim.settle(); // same instant: the new pods run, but this instant's snapshot was taken before
    assertEquals(4, SimFixtures.readyPods(sim, "web").size());
    assertEquals(2, metrics.servingPods(web));
    metrics.refresh();
    assertEquals(4, metrics.servingPods(web));
    sim.store().delete(Pod.class, "default", SimFixtures.readyPods(sim, "web").get(0).metadata().name());
    assertEquals(4, metrics.servingPods(web));
    sim.runFor(Duration.ofSeconds(1)); // next instant: the replacement is running again
    assertEquals(4, metrics.servingPods(web));
    metrics.close();
    sim.close();
  }

  /** The CPU requests of the serving pods of Deployment {@code app}, each its own, summed (millicores). */
  static long ownRequests(Simulation sim, String app) {
    return sim.store().list(Pod.class, "default", LabelSelector.of(Map.of("app", app))).items().stream()
        .filter(LoadMetrics::serving).mapToLong(p -> p.spec().effectiveRequests().milliCpu()).sum();
  }

  private static long usage(List<PodResourceMetrics> metrics) {
    long total = 0;
    for (PodResourceMetrics m : metrics) {
      total += m.containers().get(0).milliValue();
    }
    return total * 1000 + metrics.size();
  }
}
