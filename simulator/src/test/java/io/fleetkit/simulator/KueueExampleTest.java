package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioSpec;
import io.fleetkit.queueing.manifest.KueueObject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The bundled examples/kueue: examples/batch's queues as Kueue's own manifests (ResourceFlavors, ClusterQueues in a
 * cohort, LocalQueues, a WorkloadPriorityClass) driving the job streams and a hand-written Job, end to end.
 */
final class KueueExampleTest {
  private static List<ApiObject<?>> objects;
  private static SimulationRun run;

  @BeforeAll
  static void runTheExample() {
    // cut to 5h: every ETL job (the last ends at 4h) and hours of queued training
    objects = KubernetesYaml.load(List.of(Examples.cluster().resolveSibling("kueue"))).objects();
    Scenario s = objects.stream().filter(o -> o instanceof Scenario).map(o -> (Scenario) o).findFirst().orElseThrow();
    ScenarioSpec x = s.spec();
    assertThat(x.duration()).isEqualTo(Duration.ofHours(8));
    assertThat(x.queues()).as("the queues are the manifests'").isEmpty();
    run = ClusterSimulation.builder().objects(Examples.withoutScenario(objects))
        .scenario(new Scenario(s.metadata(), new ScenarioSpec(Duration.ofHours(5), x.seed(), x.sampleInterval(),
            x.loads(), x.faults(), x.features(), x.queues(), x.jobStreams(), x.queueScalers(), x.nodeStartup(),
            x.scheduler(), x.cohorts(), x.waitForPodsReady(), x.clusterAutoscaler(), x.provisioner(), x.fairSharing(),
            x.admissionFairSharing(), x.admissionCheckControllers())))
        .podEvents(false).build().run();
  }

  private static TimeSeries series(String name) {
    return run.series(name).orElseThrow(() -> new AssertionError("no series " + name + " in "
        + run.series().stream().map(TimeSeries::name).toList()));
  }

  private static double max(String name) {
    return series(name).values().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
  }

  @Test
  void manifestsHoldEveryKueueKind() {
    assertThat(objects.stream().filter(o -> o instanceof KueueObject<?>).map(ApiObject::kind).distinct())
        .containsExactlyInAnyOrder("ResourceFlavor", "ClusterQueue", "LocalQueue", "WorkloadPriorityClass",
            "AdmissionCheck");
  }

  @Test
  void manifestQueuesAdmitTheStreamsJobsAndTheyFinish() {
    assertThat(run.charts()).contains(SeriesRecorder.QUEUES, SeriesRecorder.QUEUE_WAIT, SeriesRecorder.JOBS);
    assertThat(max("admitted workloads research")).isPositive();
    assertThat(max("admitted workloads analytics")).isPositive();
    assertThat(max("pending workloads research")).as("training waits for GPU quota").isPositive();
    assertThat(series("jobs succeeded lab-research/train").last()).isPositive();
    assertThat(series("jobs succeeded lab-analytics/etl").last()).isEqualTo(5);
    assertThat(max("ready nodes kq-a100")).as("admitted training grows the A100 pool").isPositive();
  }

  @Test
  void trainingJobsStartOnlyOnceTheirAdmissionCheckIsReady() {
    assertThat(run.timeline()).noneMatch(e -> e.kind().equals("ClusterQueueInactive"));
    // the hand-written A100 Job reserves quota at once and starts when its check is Ready, 2 minutes later
    assertThat(run.timeline()).filteredOn(e -> e.object().equals("Job/lab-research/eval-sweep")
        && e.message().startsWith("active 2")).first()
        .satisfies(e -> assertThat(e.at()).isGreaterThanOrEqualTo(Duration.ofMinutes(2)));
  }

  @Test
  void handWrittenJobRunsThroughItsLocalQueue() {
    assertThat(run.timeline()).filteredOn(e -> e.object().equals("Job/lab-research/eval-sweep"))
        .extracting(TimelineEvent::message).contains("active 2, succeeded 0, failed 0", "active 0, succeeded 2, failed 0");
  }
}
