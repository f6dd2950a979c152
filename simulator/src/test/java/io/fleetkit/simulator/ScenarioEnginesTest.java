package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.autoscaling.UpdateMode;
import io.fleetkit.api.autoscaling.VerticalPodAutoscaler;
import io.fleetkit.api.autoscaling.VerticalPodAutoscalerSpec;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.simulation.JobArrival;
import io.fleetkit.api.simulation.JobStream;
import io.fleetkit.api.simulation.LoadPattern;
import io.fleetkit.api.simulation.QueueScaler;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioFeatures;
import io.fleetkit.api.simulation.ScenarioCohort;
import io.fleetkit.api.simulation.ScenarioPodsReady;
import io.fleetkit.api.simulation.ScenarioQueue;
import io.fleetkit.api.simulation.ScenarioSpec;
import io.fleetkit.api.simulation.WorkloadLoad;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The engines a scenario switches on beside the HPA and the cluster autoscaler: Kueue-style queues with job
 * arrival streams (Poisson, an inline pod list, a bundled openb trace), the VPA, and KEDA-style queue scaling.
 */
final class ScenarioEnginesTest {
  private static final ResourceList NODE = ResourceList.builder().put("cpu", "4").put("memory", "16Gi")
      .put("pods", "110").build();

  private static List<ApiObject<?>> nodes(int n) {
    List<ApiObject<?>> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(Node.builder().name("node-" + i).capacity(NODE).build());
    }
    return out;
  }

  private static Scenario scenario(Duration length, Duration sample, ScenarioFeatures f, List<WorkloadLoad> loads,
      List<ScenarioQueue> queues, List<JobStream> streams, List<QueueScaler> scalers) {
    return new Scenario(ObjectMeta.builder().name("engines").build(), new ScenarioSpec(length, 3, sample, loads,
        List.of(), f, queues, streams, scalers));
  }

  private static SimulationRun run(List<ApiObject<?>> objects, Scenario s) {
    return ClusterSimulation.builder().objects(objects).scenario(s).podEvents(false).build().run();
  }

  private static List<Double> series(SimulationRun run, String name) {
    return run.series(name).orElseThrow(() -> new AssertionError("no series " + name + " in "
        + run.series().stream().map(TimeSeries::name).toList())).values();
  }

  private static double max(List<Double> v) {
    return v.stream().mapToDouble(Double::doubleValue).max().orElse(0);
  }

  // ---- queues and job streams ----

  /** 30 two-CPU jobs an hour (20 minutes each) into a queue of 4 CPUs on 8 CPUs of nodes, for 3 hours. */
  private static SimulationRun queued(boolean admission) {
    ScenarioQueue q = new ScenarioQueue("batch", List.of("ml"), null, "default", Map.of(),
        ResourceList.builder().put("cpu", "4").put("memory", "64Gi").build());
    JobArrival job = new JobArrival(Duration.ZERO, "", 1, ResourceList.ofCpuMemory(2000, 1L << 30),
        Duration.ofMinutes(20));
    JobStream stream = JobStream.poisson("train", "ml", "batch", 30, job);
    ScenarioFeatures f = new ScenarioFeatures(false, false, false, false, admission, false);
    return run(nodes(2), scenario(Duration.ofHours(2), Duration.ofMinutes(1), f, List.of(), List.of(q),
        List.of(stream), List.of()));
  }

  @Test
  void queue_holdsJobsToItsQuota_andTheyWaitAndFinish() {
    SimulationRun run = queued(true);
    // the quota (4 CPUs) admits two 2-CPU jobs at a time although the nodes have room for four
    assertThat(max(series(run, "admitted workloads batch"))).isEqualTo(2.0);
    assertThat(max(series(run, "jobs running ml/train"))).isLessThanOrEqualTo(2.0);
    assertThat(max(series(run, "pending workloads batch"))).isGreaterThan(0);
    assertThat(max(series(run, "longest wait (pending) batch"))).isGreaterThan(60);
    assertThat(max(series(run, "mean wait (admitted this interval) batch"))).isGreaterThan(0);
    List<Double> done = series(run, "jobs succeeded ml/train");
    assertThat(done.get(done.size() - 1)).isGreaterThanOrEqualTo(6);
    assertThat(run.charts()).contains(SeriesRecorder.QUEUES, SeriesRecorder.QUEUE_WAIT, SeriesRecorder.JOBS);
  }

  /**
   * The {@link #queued} jobs into a queue whose flavor carries the nodes' taint {@code dedicated=batch:NoSchedule},
   * with or without a flavor toleration of it.
   */
  private static SimulationRun taintedFlavor(boolean flavorTolerates) {
    Taint batch = Taint.of("dedicated", "batch", TaintEffect.NoSchedule);
    List<ApiObject<?>> nodes = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      nodes.add(Node.builder().name("node-" + i).capacity(NODE).taint(batch).build());
    }
    ScenarioQueue q = new ScenarioQueue("batch", List.of("ml"), null, "dedicated", Map.of(),
        ResourceList.builder().put("cpu", "4").put("memory", "64Gi").build())
        .withFlavorTaints(List.of(batch), flavorTolerates
            ? List.of(Toleration.exists("dedicated", TaintEffect.NoSchedule)) : List.of());
    JobArrival job = new JobArrival(Duration.ZERO, "", 1, ResourceList.ofCpuMemory(2000, 1L << 30),
        Duration.ofMinutes(20));
    ScenarioFeatures f = new ScenarioFeatures(false, false, false, false, true, false);
    return run(nodes, scenario(Duration.ofHours(1), Duration.ofMinutes(1), f, List.of(), List.of(q),
        List.of(JobStream.poisson("train", "ml", "batch", 30, job)), List.of()));
  }

  @Test
  void taintedFlavor_itsTolerationLetsTheJobsRunOnTheTaintedNodes_withoutItNoneIsAdmitted() {
    SimulationRun tolerated = taintedFlavor(true);
    assertThat(max(series(tolerated, "admitted workloads batch"))).isEqualTo(2.0);
    assertThat(max(series(tolerated, "jobs running ml/train"))).isEqualTo(2.0); // their pods got the toleration
    SimulationRun untolerated = taintedFlavor(false);
    assertThat(max(series(untolerated, "admitted workloads batch"))).isZero();
    assertThat(max(series(untolerated, "pending workloads batch"))).isGreaterThan(0);
    assertThat(max(series(untolerated, "jobs running ml/train"))).isZero();
  }

  /**
   * The {@link #queued} jobs into queue {@code a} (2 CPUs) in cohort {@code child-a}; queue {@code b} (2 CPUs, no
   * jobs) in {@code child-b}; with {@code cohorts}, both children sit under {@code root}, which holds 4 CPUs of its
   * own (without: the children are roots without quota).
   */
  private static SimulationRun cohortTree(List<ScenarioCohort> cohorts) {
    ResourceList two = ResourceList.builder().put("cpu", "2").put("memory", "64Gi").build();
    ScenarioQueue a = new ScenarioQueue("a", List.of("ml"), "child-a", "default", Map.of(), two);
    ScenarioQueue b = new ScenarioQueue("b", List.of("cv"), "child-b", "default", Map.of(), two);
    JobArrival job = new JobArrival(Duration.ZERO, "", 1, ResourceList.ofCpuMemory(2000, 1L << 30),
        Duration.ofMinutes(20));
    ScenarioFeatures f = new ScenarioFeatures(false, false, false, false, true, false);
    Scenario s = scenario(Duration.ofHours(1), Duration.ofMinutes(1), f, List.of(), List.of(a, b),
        List.of(JobStream.poisson("train", "ml", "a", 30, job)), List.of());
    return run(nodes(2), new Scenario(s.metadata(), s.spec().withCohorts(cohorts)));
  }

  @Test
  void cohortTree_aQueueBorrowsTheRootsQuotaThroughItsChildCohort() {
    List<ScenarioCohort> tree = List.of(
        ScenarioCohort.of("root", null, "default", ResourceList.builder().put("cpu", "4").build()),
        ScenarioCohort.of("child-a", "root"), ScenarioCohort.of("child-b", "root"));
    // a's own 2 CPUs, b's unused 2 and the root's 4 make room for four 2-CPU jobs (the nodes' 8 CPUs)
    assertThat(max(series(cohortTree(tree), "admitted workloads a"))).isEqualTo(4.0);
    // without the tree each child cohort is a root of one queue: a admits one job on its own quota
    assertThat(max(series(cohortTree(List.of()), "admitted workloads a"))).isEqualTo(1.0);
    // child-a (no CPUs of its own) may borrow at most 2 CPUs from the root's subtree: a's 2 plus 2 borrowed
    ResourceList cpu0 = ResourceList.builder().put("cpu", "0").build();
    List<ScenarioCohort> limited = List.of(tree.get(0), ScenarioCohort.of("child-a", "root", "default", cpu0)
        .withLimits(ResourceList.builder().put("cpu", "2").build(), ResourceList.EMPTY), tree.get(2));
    assertThat(max(series(cohortTree(limited), "admitted workloads a"))).isEqualTo(2.0);
  }

  /**
   * Four two-CPU jobs at once into a queue of 8 CPUs on one node of 4 CPUs: the quota admits all four, the node runs
   * two; with {@code waitForPodsReady} given, the other two time out.
   */
  private static SimulationRun overQuota(@org.jspecify.annotations.Nullable ScenarioPodsReady podsReady) {
    ScenarioQueue q = new ScenarioQueue("batch", List.of("ml"), null, "default", Map.of(),
        ResourceList.builder().put("cpu", "8").put("memory", "64Gi").build());
    List<JobArrival> jobs = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      jobs.add(new JobArrival(Duration.ZERO, "j-" + i, 1, ResourceList.ofCpuMemory(2000, 1L << 30),
          Duration.ofMinutes(30)));
    }
    JobStream stream = JobStream.of("train", "ml", "batch", jobs);
    ScenarioFeatures f = new ScenarioFeatures(false, false, false, false, true, false);
    Scenario s = scenario(Duration.ofHours(2), Duration.ofMinutes(1), f, List.of(), List.of(q), List.of(stream),
        List.of());
    return run(nodes(1), new Scenario(s.metadata(), s.spec().withWaitForPodsReady(podsReady)));
  }

  @Test
  void waitForPodsReady_evictsTheAdmittedJobsWhosePodsFindNoRoom_andRequeuesThemWithBackoff() {
    List<Double> off = series(overQuota(null), "admitted workloads batch");
    // without it all four hold their quota until the first two finish (30 minutes), two pods pending
    assertThat(off.subList(1, 30)).containsOnly(4.0);
    assertThat(off.subList(31, 60)).containsOnly(2.0);
    SimulationRun on = overQuota(ScenarioPodsReady.withTimeout(Duration.ofMinutes(5)));
    List<Double> admitted = series(on, "admitted workloads batch");
    assertThat(admitted.subList(1, 5)).containsOnly(4.0);
    // at 5 minutes the two jobs without ready pods are evicted (PodsReadyTimeout) and wait Kueue's first backoff,
    // 60 s; admitted again, they time out again 5 minutes later, then wait 120 s
    assertThat(admitted.get(5)).isEqualTo(2.0);
    assertThat(admitted.get(7)).isEqualTo(4.0);
    assertThat(admitted.get(12)).isEqualTo(2.0);
    assertThat(admitted.get(14)).isEqualTo(4.0);
    // the backoff doubles, so when the first two finish the others are still waiting: the queue stands idle a while
    assertThat(admitted.get(30)).isZero();
    List<Double> done = series(on, "jobs succeeded ml/train");
    assertThat(done.get(done.size() - 1)).isEqualTo(4.0);
    // each eviction is on the timeline, the first two at 5 minutes
    List<TimelineEvent> evictions = on.timeline().stream().filter(e -> e.kind().equals("QueueEviction")).toList();
    assertThat(evictions.subList(0, 2)).allSatisfy(e -> {
      assertThat(e.at()).isBetween(Duration.ofMinutes(5), Duration.ofMinutes(5).plusSeconds(2));
      assertThat(e.object()).matches("Job/ml/train-[0-3]");
      assertThat(e.message()).startsWith("PodsReadyTimeout: Exceeded the PodsReady timeout ml/");
    });
    assertThat(evictions).hasSizeGreaterThanOrEqualTo(6);
    assertThat(overQuota(null).timeline()).noneMatch(e -> e.kind().equals("QueueEviction"));
    // the same run, the same seed: the same series (the requeue jitter is drawn from the seed)
    assertThat(series(overQuota(ScenarioPodsReady.withTimeout(Duration.ofMinutes(5))), "admitted workloads batch"))
        .isEqualTo(admitted);
  }

  @Test
  void waitForPodsReady_withoutQueues_isRefusedNamingTheField() {
    ScenarioFeatures f = new ScenarioFeatures(false, false, false, false, true, false);
    ScenarioSpec spec = new ScenarioSpec(Duration.ofHours(1), 1, Duration.ofMinutes(1), List.of(), List.of(), f)
        .withWaitForPodsReady(ScenarioPodsReady.withTimeout(Duration.ofMinutes(5)));
    Scenario scenario = new Scenario(ObjectMeta.builder().name("x").build(), spec);
    // the queues may be Kueue's among the manifests: the simulation checks it, not the Scenario
    assertThatThrownBy(() -> ClusterSimulation.builder().objects(nodes(1)).scenario(scenario).build())
        .hasMessageContaining("spec.waitForPodsReady").hasMessageContaining("needs spec.queues");
    ScenarioQueue q = new ScenarioQueue("batch", List.of("ml"), null, "default", Map.of(),
        ResourceList.builder().put("cpu", "8").build());
    ScenarioSpec zero = new ScenarioSpec(Duration.ofHours(1), 1, Duration.ofMinutes(1), List.of(), List.of(), f,
        List.of(q), List.of(), List.of()).withWaitForPodsReady(ScenarioPodsReady.withTimeout(Duration.ZERO));
    assertThatThrownBy(() -> new Scenario(ObjectMeta.builder().name("x").build(), zero))
        .hasMessageContaining("spec.waitForPodsReady.timeout").hasMessageContaining("must be specified");
  }

  @Test
  void queueAdmissionOff_jobsRunAtOnce_upToTheNodes() {
    SimulationRun run = queued(false);
    assertThat(run.series("admitted workloads batch")).isEmpty();
    assertThat(max(series(run, "jobs running ml/train"))).isGreaterThan(2.0).isLessThanOrEqualTo(4.0);
  }

  @Test
  void poissonArrivals_areSeeded() {
    JobArrival job = new JobArrival(Duration.ZERO, "", 1, ResourceList.ofCpuMemory(100, 0), Duration.ofMinutes(1));
    JobStream s = JobStream.poisson("a", "ns", "", 60, job);
    List<JobArrival> one = s.arrivals(7, Duration.ofHours(10));
    assertThat(one).isEqualTo(s.arrivals(7, Duration.ofHours(10))).isNotEqualTo(s.arrivals(8, Duration.ofHours(10)));
    assertThat(one.size()).isBetween(480, 720); // 600 expected; the Poisson spread is about 25
    for (int i = 1; i < one.size(); i++) {
      assertThat(one.get(i).at()).isGreaterThanOrEqualTo(one.get(i - 1).at());
    }
  }

  @Test
  void podListCsv_andBundledTrace_becomeJobs() {
    String csv = """
        name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time
        p-0,1000,1024,0,0,,LS,Running,0,600,0
        p-1,2000,2048,0,0,,LS,Running,60,300,60
        """;
    List<JobArrival> rows = JobStream.parsePodList(csv, 1, 0);
    assertThat(rows).hasSize(2);
    assertThat(rows.get(1).at()).isEqualTo(Duration.ofSeconds(60));
    assertThat(rows.get(1).runFor()).isEqualTo(Duration.ofSeconds(240));
    assertThat(rows.get(1).requests().milliCpu()).isEqualTo(2000);
    JobStream inline = JobStream.of("csv", "ml", "", rows);
    JobStream openb = JobStream.trace("openb", "ml", "", "default", 20, 0.0005);
    SimulationRun run = run(nodes(30), scenario(Duration.ofHours(2), Duration.ofMinutes(5), ScenarioFeatures.ALL,
        List.of(), List.of(), List.of(inline, openb), List.of()));
    List<Double> csvDone = series(run, "jobs succeeded ml/csv");
    assertThat(csvDone.get(csvDone.size() - 1)).isEqualTo(2.0);
    List<Double> openbAll = new ArrayList<>();
    for (String k : List.of("waiting", "running", "succeeded", "failed")) {
      List<Double> v = series(run, "jobs " + k + " ml/openb");
      openbAll.add(v.get(v.size() - 1));
    }
    assertThat(openbAll.stream().mapToDouble(Double::doubleValue).sum()).isEqualTo(20.0);
  }

  @Test
  void badPodList_namesRowAndColumn() {
    assertThatThrownBy(() -> JobStream.parsePodList("name,cpu_milli,memory_mib,num_gpu,creation_time,deletion_time\n"
        + "a,1,1,0,0,5\nb,x,1,0,0,5\n", 1, 0))
        .hasMessage("pod list row 3: column cpu_milli must be a whole number, not \"x\"");
    assertThatThrownBy(() -> JobStream.parsePodList("name,cpu_milli\n", 1, 0))
        .hasMessageContaining("header lacks columns [memory_mib, num_gpu, creation_time, deletion_time]");
    // memory in MiB past what a long holds in bytes: refused, not wrapped round to a negative request
    assertThatThrownBy(() -> JobStream.parsePodList("name,cpu_milli,memory_mib,num_gpu,creation_time,deletion_time\n"
        + "a,1,9000000000000000,0,0,5\n", 1, 0))
        .hasMessage("pod list row 2: column memory_mib 9000000000000000 is more bytes than a long holds");
  }

  @Test
  void scenario_rejectsUnknownQueue_andScalerWithoutLoad() {
    JobArrival job = new JobArrival(Duration.ZERO, "", 1, ResourceList.ofCpuMemory(100, 0), Duration.ofMinutes(1));
    // the queue may be a LocalQueue among the manifests: the simulation checks it, not the Scenario
    Scenario unknownQueue = scenario(Duration.ofHours(1), Duration.ofMinutes(1), ScenarioFeatures.ALL, List.of(),
        List.of(), List.of(JobStream.poisson("a", "ml", "nope", 1, job)), List.of());
    assertThatThrownBy(() -> ClusterSimulation.builder().objects(nodes(1)).scenario(unknownQueue).build())
        .hasMessageContaining("spec.jobStreams[0].queue").hasMessageContaining("must name one of spec.queues");
    assertThatThrownBy(() -> scenario(Duration.ofHours(1), Duration.ofMinutes(1), ScenarioFeatures.ALL, List.of(),
        List.of(), List.of(), List.of(new QueueScaler("shop", "worker", 10, 0, 0, 5, Duration.ofSeconds(30),
            Duration.ofMinutes(5)))))
        .hasMessageContaining("spec.queueScalers[0].target")
        .hasMessageContaining("needs a load on the same Deployment");
    assertThatThrownBy(() -> ClusterSimulation.builder().objects(nodes(1)).scenario(scenario(Duration.ofHours(1),
        Duration.ofMinutes(1), ScenarioFeatures.ALL, List.of(), List.of(), List.of(JobStream.trace("t", "ml", "",
            "nosuch", 1, 1)), List.of())).build())
        .hasMessageContaining("spec.jobStreams[0].trace \"nosuch\" names no bundled pod list");
  }

  // ---- VPA ----

  private static Deployment deployment(String ns, String name, int replicas, long milliCpu) {
    return Deployment.builder().namespace(ns).name(name).replicas(replicas).matchLabels(Map.of("app", name))
        .podSpec(PodSpec.builder().container("app", "img:1", ResourceList.ofCpuMemory(milliCpu, 64L << 20)).build())
        .build();
  }

  @Test
  void vpa_raisesTheRequestsOfAnUnderSizedDeployment() {
    List<ApiObject<?>> objects = nodes(4);
    objects.add(deployment("shop", "api", 4, 100));
    objects.add(VerticalPodAutoscaler.of(ObjectMeta.builder().namespace("shop").name("api").build(),
        VerticalPodAutoscalerSpec.builder().targetRef(CrossVersionObjectReference.deployment("api"))
            .updateMode(UpdateMode.Auto).build()));
    // 400 requests/s at 4m each: 1.6 cores over 4 pods of 100m: 400m used per pod
    WorkloadLoad load = new WorkloadLoad("Deployment", "shop", "api", LoadPattern.constant(400), 4, 0);
    SimulationRun on = run(objects, scenario(Duration.ofMinutes(30), Duration.ofMinutes(1), ScenarioFeatures.ALL,
        List.of(load), List.of(), List.of(), List.of()));
    List<TimelineEvent> vertical = on.timeline().stream().filter(e -> e.kind().equals("VerticalScale")).toList();
    assertThat(vertical).isNotEmpty();
    List<Double> requested = series(on, "cpu requested");
    // 4 pods x 100m at first; after the evictions and admission every pod asks for about what it uses or more
    assertThat(requested.get(0)).isEqualTo(0.4);
    assertThat(requested.get(requested.size() - 1)).isGreaterThanOrEqualTo(1.6);
    SimulationRun off = run(objects, scenario(Duration.ofMinutes(30), Duration.ofMinutes(1),
        new ScenarioFeatures(true, true, true, false, true, true), List.of(load), List.of(), List.of(), List.of()));
    assertThat(off.timeline().stream().filter(e -> e.kind().equals("VerticalScale"))).isEmpty();
    List<Double> requestedOff = series(off, "cpu requested");
    assertThat(requestedOff.get(requestedOff.size() - 1)).isEqualTo(0.4);
  }

  /**
   * A recommendation above a pod's pod-level budget is refused by pod validation (upstream's VPA does not support
   * pod-level resources; the API server refuses the mutated pod): the run goes on, the pod keeps its requests, and
   * the timeline says why.
   */
  @Test
  void vpa_recommendationAbovePodLevelBudget_refusedAndReportedNotThrown() {
    List<ApiObject<?>> objects = nodes(4);
    objects.add(Deployment.builder().namespace("shop").name("api").replicas(4).matchLabels(Map.of("app", "api"))
        .podSpec(PodSpec.builder().container("app", "img:1", ResourceList.ofCpuMemory(100, 64L << 20))
            .resources(ResourceList.ofCpuMemory(150, 64L << 20), ResourceList.EMPTY).build())
        .build());
    objects.add(VerticalPodAutoscaler.of(ObjectMeta.builder().namespace("shop").name("api").build(),
        VerticalPodAutoscalerSpec.builder().targetRef(CrossVersionObjectReference.deployment("api"))
            .updateMode(UpdateMode.Auto).build()));
    WorkloadLoad load = new WorkloadLoad("Deployment", "shop", "api", LoadPattern.constant(400), 4, 0);
    SimulationRun run = run(objects, scenario(Duration.ofMinutes(30), Duration.ofMinutes(1), ScenarioFeatures.ALL,
        List.of(load), List.of(), List.of(), List.of()));
    assertThat(run.timeline()).anySatisfy(e -> assertThat(e.message()).contains("VPA admission not applied")
        .contains("spec.resources.requests.cpu"));
    List<Double> requested = series(run, "cpu requested");
    assertThat(requested).allSatisfy(r -> assertThat(r).isLessThanOrEqualTo(0.6)); // 4 pods within 150m each
  }

  // ---- KEDA-style queue scaling ----

  @Test
  void queueScaler_scalesFromZeroOnABurst_andBackAfterTheCooldown() {
    List<ApiObject<?>> objects = nodes(4);
    objects.add(deployment("shop", "worker", 0, 500));
    // 1,000 messages/s for 10 minutes from 0:20; each pod (500m at 5m per message) drains 100/s
    WorkloadLoad load = new WorkloadLoad("Deployment", "shop", "worker",
        LoadPattern.spike(0, 1000, Duration.ofMinutes(20), Duration.ofMinutes(10)), 5, 0);
    QueueScaler scaler = new QueueScaler("shop", "worker", 2000, 0, 0, 12, Duration.ofSeconds(30),
        Duration.ofMinutes(5));
    SimulationRun run = run(objects, scenario(Duration.ofHours(1), Duration.ofMinutes(1), ScenarioFeatures.ALL,
        List.of(load), List.of(), List.of(), List.of(scaler)));
    List<Double> desired = series(run, "desired shop/worker");
    List<Double> queue = series(run, "queue length shop/worker");
    int at19 = run.sampleTimes().indexOf(Duration.ofMinutes(19));
    assertThat(desired.get(at19)).isZero();
    assertThat(max(desired)).isGreaterThan(1.0).isLessThanOrEqualTo(12.0);
    assertThat(max(queue)).isGreaterThan(2000);
    assertThat(desired.get(desired.size() - 1)).isZero();
    assertThat(queue.get(queue.size() - 1)).isZero();
    assertThat(run.markers().stream().filter(e -> e.kind().equals("QueueScale"))).isNotEmpty();
    SimulationRun again = run(objects, scenario(Duration.ofHours(1), Duration.ofMinutes(1), ScenarioFeatures.ALL,
        List.of(load), List.of(), List.of(), List.of(scaler)));
    assertThat(again.series()).isEqualTo(run.series());
    assertThat(again.timeline()).isEqualTo(run.timeline());
  }
}
