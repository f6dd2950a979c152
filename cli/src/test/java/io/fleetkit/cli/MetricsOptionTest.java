package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.observability.prometheus.Exposition;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --metrics FILE} on schedule and simulate: the final metrics in Prometheus text format. */
final class MetricsOptionTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return CliHarness.run(out, err, args);
  }

  private static Path examples() {
    return CliHarness.root().resolve("examples");
  }

  @Test
  void schedule_metricsFile_holdsKubeSchedulerSeries(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("metrics.prom");
    assertThat(run("schedule", examples().resolve("gpu-cluster").toString(), "--metrics", file.toString()))
        .isZero();
    Exposition e = Exposition.parse(Files.readString(file));
    assertThat(e.value("scheduler_schedule_attempts_total",
        Map.of("result", "scheduled", "profile", "default-scheduler"))).contains(4.0);
    assertThat(e.value("scheduler_schedule_attempts_total",
        Map.of("result", "unschedulable", "profile", "default-scheduler"))).hasValueSatisfying(v ->
        assertThat(v).isGreaterThanOrEqualTo(1.0));
    assertThat(e.types()).containsEntry("scheduler_pending_pods", "gauge");
  }

  @Test
  void simulate_metricsFile_holdsSchedulerControllerAndQueueSeries(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("metrics.prom");
    Path example = examples().resolve("simulate");
    int code = run("simulate", example.toString(), "--duration", "2m", "--metrics", file.toString());
    assertThat(code).as(err.toString()).isZero();
    Exposition e = Exposition.parse(Files.readString(file));
    assertThat(e.samples("scheduler_schedule_attempts_total")).isNotEmpty();
    assertThat(e.samples("controller_runtime_reconcile_total")).extracting(s -> s.labels().get("controller"))
        .contains("replicaset", "deployment");
    assertThat(e.samples("workqueue_adds_total")).isNotEmpty();
  }

  @Test
  void schedule_unwritableMetricsFile_exit1NamingTheFile(@TempDir Path dir) {
    Path file = dir.resolve("missing-dir").resolve("metrics.prom");
    assertThat(run("schedule", examples().resolve("gpu-cluster").toString(), "--metrics", file.toString()))
        .isEqualTo(1);
    assertThat(err.toString()).contains("--metrics " + file).contains("cannot write");
  }
}
