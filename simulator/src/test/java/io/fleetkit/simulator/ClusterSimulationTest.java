package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.autoscaling.NodePoolSpec;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.simulation.FaultType;
import io.fleetkit.api.simulation.LoadPattern;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioFault;
import io.fleetkit.api.simulation.ScenarioFeatures;
import io.fleetkit.api.simulation.ScenarioSpec;
import io.fleetkit.api.simulation.WorkloadLoad;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The bundled examples/cluster day, end to end. */
final class ClusterSimulationTest {
  private static SimulationRun day;

  @BeforeAll
  static void runTheDay() {
    List<ApiObject<?>> objects = Examples.clusterObjects();
    day = ClusterSimulation.builder().objects(objects).podEvents(false).build().run();
  }

  private static double at(String series, Duration t) {
    TimeSeries s = day.series(series).orElseThrow(() -> new AssertionError("no series " + series + " in "
        + day.series().stream().map(TimeSeries::name).toList()));
    return s.values().get(day.sampleTimes().indexOf(t));
  }

  private static List<TimelineEvent> events(String kind) {
    return day.timeline().stream().filter(e -> e.kind().equals(kind)).toList();
  }

  @Test
  void samples_everyFiveMinutesOverTheDay() {
    assertThat(day.sampleTimes()).hasSize(24 * 12 + 1);
    assertThat(day.sampleTimes().get(0)).isEqualTo(Duration.ZERO);
    assertThat(day.sampleTimes().get(day.sampleTimes().size() - 1)).isEqualTo(Duration.ofHours(24));
    assertThat(day.charts()).contains(SeriesRecorder.PODS, SeriesRecorder.WORKLOADS, SeriesRecorder.NODES,
        SeriesRecorder.CPU, SeriesRecorder.GPU, SeriesRecorder.LOAD, SeriesRecorder.COST, SeriesRecorder.COST_TOTAL);
    // the day's total on its own axis: on the hourly rate's, 55.08 $ would flatten the rate of about 1 $/h
    assertThat(day.series("cost per hour").orElseThrow().chart()).isEqualTo(SeriesRecorder.COST);
    assertThat(day.series("cumulative cost").orElseThrow().chart()).isEqualTo(SeriesRecorder.COST_TOTAL);
  }

  @Test
  void hpa_followsTheDiurnalLoad() {
    // 5,000 requests/s x 2m = 10 cores at 14:00; at 60% of one core per pod that is 17 pods; at night 3 (min)
    assertThat(at("desired shop/web", Duration.ofHours(14))).isBetween(14.0, 30.0);
    assertThat(at("desired shop/web", Duration.ofHours(3))).isEqualTo(3.0);
    assertThat(events("HorizontalScale")).isNotEmpty();
    assertThat(events("HorizontalScale").get(0).object()).isEqualTo("HorizontalPodAutoscaler/shop/web");
    // the day's requests: the diurnal mean (2,600/s) times a day, to the request; a small share beyond capacity, most
    // of it while the zone is down (its pods stop serving at the failure, before their node is marked unreachable)
    assertThat(day.loads()).singleElement().satisfies(l -> {
      assertThat(l.target()).isEqualTo("Deployment/shop/web");
      assertThat(l.requests()).isCloseTo(2600.0 * 86_400, within(1.0));
      assertThat(l.unservedShare()).isPositive().isLessThan(0.01);
      assertThat(l.worstMinute()).isBetween(Duration.ofHours(15), Duration.ofMinutes(15 * 60 + 10));
    });
  }

  @Test
  void gpuGang_waitsForTheSlowGpuNodesThenRuns() {
    List<TimelineEvent> ups = events("ScaleUp").stream().filter(e -> e.object().equals("NodePool/gpu-a100")).toList();
    assertThat(ups).isNotEmpty();
    assertThat(ups.get(0).at()).isLessThanOrEqualTo(Duration.ofMinutes(1));
    assertThat(at("pending pods", Duration.ofMinutes(5))).isGreaterThanOrEqualTo(4.0); // the gang waits 8 minutes
    assertThat(at("gpu requested", Duration.ofMinutes(15))).isEqualTo(4.0);
    assertThat(at("ready nodes gpu-a100", Duration.ofMinutes(15))).isEqualTo(2.0);
    assertThat(day.summary().jobs()).singleElement().satisfies(j -> assertThat(j.succeeded()).isEqualTo(4));
    // the Job's finished pods are first held uncounted (upstream's uncountedTerminatedPods), then counted
    assertThat(events("JobStatus")).filteredOn(e -> e.object().equals("Job/ml/train")).extracting(TimelineEvent::message)
        .containsSubsequence("active 4, succeeded 0, failed 0",
            "active 0, succeeded 0, failed 0, 4 finished not yet counted", "active 0, succeeded 4, failed 0");
    // after the job, the autoscaler removes the idle GPU nodes
    assertThat(at("ready nodes gpu-a100", Duration.ofHours(4))).isZero();
  }

  @Test
  void scaleDown_drainsOnTheSimulatedClock_evictedPodsRecreatedElsewhere() {
    // removing idle nodes drains them (taint, evictions through the budgets, deletion once their pods are gone); the
    // controllers recreate the evicted pods on the remaining nodes, so every deployment ends ready and no drain fails
    assertThat(events("ScaleDown")).isNotEmpty();
    // one event per pool and loop: the GPU nodes under their pool, the general nodes under theirs, never a pool-less one
    assertThat(events("ScaleDown")).extracting(TimelineEvent::object).allMatch(o -> o.startsWith("NodePool/"))
        .contains("NodePool/gpu-a100");
    assertThat(events("ScaleDown")).filteredOn(e -> e.object().equals("NodePool/gpu-a100"))
        .allSatisfy(e -> assertThat(e.message()).matches("removed gpu-a100-\\d+(, gpu-a100-\\d+)*"));
    assertThat(events("ScaleDownFailed")).isEmpty();
    assertThat(day.summary().deployments()).allSatisfy(d -> assertThat(d.ready()).isEqualTo(d.replicas()));
  }

  @Test
  void zoneFailure_markedAndRecovered_unreadyNodesRemovedDownToThePoolMinimum_theOtherComesBack() {
    assertThat(day.markers()).extracting(TimelineEvent::kind).contains("ZoneFailed", "NodeFailed", "ZoneRecovered");
    TimelineEvent failed = events("ZoneFailed").get(0);
    assertThat(failed.at()).isEqualTo(Duration.ofHours(15));
    assertThat(failed.object()).isEqualTo("Zone/zone-b");
    assertThat(failed.message()).isEqualTo("2 node(s) stop: b-1, general-b-1");
    // the autoscaler removes an unready node --scale-down-unready-time (20 min) after it became unneeded, before the
    // zone's hour is over, down to pool general-b's minimum of 1 (the node it launched in the dead zone never started
    // and was given up): one of the two is left, and comes back with the zone
    List<TimelineEvent> removed = events("ScaleDown").stream().filter(e -> e.at().compareTo(
        Duration.ofMinutes(15 * 60 + 20)) > 0 && e.at().compareTo(Duration.ofHours(16)) < 0).toList();
    assertThat(removed).extracting(TimelineEvent::message).containsExactly("removed b-1");
    // the removal is named under its pool (nodes.yaml puts b-1 in general-b, as the pool's own nodes)
    assertThat(removed).extracting(TimelineEvent::object).containsExactly("NodePool/general-b");
    TimelineEvent recovered = events("ZoneRecovered").get(0);
    assertThat(recovered.at()).isEqualTo(Duration.ofHours(16));
    assertThat(recovered.message()).isEqualTo("1 node(s) come back: general-b-1; 1 deleted meanwhile (for example by"
        + " the autoscaler as unready): b-1");
    assertThat(events("NodeRecovered")).extracting(TimelineEvent::object).containsExactly("Node/general-b-1");
    assertThat(day.summary().deployments()).singleElement()
        .satisfies(d -> assertThat(d.ready()).isEqualTo(d.replicas()));
  }

  /**
   * The autoscaler replaces zone-b's pods' capacity during the zone's hour down: the node it launches in zone-b does not
   * start while the zone is down, so after its 15 minutes of maximum provision time the autoscaler gives up on it and
   * scales up another zone's pool instead.
   */
  @Test
  void zoneFailure_theMachineLaunchedInTheDeadZoneNeverStarts_andIsReplacedFromAnotherZone() {
    TimelineEvent stalled = events("NodeStartStalled").get(0);
    assertThat(stalled.object()).isEqualTo("Node/general-b-2");
    assertThat(stalled.at()).isBetween(Duration.ofHours(15), Duration.ofHours(16));
    TimelineEvent timeout = events("NodeProvisionTimeout").get(0);
    assertThat(timeout.object()).isEqualTo("Node/general-b-2");
    assertThat(timeout.at()).isBetween(stalled.at().plusMinutes(15), stalled.at().plusMinutes(16));
    assertThat(events("ScaleUp")).filteredOn(e -> e.at().equals(timeout.at())).singleElement()
        .satisfies(e -> assertThat(e.object()).isNotEqualTo("NodePool/general-b"));
    assertThat(day.timeline()).filteredOn(e -> e.object().equals("Node/general-b-2"))
        .extracting(TimelineEvent::kind).doesNotContain("NodeReady", "NodeStarted");
  }


  @Test
  void cost_accumulatesFromThePoolPrices() {
    double perHourAtStart = at("cost per hour", Duration.ZERO);
    assertThat(perHourAtStart).isEqualTo(6 * 0.19, org.assertj.core.api.Assertions.within(1e-9));
    double total = day.series("cumulative cost").orElseThrow().last();
    // each node is priced from its creation to its deletion, not by the rate seen at each sample: the day sampled
    // every minute costs the same, to the cent (the 5-minute samples' rates summed would be off by about 0.8 $)
    List<ApiObject<?>> objects = new ArrayList<>();
    for (ApiObject<?> o : Examples.clusterObjects()) {
      if (o instanceof Scenario sc) {
        ScenarioSpec x = sc.spec();
        o = new Scenario(sc.metadata(), new ScenarioSpec(x.duration(), x.seed(), Duration.ofMinutes(1), x.loads(),
            x.faults(), x.features(), x.queues(), x.jobStreams(), x.queueScalers(), x.nodeStartup(), x.scheduler(),
            x.cohorts(), x.waitForPodsReady()));
      }
      objects.add(o);
    }
    SimulationRun everyMinute = ClusterSimulation.builder().objects(objects).podEvents(false).build().run();
    assertThat(everyMinute.sampleTimes()).hasSize(24 * 60 + 1);
    assertThat(everyMinute.series("cumulative cost").orElseThrow().last()).isEqualTo(total);
    // with the 15 minutes of general-b-2, launched into the failed zone-b, where it never started
    // (55.08 $: each removed node lives the 5 s of --node-delete-delay-after-taint after its taint)
    assertThat(total).isEqualTo(55.08);
    // at least each general pool's minimum all day, plus two GPU nodes for the job's two hours
    assertThat(total).isGreaterThan(3 * 0.19 * 24 + 2 * 8.20 * 2);
    // at night the autoscaler has removed idle general nodes down to the pools' minimum
    assertThat(at("cost per hour", Duration.ofHours(4))).isLessThan(perHourAtStart);
    assertThat(day.series("cumulative cost").orElseThrow().values()).isSorted();
  }

  /** The example with every NodePool's price set to {@code price}. */
  private static List<ApiObject<?>> pricedAt(List<ApiObject<?>> objects, double price) {
    return objects.stream().map(o -> o instanceof NodePool p ? (ApiObject<?>) withPrice(p, price) : o).toList();
  }

  private static NodePool withPrice(NodePool p, double price) {
    NodePoolSpec s = p.spec();
    return new NodePool(p.metadata(), new NodePoolSpec(s.template(), s.minSize(), s.maxSize(), s.startupDelay(),
        price, s.zeroOrMaxNodeScaling(), s.autoscalingOptions()), p.status());
  }

  /** Cost series that read 0 would say the run was free; without a priced pool they are left out. */
  @Test
  void cost_noPoolPriced_seriesLeftOutAndTheReportSaysSo() {
    List<ApiObject<?>> objects = Examples.clusterObjects();
    SimulationRun run = ClusterSimulation.builder().objects(pricedAt(Examples.withoutScenario(objects), 0))
        .scenario(Examples.scenario(objects, Duration.ofMinutes(20))).build().run();
    assertThat(run.series("cost per hour")).isEmpty();
    assertThat(run.series("cumulative cost")).isEmpty();
    assertThat(run.charts()).doesNotContain("Cost", "Cumulative cost").contains("Pods", "Nodes");
    assertThat(HtmlReport.render(run)).contains("<li>Cost: " + SimulationRun.NO_PRICE + "</li>")
        .doesNotContain("Total cost").doesNotContain("Highest cost");
  }

  /** GPU series that read 0 throughout would chart a cluster without GPUs; they are left out, as the cost's are. */
  @Test
  void gpu_noGpuAtAnySample_seriesLeftOut() {
    List<ApiObject<?>> objects = new ArrayList<>(SimFixtures.nodes(3));
    objects.add(Deployment.builder().namespace("default").name("web").replicas(2).matchLabels(Map.of("app", "web"))
        .podSpec(PodSpec.builder().container("app", "web:1", ResourceList.ofCpuMemory(100, 0)).build()).build());
    SimulationRun run = ClusterSimulation.builder().objects(objects).scenario(new Scenario(
        ObjectMeta.builder().name("cpu-only").build(), new ScenarioSpec(Duration.ofMinutes(5), 1, Duration.ofMinutes(1),
            List.of(), List.of(), ScenarioFeatures.ALL))).podEvents(false).build().run();
    assertThat(run.series()).noneMatch(s -> s.chart().equals(SeriesRecorder.GPU));
    assertThat(run.charts()).doesNotContain(SeriesRecorder.GPU).contains(SeriesRecorder.CPU);
    assertThat(day.series("gpu allocatable")).isPresent(); // the example has GPU nodes
  }

  /** The example's one workload: its lines share the totals' chart (a chart of their own would repeat them). */
  @Test
  void workloads_oneWorkload_linesShareTheTotalsChart() {
    assertThat(day.series("desired shop/web").orElseThrow().chart()).isEqualTo(SeriesRecorder.WORKLOADS);
    assertThat(day.series(SeriesRecorder.DESIRED_ALL).orElseThrow().chart()).isEqualTo(SeriesRecorder.WORKLOADS);
    assertThat(day.charts()).doesNotContain(SeriesRecorder.WORKLOADS_EACH);
  }

  /**
   * The example's load gives requests a CPU cost and no memory cost: {@code cpu used} follows the load, and
   * {@code memory used}, which would read 0 for a day of traffic, is left out; a load with a memory cost brings it.
   */
  @Test
  void usedSeries_onlyForTheResourcesALoadGivesACost() {
    assertThat(day.series("cpu used")).isPresent();
    assertThat(at("cpu used", Duration.ofHours(14))).isPositive();
    assertThat(day.series("memory used")).isEmpty();
    assertThat(day.series("memory requested")).isPresent();
    assertThat(day.charts()).contains(SeriesRecorder.MEMORY);

    List<ApiObject<?>> objects = Examples.clusterObjects();
    Scenario s = Examples.scenario(objects, Duration.ofMinutes(20));
    List<WorkloadLoad> loads = s.spec().loads().stream()
        .map(l -> new WorkloadLoad(l.kind(), l.namespace(), l.name(), l.pattern(), 0,
            1024 * 1024))
        .toList();
    ScenarioSpec x = s.spec();
    SimulationRun run = ClusterSimulation.builder().objects(Examples.withoutScenario(objects))
        .scenario(new Scenario(s.metadata(), new ScenarioSpec(x.duration(), x.seed(), x.sampleInterval(), loads,
            x.faults(), x.features()))).build().run();
    assertThat(run.series("memory used").orElseThrow().last()).isPositive();
    assertThat(run.series("cpu used")).isEmpty();
  }

  /** A pool priced only from an apply on: the cost series are there, 0 before it. */
  @Test
  void cost_poolPricedByALaterApply_seriesKeptAndZeroBefore() {
    List<ApiObject<?>> objects = Examples.clusterObjects();
    List<ApiObject<?>> unpriced = pricedAt(Examples.withoutScenario(objects), 0);
    NodePool generalA = unpriced.stream().filter(o -> o instanceof NodePool p
        && p.metadata().name().equals("general-a")).map(o -> (NodePool) o).findFirst().orElseThrow();
    SimulationRun run = ClusterSimulation.builder().objects(unpriced)
        .scenario(Examples.scenario(objects, Duration.ofMinutes(30)))
        .apply(Duration.ofMinutes(10), List.of(withPrice(generalA, 0.19)), "price.yaml").build().run();
    List<Double> perHour = run.series("cost per hour").orElseThrow().values();
    List<Duration> times = run.sampleTimes();
    for (int i = 0; i < times.size(); i++) {
      if (times.get(i).compareTo(Duration.ofMinutes(10)) < 0) {
        assertThat(perHour.get(i)).as("at %s", times.get(i)).isZero();
      }
    }
    assertThat(perHour.get(times.size() - 1)).isPositive();
    assertThat(run.series("cumulative cost").orElseThrow().last()).isPositive();
    assertThat(run.charts()).contains("Cost", "Cumulative cost");
  }

  @Test
  void scaleDown_drainedPodsRecordedAsEvictedThroughTheEvictionApi() {
    // the eviction subresource marks a drained pod DisruptionTarget=True (EvictionByEvictionAPI) before deleting it,
    // so the timeline records it as evicted from its node; the nodes removed in the first hours are empty (the shop's
    // pods are spread over the zones), the first drain (general-a-2) comes at 16:33
    List<ApiObject<?>> objects = Examples.clusterObjects();
    Scenario s = Examples.scenario(objects, Duration.ofHours(17));
    SimulationRun run = ClusterSimulation.builder().objects(Examples.withoutScenario(objects)).scenario(s).build()
        .run();
    List<String> removed = run.timeline().stream().filter(e -> e.kind().equals("ScaleDown"))
        .flatMap(e -> java.util.Arrays.stream(e.message().substring("removed ".length()).split(", "))).toList();
    List<TimelineEvent> drained = run.timeline().stream().filter(e -> e.kind().equals("PodEvicted")
        && e.message().endsWith(" (EvictionByEvictionAPI)")).toList();
    assertThat(drained).isNotEmpty().allSatisfy(e -> assertThat(removed)
        .contains(e.message().substring("from ".length(), e.message().indexOf(' ', "from ".length()))));
  }

  @Test
  void sameSeed_sameRun() {
    List<ApiObject<?>> objects = Examples.clusterObjects();
    Scenario s = Examples.scenario(objects, Duration.ofHours(2));
    SimulationRun a = ClusterSimulation.builder().objects(Examples.withoutScenario(objects)).scenario(s).build().run();
    SimulationRun b = ClusterSimulation.builder().objects(Examples.withoutScenario(objects)).scenario(s).build().run();
    assertThat(b.timeline()).isEqualTo(a.timeline());
    assertThat(b.series()).isEqualTo(a.series());
    assertThat(HtmlReport.render(b)).isEqualTo(HtmlReport.render(a));
  }

  @Test
  void featuresOff_noAutoscaling() {
    List<ApiObject<?>> objects = Examples.clusterObjects();
    Scenario s = Examples.scenario(objects, Duration.ofHours(1));
    ScenarioSpec x = s.spec();
    Scenario off = new Scenario(s.metadata(), new ScenarioSpec(x.duration(), x.seed(), x.sampleInterval(), x.loads(),
        x.faults(), new ScenarioFeatures(false, false, false)));
    SimulationRun run = ClusterSimulation.builder().objects(Examples.withoutScenario(objects)).scenario(off).build()
        .run();
    assertThat(run.timeline()).extracting(TimelineEvent::kind).doesNotContain("HorizontalScale", "ScaleUp");
    assertThat(run.series("pending pods").orElseThrow().last()).isEqualTo(4.0); // the gang never gets GPUs
  }

  @Test
  void unknownTargets_rejectedNamingTheField() {
    List<ApiObject<?>> objects = Examples.withoutScenario(Examples.clusterObjects());
    Scenario bad = new Scenario(ObjectMeta.builder().name("typo").build(), new ScenarioSpec(Duration.ofHours(1), 0,
        Duration.ofMinutes(1), List.of(new WorkloadLoad("Deployment", "shop", "wbe", LoadPattern.constant(1), 1, 0)),
        List.of(new ScenarioFault(Duration.ZERO, FaultType.ZoneFailure, "zone-z", null),
            new ScenarioFault(Duration.ZERO, FaultType.NodeFailure, "x-9", null)), ScenarioFeatures.ALL));
    io.fleetkit.api.ValidationException e = org.junit.jupiter.api.Assertions.assertThrows(
        io.fleetkit.api.ValidationException.class,
        () -> ClusterSimulation.builder().objects(objects).scenario(bad).build());
    // every broken rule at once, each naming the scenario, the field and the value, so a caller can show its line
    assertThat(e.violations()).extracting(io.fleetkit.api.Violation::object).containsOnly("Scenario typo");
    assertThat(e.violations()).extracting(io.fleetkit.api.Violation::field)
        .containsExactly("spec.loads[0].target", "spec.faults[0].zoneFailure", "spec.faults[1].nodeFailure");
    assertThat(e.violations()).extracting(io.fleetkit.api.Violation::value)
        .containsExactly("Deployment/shop/wbe", "zone-z", "x-9");
    assertThat(e.violations().get(0).rule()).isEqualTo("names no Deployment, StatefulSet or Rollout among the"
        + " manifests");
    assertThat(e.violations().get(1).rule()).contains("zones: [zone-a, zone-b, zone-c]");
    assertThat(e.violations().get(2).rule()).isEqualTo("names no node among the manifests");
  }

  @Test
  void run_twice_rejected() {
    List<ApiObject<?>> objects = Examples.clusterObjects();
    ClusterSimulation sim = ClusterSimulation.builder().objects(Examples.withoutScenario(objects))
        .scenario(Examples.scenario(objects, Duration.ofMinutes(1))).build();
    sim.run();
    assertThatThrownBy(sim::run).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void progress_reportedAfterEverySample() {
    List<ApiObject<?>> objects = Examples.clusterObjects();
    List<Progress> seen = new ArrayList<>();
    ClusterSimulation.builder().objects(Examples.withoutScenario(objects))
        .scenario(Examples.scenario(objects, Duration.ofMinutes(20))).progress(seen::add).build().run();
    assertThat(seen).hasSize(4);
    assertThat(seen.get(3).simulated()).isEqualTo(Duration.ofMinutes(20));
    assertThat(seen.get(3).total()).isEqualTo(Duration.ofMinutes(20));
  }
}
