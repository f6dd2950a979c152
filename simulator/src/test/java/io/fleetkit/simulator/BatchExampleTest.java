package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioSpec;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The bundled examples/batch: queued job streams (Poisson, inline pod list, openb trace) through two ClusterQueues
 * in a cohort, an A100 pool starting in phases, a GPU device fault and API slowness, end to end.
 */
final class BatchExampleTest {
  private static SimulationRun run;

  @BeforeAll
  static void runTheExample() {
    // cut to 5h15m: both faults and their recoveries, every ETL job (the last ends at 4h)
    List<ApiObject<?>> objects = KubernetesYaml.load(List.of(Examples.cluster().resolveSibling("batch"))).objects();
    Scenario s = objects.stream().filter(o -> o instanceof Scenario).map(o -> (Scenario) o).findFirst().orElseThrow();
    ScenarioSpec x = s.spec();
    assertThat(x.duration()).isEqualTo(Duration.ofHours(8));
    Scenario cut = new Scenario(s.metadata(), new ScenarioSpec(Duration.ofMinutes(315), x.seed(), x.sampleInterval(),
        x.loads(), x.faults(), x.features(), x.queues(), x.jobStreams(), x.queueScalers(), x.nodeStartup()));
    run = ClusterSimulation.builder().objects(Examples.withoutScenario(objects)).scenario(cut).podEvents(false)
        .build().run();
  }

  private static TimeSeries series(String name) {
    return run.series(name).orElseThrow(() -> new AssertionError("no series " + name + " in "
        + run.series().stream().map(TimeSeries::name).toList()));
  }

  private static double max(String name) {
    return series(name).values().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
  }

  private static double at(String name, Duration t) {
    return series(name).values().get(run.sampleTimes().indexOf(t));
  }

  @Test
  void queuesAdmitTheStreamsJobsAndTheyFinish() {
    assertThat(run.sampleTimes()).hasSize(63 + 1);
    assertThat(run.charts()).contains(SeriesRecorder.QUEUES, SeriesRecorder.QUEUE_WAIT, SeriesRecorder.JOBS);
    assertThat(max("admitted workloads research")).isPositive();
    assertThat(max("admitted workloads analytics")).isPositive();
    assertThat(max("pending workloads research")).as("training waits for GPU quota").isPositive();
    assertThat(series("jobs succeeded research/train").last()).isPositive();
    assertThat(series("jobs succeeded analytics/etl").last()).isEqualTo(5);
    assertThat(max("jobs running research/openb")).isPositive(); // the trace's pods run for hours
    assertThat(max("longest wait (pending) research")).isPositive();
  }

  @Test
  void gpuPoolStartsInPhasesForTheAdmittedTraining() {
    assertThat(max("provisioning nodes lab-a100")).isPositive();
    assertThat(max("driver nodes lab-a100")).isPositive();
    assertThat(max("ready nodes lab-a100")).isPositive();
    assertThat(run.timeline()).extracting(TimelineEvent::kind).contains("NodeProvisioning", "NodeBooting",
        "NodeDriver", "NodeImagePull");
  }

  @Test
  void faultsMarkedOnTheTimeAxis() {
    assertThat(run.markers()).extracting(TimelineEvent::kind).contains("GpuDeviceFailed", "GpuDeviceRecovered",
        "ApiSlow", "ApiRecovered");
    TimelineEvent gpu = run.markers().stream().filter(e -> e.kind().equals("GpuDeviceFailed")).findFirst()
        .orElseThrow();
    assertThat(gpu.at()).isEqualTo(Duration.ofHours(3));
    assertThat(gpu.message()).contains("evicted research/serve-");
    assertThat(at("gpu allocatable", Duration.ofHours(3).plusMinutes(5)))
        .isEqualTo(at("gpu allocatable", Duration.ofHours(2).plusMinutes(55)) - 1);
    String html = HtmlReport.render(run);
    assertThat(html).contains("data-kind=\"GpuDeviceFailed\"", "data-kind=\"ApiSlow\"");
  }
}
