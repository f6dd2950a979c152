package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.DeploymentSpec;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.resource.ResourceList;
import java.util.Map;
import io.fleetkit.api.simulation.LoadPattern;
import io.fleetkit.api.simulation.WorkloadLoad;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link LoadAccounting} counts the requests beyond a workload's capacity between the simulation's instants: with a
 * constant load and pods taken away and given back at known times, the count is the rate above capacity times those
 * times, to the request, and the worst minute is the one with most of it.
 */
final class LoadAccountingTest {
  /** 600 requests/s at 1 millicore each: one 500m pod serves 500 of them, two serve all. */
  private static final WorkloadLoad WEB = new WorkloadLoad("Deployment", "default", "web", LoadPattern.constant(600),
      1, 0);

  @Test
  void countsWhatIsBeyondCapacityWhileAPodIsMissing_andTheWorstMinute() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2)).object(SimFixtures.deployment("web", 2))
        .build()) {
      LoadMetrics metrics = new LoadMetrics(sim.store(), sim.clock(), sim.clock().now(), List.of(WEB));
      LoadAccounting accounting = new LoadAccounting(metrics, List.of(WEB));
      accounting.start(sim.elapsed());
      sim.afterEachInstant(() -> accounting.advance(sim.elapsed()));
      assertThat(metrics.capacity(WEB)).isEqualTo(1000.0);
      sim.runFor(Duration.ofSeconds(10));
      scale(sim, 1); // 10 s to 40 s: 100 requests/s beyond the one pod's 500
      sim.runFor(Duration.ofSeconds(30));
      scale(sim, 2);
      sim.runFor(Duration.ofSeconds(10));
      scale(sim, 1); // 50 s to 130 s: 1,000 in minute 0, 6,000 in minute 1, 1,000 in minute 2
      sim.runFor(Duration.ofSeconds(80));
      scale(sim, 2);
      sim.runFor(Duration.ofSeconds(50));

      LoadOutcome out = accounting.outcomes(sim.elapsed()).get(0);
      assertThat(out.target()).isEqualTo("Deployment/default/web");
      assertThat(out.requests()).isCloseTo(600.0 * 180, within(1e-6));
      assertThat(out.unserved()).isCloseTo(100.0 * 30 + 100.0 * 80, within(1e-6));
      assertThat(out.worstMinute()).isEqualTo(Duration.ofMinutes(1));
      assertThat(out.worstMinuteUnserved()).isCloseTo(6000.0, within(1e-6));
      assertThat(out.summary()).isEqualTo("11,000 of 108,000 requests beyond capacity (10.19 %), the most in the minute"
          + " from 0:01 (6,000)");
      metrics.close();
    }
  }

  @Test
  void aLoadWithinCapacity_nothingBeyond_andNoWorstMinute() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2)).object(SimFixtures.deployment("web", 2))
        .build()) {
      LoadMetrics metrics = new LoadMetrics(sim.store(), sim.clock(), sim.clock().now(), List.of(WEB));
      LoadAccounting accounting = new LoadAccounting(metrics, List.of(WEB));
      accounting.start(sim.elapsed());
      sim.afterEachInstant(() -> accounting.advance(sim.elapsed()));
      sim.runFor(Duration.ofMinutes(3));
      LoadOutcome out = accounting.outcomes(sim.elapsed()).get(0);
      assertThat(out.requests()).isCloseTo(600.0 * 180, within(1e-6));
      assertThat(out.unserved()).isZero();
      assertThat(out.worstMinute()).isNull();
      assertThat(out.summary()).isEqualTo("108,000 requests, none beyond capacity");
      metrics.close();
    }
  }

  @Test
  void requestsThatCostNoCpu_areNeverBeyondCapacity_evenWithNoPod() {
    WorkloadLoad free = new WorkloadLoad("Deployment", "default", "web", LoadPattern.constant(600), 0, 0);
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2)).object(SimFixtures.deployment("web", 2))
        .build()) {
      LoadMetrics metrics = new LoadMetrics(sim.store(), sim.clock(), sim.clock().now(), List.of(free));
      LoadAccounting accounting = new LoadAccounting(metrics, List.of(free));
      accounting.start(sim.elapsed());
      sim.afterEachInstant(() -> accounting.advance(sim.elapsed()));
      scale(sim, 0);
      sim.runFor(Duration.ofSeconds(150));
      LoadOutcome out = accounting.outcomes(sim.elapsed()).get(0);
      assertThat(out.requests()).isCloseTo(600.0 * 150, within(1e-6));
      assertThat(out.unserved()).isZero();
      assertThat(out.worstMinute()).isNull();
      metrics.close();
    }
  }

  /**
   * A pod on a node that fails stops serving at the failure instant, not when the node lifecycle controller marks it
   * not ready some 40 s later: with one of the two pods' node failed at 10 s, 100 requests/s are beyond capacity from
   * 10 s on, to the request, while the store still shows the pod Ready.
   */
  @Test
  void aPodOnAFailedNode_servesNothingFromTheFailureInstant() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2)).object(SimFixtures.deployment("web", 2))
        .build()) {
      LoadMetrics metrics = new LoadMetrics(sim.store(), sim.clock(), sim.clock().now(), List.of(WEB));
      sim.onNodeLiveness((node, alive) -> metrics.nodeDown(node, !alive));
      LoadAccounting accounting = new LoadAccounting(metrics, List.of(WEB));
      accounting.start(sim.elapsed());
      sim.afterEachInstant(() -> accounting.advance(sim.elapsed()));
      List<String> nodes = SimFixtures.readyPods(sim, "web").stream().map(p -> p.spec().nodeName()).distinct().toList();
      assertThat(nodes).as("the two pods spread over the two nodes").hasSize(2);
      sim.runFor(Duration.ofSeconds(10));
      assertThat(metrics.capacity(WEB)).isEqualTo(1000.0);
      sim.failNode(nodes.get(0));
      sim.settle();
      assertThat(metrics.capacity(WEB)).isEqualTo(500.0);
      assertThat(metrics.servingPods(WEB)).isEqualTo(1);
      sim.runFor(Duration.ofSeconds(30)); // to 40 s: the node is not yet marked, its pod still Ready in the store
      assertThat(SimFixtures.readyPods(sim, "web")).hasSize(2);
      LoadOutcome out = accounting.outcomes(sim.elapsed()).get(0);
      assertThat(out.requests()).isCloseTo(600.0 * 40, within(1e-6));
      assertThat(out.unserved()).isCloseTo(100.0 * 30, within(1e-6));
      // until the node lifecycle controller marks the pod not ready, and on: the pod still serves nothing
      assertThat(sim.runUntil(s -> SimFixtures.readyPods(s, "web").size() == 1, Duration.ofMinutes(2))).isTrue();
      sim.runFor(Duration.ofSeconds(5));
      double seconds = sim.elapsed().toMillis() / 1000.0;
      assertThat(seconds).isGreaterThan(45);
      assertThat(accounting.outcomes(sim.elapsed()).get(0).unserved()).isCloseTo(100.0 * (seconds - 10),
          within(1e-6));
      metrics.close();
    }
  }

  /** A node that comes back gives its pods back to the capacity as their status says, at that instant. */
  @Test
  void aNodeBack_itsReadyPodsServeAgain() {
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2)).object(SimFixtures.deployment("web", 2))
        .build()) {
      LoadMetrics metrics = new LoadMetrics(sim.store(), sim.clock(), sim.clock().now(), List.of(WEB));
      String node = SimFixtures.readyPods(sim, "web").get(0).spec().nodeName();
      long epoch = metrics.servingEpoch();
      metrics.nodeDown(node, true);
      assertThat(metrics.capacity(WEB)).isEqualTo(500.0);
      assertThat(metrics.servingEpoch()).isNotEqualTo(epoch);
      metrics.nodeDown(node, true); // again: nothing changes
      long down = metrics.servingEpoch();
      metrics.nodeDown(node, true);
      assertThat(metrics.servingEpoch()).isEqualTo(down);
      metrics.nodeDown("node-9", true); // a node without pods of the load
      assertThat(metrics.capacity(WEB)).isEqualTo(500.0);
      metrics.nodeDown(node, false);
      assertThat(metrics.capacity(WEB)).isEqualTo(1000.0);
      assertThat(metrics.servingPods(WEB)).isEqualTo(2);
      metrics.close();
    }
  }

  /**
   * During a rollout that halves the pods' CPU request, each serving pod serves by its own request: the old pods
   * keep 500 requests/s each until they go, the new ones 250. At every instant the capacity is the sum of the serving
   * pods' own requests read from the store, and the requests beyond it are counted from that, to the request; one
   * instant has one pod of each (750 requests/s), where the template's request would say 500.
   */
  @Test
  void duringARollout_eachServingPodServesByItsOwnRequest() {
    WorkloadLoad load = new WorkloadLoad("Deployment", "default", "web", LoadPattern.constant(900), 1, 0);
    try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2)).object(SimFixtures.deployment("web", 2))
        .build()) {
      LoadMetrics metrics = new LoadMetrics(sim.store(), sim.clock(), sim.clock().now(), List.of(load));
      LoadAccounting accounting = new LoadAccounting(metrics, List.of(load));
      accounting.start(sim.elapsed());
      List<double[]> seen = new java.util.ArrayList<>(); // {seconds, capacity from the store}
      sim.afterEachInstant(() -> {
        accounting.advance(sim.elapsed());
        double own = LoadMetricsTest.ownRequests(sim, "web");
        assertThat(metrics.capacity(load)).as("at %s", sim.elapsed()).isEqualTo(own);
        seen.add(new double[] {sim.elapsed().toMillis() / 1000.0, own});
      });
      seen.add(new double[] {0, metrics.capacity(load)});
      sim.runFor(Duration.ofSeconds(10));
      Deployment d = sim.store().get(Deployment.class, "default", "web").orElseThrow();
      PodTemplateSpec t = d.spec().template();
      // the new pods ask for 250m and are ready 10 s after they start, so the rollout takes a few instants
      Map<String, String> annotations = Map.of("simulate.fleetkit.io/ready-after-seconds", "10");
      PodTemplateSpec half = new PodTemplateSpec(t.metadata().toBuilder().annotations(annotations).build(),
          PodSpec.builder().container("app", "nginx:2", ResourceList.ofCpuMemory(250, 0)).build());
      DeploymentSpec s = d.spec();
      sim.store().update(d.withSpec(new DeploymentSpec(s.replicas(), s.selector(), half, s.strategy(),
          s.minReadySeconds(), s.revisionHistoryLimit(), s.progressDeadlineSeconds(), s.paused())));
      sim.runFor(Duration.ofSeconds(60));
      assertThat(metrics.capacity(load)).isEqualTo(500.0);
      assertThat(seen).extracting(c -> c[1]).contains(1000.0, 750.0, 500.0);
      double expected = 0;
      for (int i = 0; i < seen.size(); i++) {
        double from = seen.get(i)[0];
        double to = i + 1 < seen.size() ? seen.get(i + 1)[0] : sim.elapsed().toMillis() / 1000.0;
        expected += Math.max(0, 900 - seen.get(i)[1]) * (to - from);
      }
      assertThat(expected).isGreaterThan(0);
      assertThat(accounting.outcomes(sim.elapsed()).get(0).unserved()).isCloseTo(expected, within(1e-6));
      metrics.close();
    }
  }

  private static void scale(Simulation sim, int replicas) {
    Deployment d = sim.store().get(Deployment.class, "default", "web").orElseThrow();
    sim.store().update(d.withSpec(d.spec().withReplicas(replicas)));
  }
}
