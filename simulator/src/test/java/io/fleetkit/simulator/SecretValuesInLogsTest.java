package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.testing.CapturedLogs;
import io.fleetkit.api.testing.CapturedTelemetry;
import io.fleetkit.api.testing.SecretFixtures;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * No log line of this module's whole test run holds a secret value ({@link CapturedLogs}; the suite scans INFO and
 * above, see the module's pom), and none of the lines, at every level, of a simulation whose Deployment's pods carry
 * the test values in their env, nor any metric series it recorded ({@link CapturedTelemetry}). Runs last.
 */
@Order(Integer.MAX_VALUE)
final class SecretValuesInLogsTest {
  @Test
  void secretBearingDeployment_noValueInLogsAtEveryLevelOrMetrics() {
    CapturedTelemetry telemetry = new CapturedTelemetry();
    long before = CapturedLogs.scanned();
    CapturedLogs.atEveryLevel(() -> {
      Deployment web = Deployment.builder().namespace("default").name("web").replicas(4)
          .matchLabels(Map.of("app", "web"))
          .podSpec(PodSpec.builder().container(SecretFixtures.container("app")).build()).build();
      try (Simulation sim = Simulation.builder().objects(SimFixtures.nodes(2)).object(web).seed(1)
          .failNode("node-1", Duration.ofSeconds(20)).metrics(telemetry.metrics()).build()) {
        sim.runFor(Duration.ofSeconds(60));
        assertThat(SimFixtures.readyPods(sim, "web")).isNotEmpty();
      }
    });
    assertThat(CapturedLogs.scanned() - before).as("lines of the simulation scanned").isPositive();
    assertThat(telemetry.metricNames()).contains("scheduler_schedule_attempts_total",
        "controller_runtime_reconcile_total");
    telemetry.assertNoSecrets();
    CapturedLogs.assertNoLeaks();
  }
}
