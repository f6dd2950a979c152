package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetkit.api.apps.Deployment;
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

  private static void scale(Simulation sim, int replicas) {
    Deployment d = sim.store().get(Deployment.class, "default", "web").orElseThrow();
    sim.store().update(d.withSpec(d.spec().withReplicas(replicas)));
  }
}
