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
  void simulate_scenario_metricsFileHoldsTheAutoscalersSeriesBesideTheReport(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("metrics.prom");
    Path report = dir.resolve("report.html");
    int code = run("simulate", examples().resolve("cluster").toString(), "--duration", "30m", "--metrics",
        file.toString(), "--report", report.toString());
    assertThat(code).as(err.toString()).isZero();
    assertThat(report).isNotEmptyFile();
    Exposition e = Exposition.parse(Files.readString(file));
    assertThat(e.samples("scheduler_schedule_attempts_total")).isNotEmpty();
    assertThat(e.samples("controller_runtime_reconcile_total")).extracting(s -> s.labels().get("controller"))
        .contains("replicaset", "deployment", "job");
    // the shop's HPA syncs every 15 s: 120 syncs in 30 minutes, the first at the start
    assertThat(e.samples("horizontal_pod_autoscaler_controller_reconciliations_total").stream()
        .mapToDouble(Exposition.Sample::value).sum()).isBetween(119.0, 121.0);
    assertThat(e.value("horizontal_pod_autoscaler_controller_num_horizontal_pod_autoscalers", Map.of()))
        .contains(1.0);
    assertThat(e.types()).containsKey("cluster_autoscaler_nodes_count");
    assertThat(e.samples("cluster_autoscaler_nodes_count")).isNotEmpty();
  }

  @Test
  void simulate_scenario_unwritableMetricsFile_exit1NamingTheFile(@TempDir Path dir) {
    Path file = dir.resolve("missing-dir").resolve("metrics.prom");
    assertThat(run("simulate", examples().resolve("cluster").toString(), "--duration", "1m", "--metrics",
        file.toString())).isEqualTo(1);
    assertThat(err.toString()).contains("--metrics " + file).contains("cannot write");
  }

  @Test
  void simulate_draExample_metricsFileHoldsTheClaimControllerSeries(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("metrics.prom");
    int code = run("simulate", examples().resolve("dra").toString(), "--duration", "1m", "--metrics",
        file.toString());
    assertThat(code).as(err.toString()).isZero();
    Exposition e = Exposition.parse(Files.readString(file));
    // three pods, one claim each from a template without admin access; two claims allocated, one waiting
    assertThat(e.value("dynamic_resource_allocation_resourceclaim_creates_total",
        Map.of("status", "success", "admin_access", "false"))).contains(3.0);
    assertThat(e.value("dynamic_resource_allocation_resource_claims",
        Map.of("allocated", "true", "admin_access", "false", "source", "resource_claim_template"))).contains(2.0);
    assertThat(e.value("dynamic_resource_allocation_resource_claims",
        Map.of("allocated", "false", "admin_access", "false", "source", "resource_claim_template"))).contains(1.0);
  }

  @Test
  void schedule_unwritableMetricsFile_exit1NamingTheFile(@TempDir Path dir) {
    Path file = dir.resolve("missing-dir").resolve("metrics.prom");
    assertThat(run("schedule", examples().resolve("gpu-cluster").toString(), "--metrics", file.toString()))
        .isEqualTo(1);
    assertThat(err.toString()).contains("--metrics " + file).contains("cannot write");
  }
}
