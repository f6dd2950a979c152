package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.metrics.MetricDescriptor;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.observability.micrometer.MicrometerMetrics;
import io.fleetkit.observability.prometheus.Exposition;
import io.fleetkit.scheduler.metrics.SchedulerMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * kube-scheduler's metrics and events. The expected names, types, label names and buckets are copied from
 * {@code kubernetes/kubernetes pkg/scheduler/metrics/metrics.go}, so a rename fails here.
 */
final class SchedulerMetricsTest {
  /** name, type, labels, buckets as {@code ExponentialBuckets(start, factor, count)} (empty for non-histograms). */
  private static final List<List<Object>> UPSTREAM = List.of(
      List.of("scheduler_schedule_attempts_total", "COUNTER", "result,profile", List.of()),
      List.of("scheduler_scheduling_attempt_duration_seconds", "HISTOGRAM", "result,profile",
          List.of(0.001, 2.0, 15)),
      List.of("scheduler_scheduling_algorithm_duration_seconds", "HISTOGRAM", "", List.of(0.001, 2.0, 15)),
      List.of("scheduler_preemption_victims", "HISTOGRAM", "", List.of(1.0, 2.0, 7)),
      List.of("scheduler_preemption_attempts_total", "COUNTER", "", List.of()),
      List.of("scheduler_pending_pods", "GAUGE", "queue", List.of()),
      List.of("scheduler_pod_scheduling_sli_duration_seconds", "HISTOGRAM", "attempts", List.of(0.01, 2.0, 20)),
      List.of("scheduler_pod_scheduling_attempts", "HISTOGRAM", "", List.of(1.0, 2.0, 5)),
      List.of("scheduler_framework_extension_point_duration_seconds", "HISTOGRAM",
          "extension_point,status,profile", List.of(0.0001, 2.0, 12)),
      List.of("scheduler_plugin_execution_duration_seconds", "HISTOGRAM", "plugin,extension_point,status",
          List.of(0.00001, 1.5, 20)),
      List.of("scheduler_queue_incoming_pods_total", "COUNTER", "queue,event", List.of()),
      List.of("scheduler_cache_size", "GAUGE", "type", List.of()),
      List.of("scheduler_permit_wait_duration_seconds", "HISTOGRAM", "result", List.of(0.001, 2.0, 15)),
      List.of("scheduler_unschedulable_pods", "GAUGE", "plugin,profile", List.of()),
      List.of("scheduler_plugin_evaluation_total", "COUNTER", "plugin,extension_point,profile", List.of()));

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final List<String> events = Collections.synchronizedList(new ArrayList<>());
  private final EventRecorder recorder = new EventRecorder() {
    @Override
    public void event(ObjectReference regarding, @Nullable ObjectReference related, String type, String reason,
        String action, String note) {
      events.add(regarding.namespace() + "/" + regarding.name() + " " + type + " " + reason + " " + action + ": "
          + note + (related == null ? "" : " [related " + related.name() + "]"));
    }
  };

  @Test
  void descriptors_matchUpstreamNamesTypesLabelsAndBuckets() {
    assertThat(SchedulerMetrics.ALL).hasSameSizeAs(UPSTREAM);
    for (int i = 0; i < UPSTREAM.size(); i++) {
      MetricDescriptor d = SchedulerMetrics.ALL.get(i);
      List<Object> u = UPSTREAM.get(i);
      assertThat(d.name()).isEqualTo(u.get(0));
      assertThat(d.type().name()).as(d.name()).isEqualTo(u.get(1));
      assertThat(String.join(",", d.labelNames())).as(d.name()).isEqualTo(u.get(2));
      List<?> b = (List<?>) u.get(3);
      assertThat(d.buckets()).as(d.name()).isEqualTo(b.isEmpty() ? List.of()
          : MetricDescriptor.exponentialBuckets((Double) b.get(0), (Double) b.get(1), (Integer) b.get(2)));
    }
    assertThat(SchedulerMetrics.ATTEMPT_BUCKETS).startsWith(0.001, 0.002, 0.004).endsWith(16.384);
    assertThat(SchedulerMetrics.PREEMPTION_VICTIMS.buckets()).containsExactly(1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0);
  }

  @Test
  void preemptionThenBinding_recordsAttemptsQueueMovesPreemptionSliAndEvents() {
    try (Scheduler s = Scheduler.builder().clock(clock).seed(1).parallelism(1)
        .metricsSamplePercent(100)
        .metrics(MicrometerMetrics.of(prometheus)).events(recorder).build()) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addNode(node("n2", 1000, 8192, 110));
      s.addPod(pod("low1", 800, 10, 0).toBuilder().nodeName("n1").build());
      s.addPod(pod("low2", 800, 10, 0).toBuilder().nodeName("n2").build());
      s.addPod(pod("high", 800, 10, 100));
      Exposition before = scrape();
      assertThat(before.value("scheduler_pending_pods", Map.of("queue", "active"))).contains(1.0);
      assertThat(before.value("scheduler_queue_incoming_pods_total", Map.of("queue", "active", "event", "PodAdd")))
          .contains(1.0);

      ScheduleResult first = s.scheduleOne();
      assertThat(first.victims()).hasSize(1);
      clock.advance(Duration.ofSeconds(3));
      ScheduleResult second = s.scheduleOne();
      assertThat(second.isBound()).isTrue();
      s.addPod(pod("small", 100, 10)); // fits both nodes: Score runs
      assertThat(s.scheduleOne().isBound()).isTrue();

      Exposition e = scrape();
      Map<String, String> unschedulable = Map.of("result", "unschedulable", "profile", "default-scheduler");
      Map<String, String> scheduled = Map.of("result", "scheduled", "profile", "default-scheduler");
      assertThat(e.value("scheduler_schedule_attempts_total", unschedulable)).contains(1.0);
      assertThat(e.value("scheduler_schedule_attempts_total", scheduled)).contains(2.0);
      assertThat(e.value("scheduler_scheduling_attempt_duration_seconds_count", scheduled)).contains(2.0);
      assertThat(e.value("scheduler_preemption_attempts_total", Map.of())).contains(1.0);
      assertThat(e.value("scheduler_preemption_victims_count", Map.of())).contains(1.0);
      assertThat(e.value("scheduler_preemption_victims_sum", Map.of())).contains(1.0);
      assertThat(e.value("scheduler_pod_scheduling_attempts_sum", Map.of())).contains(3.0);
      // queue entry to binding on the scheduler's clock: 3 s
      assertThat(e.value("scheduler_pod_scheduling_sli_duration_seconds_sum", Map.of("attempts", "2")))
          .contains(3.0);
      assertThat(e.value("scheduler_pending_pods", Map.of("queue", "active"))).contains(0.0);
      assertThat(e.value("scheduler_pending_pods", Map.of("queue", "unschedulable"))).contains(0.0);
      assertThat(e.value("scheduler_cache_size", Map.of("type", "nodes"))).contains(2.0);
      assertThat(e.value("scheduler_cache_size", Map.of("type", "pods"))).contains(3.0); // low1 evicted
      assertThat(e.value("scheduler_cache_size", Map.of("type", "assumed_pods"))).contains(2.0);
      assertThat(e.samples("scheduler_queue_incoming_pods_total")).extracting(x -> x.labels().get("event"))
          .contains("PodAdd", "ScheduleAttemptFailure");
      assertThat(e.value("scheduler_framework_extension_point_duration_seconds_count",
          Map.of("extension_point", "Score", "status", "Success", "profile", "default-scheduler")))
          .isPresent();
      for (List<Object> u : UPSTREAM) {
        String series = u.get(1).equals("HISTOGRAM") ? u.get(0) + "_count" : (String) u.get(0);
        if (!e.samples(series).isEmpty()) {
          assertThat(String.join(",", e.labelNames(series))).as(series)
              .isEqualTo(String.join(",", new java.util.TreeSet<>(List.of(((String) u.get(2)).split(","))))
                  .replaceFirst("^,", ""));
        }
      }
      assertThat(e.bucketBounds("scheduler_scheduling_attempt_duration_seconds", scheduled)).hasSize(16)
          .startsWith(0.001, 0.002).contains(16.384).last().isEqualTo(Double.POSITIVE_INFINITY);

      String victim = first.victims().get(0);
      String node = victim.endsWith("low1") ? "n1" : "n2";
      assertThat(events).containsExactly(
          victim + " Normal Preempted Preempting: Preempted by pod default/high on node " + node
              + " [related high]",
          "default/high Warning FailedScheduling Scheduling: " + first.message(),
          "default/high Normal Scheduled Binding: Successfully assigned default/high to " + node,
          events.get(3));
      assertThat(events.get(3)).startsWith("default/small Normal Scheduled Binding: Successfully assigned");
    }
  }

  /**
   * kube-scheduler {@code schedule_one.go}: {@code pluginMetricsSamplePercent = 10}; a sampled cycle's state has
   * {@code ShouldRecordPluginMetrics} and every {@code run<Point>Plugin} of that cycle times its plugin.
   */
  @Test
  void pluginExecutionDuration_sampledInATenthOfCycles_allPluginsOfASampledCycle() {
    int pods = 400;
    try (Scheduler s = Scheduler.builder().clock(clock).seed(7).parallelism(1)
        .metrics(MicrometerMetrics.of(prometheus)).build()) {
      for (int i = 0; i < 4; i++) {
        s.addNode(node("n" + i, 100_000, 1_000_000, 1000));
      }
      for (int i = 0; i < pods; i++) {
        s.addPod(pod("p" + i, 10, 10));
      }
      assertThat(s.runUntilIdle()).hasSize(pods).allMatch(ScheduleResult::isBound);
    }
    Exposition e = scrape();
    assertThat(e.value("scheduler_schedule_attempts_total",
        Map.of("result", "scheduled", "profile", "default-scheduler"))).contains((double) pods); // never sampled
    String family = "scheduler_plugin_execution_duration_seconds_count";
    assertThat(e.labelNames(family)).containsExactlyInAnyOrder("plugin", "extension_point", "status");
    double sampled = count(e, "NodeResourcesFit", "PreFilter");
    // Binomial(400, 0.1): mean 40, standard deviation 6; the seed makes it one fixed value inside these bounds
    assertThat(sampled).isBetween(20.0, 65.0);
    // every plugin of a sampled cycle is timed once per once-per-cycle point ...
    for (String plugin : List.of("NodeAffinity", "PodTopologySpread", "InterPodAffinity")) {
      assertThat(count(e, plugin, "PreFilter")).as(plugin).isEqualTo(sampled);
    }
    assertThat(count(e, "NodeResourcesBalancedAllocation", "PreScore")).isEqualTo(sampled);
    assertThat(count(e, "TaintToleration", "ScoreExtensionNormalize")).isEqualTo(sampled);
    // kube's RunScorePlugins runs (and times) NormalizeScore only for plugins with ScoreExtensions: not these two
    assertThat(count(e, "NodeResourcesFit", "ScoreExtensionNormalize")).isZero();
    assertThat(count(e, "NodeResourcesBalancedAllocation", "ScoreExtensionNormalize")).isZero();
    // ... and at the per-node points on the first node evaluated (4 nodes < the stride of 128)
    assertThat(count(e, "NodeResourcesFit", "Filter")).isEqualTo(sampled);
    assertThat(count(e, "NodeResourcesFit", "Score")).isEqualTo(sampled);
    assertThat(e.samples(family)).extracting(x -> x.labels().get("status")).containsOnly("Success", "Skip");
    assertThat(e.bucketBounds("scheduler_plugin_execution_duration_seconds",
        Map.of("plugin", "NodeResourcesFit", "extension_point", "PreFilter", "status", "Success"))).hasSize(21);
  }

  /**
   * A scrape between two calls sees every attempt made so far, exactly: after 37 single steps (not a multiple of the
   * 256 cycles after which {@code runUntilIdle} adds up plugin evaluations; the queue still holds pods) and after the
   * rest ran to idle. Counters, every histogram's {@code _count} and its {@code +Inf} bucket agree.
   */
  @Test
  void scrapeAfterNAttempts_showsExactlyN_afterAPartialBatchAndAtIdle() {
    Map<String, String> scheduled = Map.of("result", "scheduled", "profile", "default-scheduler");
    Map<String, String> filterOfFit = Map.of("plugin", "NodeResourcesFit", "extension_point", "Filter",
        "profile", "default-scheduler");
    try (Scheduler s = Scheduler.builder().clock(clock).seed(5).parallelism(1)
        .metrics(MicrometerMetrics.of(prometheus)).build()) {
      for (int i = 0; i < 3; i++) {
        s.addNode(node("n" + i, 100_000, 1_000_000, 1000));
      }
      for (int i = 0; i < 40; i++) {
        s.addPod(pod("p" + i, 10, 10));
      }
      for (int i = 0; i < 37; i++) {
        assertThat(s.scheduleOne().isBound()).isTrue();
      }
      assertAttempts(scrape(), 37, 3, scheduled, filterOfFit);
      assertThat(s.runUntilIdle()).hasSize(3);
      assertAttempts(scrape(), 40, 0, scheduled, filterOfFit);
    }
  }

  private static void assertAttempts(Exposition e, int n, int pending, Map<String, String> scheduled,
      Map<String, String> filterOfFit) {
    assertThat(e.value("scheduler_schedule_attempts_total", scheduled)).contains((double) n);
    assertThat(e.value("scheduler_scheduling_attempt_duration_seconds_count", scheduled)).contains((double) n);
    Map<String, String> inf = new java.util.HashMap<>(scheduled);
    inf.put("le", "+Inf");
    assertThat(e.value("scheduler_scheduling_attempt_duration_seconds_bucket", inf)).contains((double) n);
    assertThat(e.value("scheduler_scheduling_attempt_duration_seconds_sum", scheduled).orElseThrow()).isPositive();
    assertThat(e.value("scheduler_scheduling_algorithm_duration_seconds_count", Map.of())).contains((double) n);
    assertThat(e.value("scheduler_pod_scheduling_attempts_count", Map.of())).contains((double) n);
    assertThat(e.value("scheduler_pod_scheduling_attempts_sum", Map.of())).contains((double) n);
    assertThat(e.value("scheduler_pod_scheduling_sli_duration_seconds_count", Map.of("attempts", "1")))
        .contains((double) n);
    assertThat(e.value("scheduler_pending_pods", Map.of("queue", "active"))).contains((double) pending);
    assertThat(e.value("scheduler_cache_size", Map.of("type", "pods"))).contains((double) n);
    // one Filter call per node examined (3 nodes, all fit) per attempt
    assertThat(e.value("scheduler_plugin_evaluation_total", filterOfFit)).contains(3.0 * n);
  }

  @Test
  void pluginSampling_neverChangesPlacements() {
    List<String> withMetrics = placements(MicrometerMetrics.of(prometheus));
    List<String> without = placements(io.fleetkit.api.metrics.MetricsRegistry.NOOP);
    assertThat(withMetrics).isEqualTo(without).hasSize(60);
    assertThat(scrape().samples("scheduler_plugin_execution_duration_seconds_count")).isNotEmpty();
  }

  private List<String> placements(io.fleetkit.api.metrics.MetricsRegistry metrics) {
    try (Scheduler s = Scheduler.builder().clock(clock).seed(3).parallelism(1).metrics(metrics).build()) {
      for (int i = 0; i < 6; i++) {
        s.addNode(node("n" + i, 4000, 64_000, 110));
      }
      for (int i = 0; i < 60; i++) {
        s.addPod(pod("p" + i, 100 + i % 3 * 50, 100));
      }
      return s.runUntilIdle().stream().map(r -> r.podKey() + "@" + r.nodeName()).toList();
    }
  }

  private static double count(Exposition e, String plugin, String point) {
    return e.samples("scheduler_plugin_execution_duration_seconds_count").stream()
        .filter(x -> x.labels().get("plugin").equals(plugin) && x.labels().get("extension_point").equals(point))
        .mapToDouble(Exposition.Sample::value).sum();
  }

  @Test
  void noRegistryNoRecorder_recordsNothing() {
    try (Scheduler s = Scheduler.builder().clock(clock).build()) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addPod(pod("p", 100, 10));
      assertThat(s.scheduleOne().isBound()).isTrue();
    }
    assertThat(scrape().samples()).isEmpty();
    assertThat(events).isEmpty();
  }

  /**
   * kube's {@code framework/runtime/framework.go}: every {@code Run<Point>Plugins} observes
   * {@code scheduler_framework_extension_point_duration_seconds} {extension_point, status, profile}; Unreserve and
   * PostBind always with {@code Success}.
   */
  @Test
  void extensionPointDurations_everyPointOfABindingAndOfAPreemption() {
    try (Scheduler s = Scheduler.builder().clock(clock).seed(1).parallelism(1)
        .metricsSamplePercent(100)
        .metrics(MicrometerMetrics.of(prometheus)).build()) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addNode(node("n2", 1000, 8192, 110));
      s.addPod(pod("a", 100, 10));
      assertThat(s.scheduleOne().isBound()).isTrue(); // two feasible nodes: PreScore and Score run
      s.addPod(pod("big", 5000, 10)); // fits nowhere, preemption finds nothing
      assertThat(s.scheduleOne().isBound()).isFalse();
    }
    Exposition e = scrape();
    for (String point : List.of("PreScore", "Score", "Reserve", "Permit", "PreBind", "Bind", "PostBind")) {
      assertThat(pointCount(e, point, "Success")).as(point).isEqualTo(1.0);
    }
    // both attempts ran PreFilter and Filter successfully ("big"'s Filter found no node, which is no error)
    assertThat(pointCount(e, "PreFilter", "Success")).isEqualTo(2.0);
    assertThat(pointCount(e, "Filter", "Success")).isEqualTo(2.0);
    assertThat(pointCount(e, "PostFilter", "Unschedulable")).isEqualTo(1.0);
    assertThat(e.samples("scheduler_framework_extension_point_duration_seconds_count"))
        .extracting(x -> x.labels().get("extension_point")).doesNotContain("Unreserve");
    assertThat(e.bucketBounds("scheduler_framework_extension_point_duration_seconds",
        Map.of("extension_point", "Reserve", "status", "Success", "profile", "default-scheduler"))).hasSize(13)
        .startsWith(0.0001, 0.0002).contains(0.2048);
  }

  /**
   * A sampled cycle's extension points are disjoint parts of its attempt (consecutive points share the clock read
   * between them, a point's end may be its last plugin's): their durations, and those of the once-per-cycle plugins
   * within them, are never negative and add up to no more than the attempts took.
   */
  @Test
  void sampledCycles_pointAndPluginDurations_fitWithinTheAttempts() {
    bindFivePodsOnFourNodes(Scheduler.builder().metricsSamplePercent(100));
    Exposition e = scrape();
    double attempts = sum(e, "scheduler_scheduling_attempt_duration_seconds_sum", x -> true);
    double points = sum(e, "scheduler_framework_extension_point_duration_seconds_sum", x -> true);
    double plugins = sum(e, "scheduler_plugin_execution_duration_seconds_sum",
        x -> List.of("PreFilter", "PreScore", "ScoreExtensionNormalize").contains(x.labels().get("extension_point")));
    assertThat(e.samples("scheduler_framework_extension_point_duration_seconds_sum")).hasSizeGreaterThanOrEqualTo(9)
        .allMatch(x -> x.value() >= 0);
    assertThat(e.samples("scheduler_plugin_execution_duration_seconds_sum")).isNotEmpty()
        .allMatch(x -> x.value() >= 0);
    assertThat(attempts).isPositive();
    assertThat(points).isPositive().isLessThanOrEqualTo(attempts);
    assertThat(plugins).isPositive().isLessThanOrEqualTo(points);
    // the default profile has no Permit or PostBind plugin: those points are observed in every sampled cycle, as
    // nothing that ran (0 s, no clock read); Reserve (DynamicResources) and Bind, which calls the binder, are timed
    assertThat(pointCount(e, "Reserve", "Success")).isEqualTo(5);
    assertThat(e.value("scheduler_framework_extension_point_duration_seconds_sum",
        Map.of("extension_point", "Reserve", "status", "Success", "profile", "default-scheduler")).orElseThrow())
        .isPositive();
    for (String point : List.of("Permit", "PostBind")) {
      assertThat(pointCount(e, point, "Success")).as(point).isEqualTo(5);
      assertThat(e.value("scheduler_framework_extension_point_duration_seconds_sum",
          Map.of("extension_point", point, "status", "Success", "profile", "default-scheduler"))).as(point)
          .contains(0.0);
    }
    assertThat(pointCount(e, "Bind", "Success")).isEqualTo(5);
    assertThat(e.value("scheduler_framework_extension_point_duration_seconds_sum",
        Map.of("extension_point", "Bind", "status", "Success", "profile", "default-scheduler")).orElseThrow())
        .isPositive();
  }

  private static double sum(Exposition e, String family, java.util.function.Predicate<Exposition.Sample> which) {
    return e.samples(family).stream().filter(which).mapToDouble(Exposition.Sample::value).sum();
  }

  private static double pointCount(Exposition e, String point, String status) {
    return e.value("scheduler_framework_extension_point_duration_seconds_count",
        Map.of("extension_point", point, "status", status, "profile", "default-scheduler")).orElse(0.0);
  }

  /**
   * kube's {@code WaitOnPermit}: {@code scheduler_permit_wait_duration_seconds} {result} observes how long a pod
   * waited, labelled with the status it ended with; a rejected wait unreserves (Unreserve observed).
   */
  @Test
  void permitWait_observedWithTheEndingStatus_onTheSchedulersClock() {
    io.fleetkit.scheduler.PluginRegistry reg = io.fleetkit.scheduler.PluginRegistry.defaults().with("Gate",
        h -> io.fleetkit.scheduler.testing.LambdaPlugins.permit("Gate",
            (p, n) -> io.fleetkit.api.framework.PermitResult.waitFor(Duration.ofSeconds(10))));
    io.fleetkit.api.framework.SchedulerProfile profile = io.fleetkit.api.framework.SchedulerProfile
        .builder("default-scheduler").plugin(io.fleetkit.scheduler.plugins.prioritysort.PrioritySortPlugin.NAME)
        .plugin("Gate").build();
    try (Scheduler s = Scheduler.builder().registry(reg).profile(profile).clock(clock).seed(1).parallelism(1)
        .metricsSamplePercent(100)
        .metrics(MicrometerMetrics.of(prometheus)).build()) {
      s.addNode(node("n1", 1000, 8192, 110));
      s.addPod(pod("ok", 100, 10));
      s.addPod(pod("late", 100, 10));
      assertThat(s.scheduleOne().code()).isEqualTo(io.fleetkit.api.framework.Status.Code.WAIT);
      assertThat(s.scheduleOne().code()).isEqualTo(io.fleetkit.api.framework.Status.Code.WAIT);
      clock.advance(Duration.ofMillis(100));
      s.waitingPods().allow("default/ok", "Gate");
      clock.advance(Duration.ofSeconds(10)); // "late" times out at its 10 s deadline
      assertThat(s.scheduleOne()).isNull();
    }
    Exposition e = scrape();
    Map<String, String> success = Map.of("result", "Success");
    assertThat(e.value("scheduler_permit_wait_duration_seconds_count", success)).contains(1.0);
    assertThat(e.value("scheduler_permit_wait_duration_seconds_sum", success).orElseThrow())
        .isCloseTo(0.1, org.assertj.core.data.Offset.offset(1e-9));
    // upstream metrics_test.go: 0.1 s lands in the 0.128 bucket, not in 0.064
    assertThat(e.value("scheduler_permit_wait_duration_seconds_bucket", Map.of("result", "Success", "le", "0.064")))
        .contains(0.0);
    assertThat(e.value("scheduler_permit_wait_duration_seconds_bucket", Map.of("result", "Success", "le", "0.128")))
        .contains(1.0);
    assertThat(e.bucketBounds("scheduler_permit_wait_duration_seconds", success)).hasSize(16).contains(16.384);
    Map<String, String> rejected = Map.of("result", "Unschedulable");
    assertThat(e.value("scheduler_permit_wait_duration_seconds_count", rejected)).contains(1.0);
    assertThat(e.value("scheduler_permit_wait_duration_seconds_sum", rejected).orElseThrow())
        .isCloseTo(10.1, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(pointCount(e, "Permit", "Wait")).isEqualTo(2.0);
    assertThat(pointCount(e, "Unreserve", "Success")).isEqualTo(1.0);
    assertThat(pointCount(e, "Bind", "Success")).isEqualTo(1.0);
  }

  /**
   * kube's instrumented plugins ({@code framework/runtime/instrumented_plugins.go}): every PreFilter, Filter,
   * PreScore and Score call counts once in {@code scheduler_plugin_evaluation_total}; Filter on each node examined,
   * a later Filter plugin only on nodes that the earlier ones passed.
   */
  @Test
  void pluginEvaluations_countEveryCall_filterStopsAtTheFirstRejection() {
    io.fleetkit.scheduler.PluginRegistry reg = io.fleetkit.scheduler.PluginRegistry.defaults()
        .with(io.fleetkit.scheduler.testing.TestFitPlugin.NAME, h -> new io.fleetkit.scheduler.testing.TestFitPlugin())
        .with("Last", h -> io.fleetkit.scheduler.testing.LambdaPlugins.filter("Last",
            (p, n) -> io.fleetkit.api.framework.Status.success()));
    io.fleetkit.api.framework.SchedulerProfile profile = io.fleetkit.api.framework.SchedulerProfile
        .builder("default-scheduler").plugin(io.fleetkit.scheduler.plugins.prioritysort.PrioritySortPlugin.NAME)
        .plugin(io.fleetkit.scheduler.testing.TestFitPlugin.NAME, 1).plugin("Last").build();
    bindFivePodsOnFourNodes(Scheduler.builder().registry(reg).profile(profile));
    // 5 cycles × 4 nodes examined by TestFit; Last runs only where TestFit passed: "small" (too little cpu) never,
    // and in the fifth cycle one n node is full (two pods of 500m each): 3 + 3 + 3 + 3 + 2
    Exposition e = scrape();
    assertThat(evaluations(e, "TestFit", "Filter")).isEqualTo(20.0);
    assertThat(evaluations(e, "Last", "Filter")).isEqualTo(14.0);
    // Score runs on the feasible nodes, the same 3 + 3 + 3 + 3 + 2
    assertThat(evaluations(e, "TestFit", "Score")).isEqualTo(14.0);
    assertThat(evaluations(e, "Last", "Score")).isZero();
    assertThat(e.labelNames("scheduler_plugin_evaluation_total"))
        .containsExactlyInAnyOrder("plugin", "extension_point", "profile");
  }

  /** A PreFilter, PreScore and Score plugin: rejects pod "blocked" at PreFilter, skips Score for pod "unscored". */
  private static final class Gatekeeper implements io.fleetkit.api.framework.PreFilterPlugin,
      io.fleetkit.api.framework.PreScorePlugin, io.fleetkit.api.framework.ScorePlugin {
    private final String name;

    Gatekeeper(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public io.fleetkit.api.framework.PreFilterResult preFilter(io.fleetkit.api.framework.CycleState state,
        io.fleetkit.api.framework.PodInfo pod, io.fleetkit.api.framework.Snapshot snapshot) {
      return name.equals("Gate") && pod.pod().metadata().name().equals("blocked")
          ? io.fleetkit.api.framework.PreFilterResult.of(io.fleetkit.api.framework.Status.unschedulable("gated"))
          : io.fleetkit.api.framework.PreFilterResult.success();
    }

    @Override
    public io.fleetkit.api.framework.Status preScore(io.fleetkit.api.framework.CycleState state,
        io.fleetkit.api.framework.PodInfo pod, List<io.fleetkit.api.framework.NodeInfo> feasibleNodes) {
      return name.equals("After") && pod.pod().metadata().name().equals("unscored")
          ? io.fleetkit.api.framework.Status.skip() : io.fleetkit.api.framework.Status.success();
    }

    @Override
    public long score(io.fleetkit.api.framework.CycleState state, io.fleetkit.api.framework.PodInfo pod,
        io.fleetkit.api.framework.NodeInfo node) {
      return 10;
    }
  }

  /**
   * PreFilter and PreScore count a plugin's call only in the cycles that reached it (a PreFilter rejection stops the
   * plugins after it), and Score counts each node a plugin scored, none in a cycle whose PreScore skipped it.
   */
  @Test
  void pluginEvaluations_preFilterStopsAtARejection_scoreSkippedByPreScoreCountsNothing() {
    io.fleetkit.scheduler.PluginRegistry reg = io.fleetkit.scheduler.PluginRegistry.defaults()
        .with("Gate", h -> new Gatekeeper("Gate")).with("After", h -> new Gatekeeper("After"));
    io.fleetkit.api.framework.SchedulerProfile profile = io.fleetkit.api.framework.SchedulerProfile
        .builder("default-scheduler").plugin(io.fleetkit.scheduler.plugins.prioritysort.PrioritySortPlugin.NAME)
        .plugin("Gate", 1).plugin("After", 1).build();
    try (Scheduler s = Scheduler.builder().registry(reg).profile(profile).clock(clock).seed(1).parallelism(1)
        .metrics(MicrometerMetrics.of(prometheus)).build()) {
      for (int i = 0; i < 3; i++) {
        s.addNode(node("n" + i, 1000, 8192, 110));
      }
      for (String name : List.of("a", "blocked", "b", "unscored")) {
        s.addPod(pod(name, 100, 10));
      }
      assertThat(s.runUntilIdle()).hasSize(4).filteredOn(ScheduleResult::isBound).hasSize(3);
      s.addPod(pod("c", 100, 10));
      assertThat(s.runUntilIdle()).hasSize(1).allMatch(ScheduleResult::isBound);
    }
    Exposition e = scrape();
    // five cycles; "blocked" stopped at Gate
    assertThat(evaluations(e, "Gate", "PreFilter")).isEqualTo(5.0);
    assertThat(evaluations(e, "After", "PreFilter")).isEqualTo(4.0);
    // the four bound pods' cycles reached PreScore, with three feasible nodes each
    assertThat(evaluations(e, "Gate", "PreScore")).isEqualTo(4.0);
    assertThat(evaluations(e, "After", "PreScore")).isEqualTo(4.0);
    assertThat(evaluations(e, "Gate", "Score")).isEqualTo(12.0);
    assertThat(evaluations(e, "After", "Score")).isEqualTo(9.0);
  }

  /**
   * At Filter a sampled cycle observes, per plugin, {@code Success} when the plugin passed a node of the batch and the
   * status of each node it rejected; a node a later plugin rejected was passed by the earlier ones ({@code Success}).
   */
  @Test
  void filterPluginDuration_statusIsWhatThatPluginReturned_notALaterPluginsRejection() {
    io.fleetkit.scheduler.PluginRegistry reg = io.fleetkit.scheduler.PluginRegistry.defaults()
        .with("First", h -> io.fleetkit.scheduler.testing.LambdaPlugins.filter("First",
            (p, n) -> io.fleetkit.api.framework.Status.success()))
        .with(io.fleetkit.scheduler.testing.TestFitPlugin.NAME, h -> new io.fleetkit.scheduler.testing.TestFitPlugin());
    io.fleetkit.api.framework.SchedulerProfile profile = io.fleetkit.api.framework.SchedulerProfile
        .builder("default-scheduler").plugin(io.fleetkit.scheduler.plugins.prioritysort.PrioritySortPlugin.NAME)
        .plugin("First").plugin(io.fleetkit.scheduler.testing.TestFitPlugin.NAME, 1).build();
    bindFivePodsOnFourNodes(Scheduler.builder().registry(reg).profile(profile).metricsSamplePercent(100));
    Exposition e = scrape();
    String family = "scheduler_plugin_execution_duration_seconds_count";
    assertThat(e.samples(family)).filteredOn(x -> x.labels().get("plugin").equals("First")
        && x.labels().get("extension_point").equals("Filter"))
        .extracting(x -> x.labels().get("status")).containsExactly("Success");
    assertThat(e.samples(family)).filteredOn(x -> x.labels().get("plugin").equals("TestFit")
        && x.labels().get("extension_point").equals("Filter"))
        .extracting(x -> x.labels().get("status")).containsExactlyInAnyOrder("Success", "Unschedulable");
    // every cycle sampled: one observation per status and cycle (one batch of the 4 nodes each)
    assertThat(e.value(family, Map.of("plugin", "First", "extension_point", "Filter", "status", "Success")))
        .contains(5.0);
    assertThat(evaluations(e, "First", "Filter")).isEqualTo(20.0);
    assertThat(evaluations(e, "TestFit", "Filter")).isEqualTo(20.0);
  }

  private static double evaluations(Exposition e, String plugin, String point) {
    return e.value("scheduler_plugin_evaluation_total",
        Map.of("plugin", plugin, "extension_point", point, "profile", "default-scheduler")).orElse(0.0);
  }

  private Exposition scrape() {
    return Exposition.parse(prometheus.scrape());
  }

  /**
   * Binds five pods of 500m on one node of 100m ("small", never fits) and three of 1000m ("n0".."n2"), one cycle at a
   * time on one thread, recording into {@link #prometheus}.
   */
  private void bindFivePodsOnFourNodes(SchedulerBuilder builder) {
    try (Scheduler s = builder.clock(clock).seed(1).parallelism(1).metrics(MicrometerMetrics.of(prometheus)).build()) {
      s.addNode(node("small", 100, 8192, 110));
      for (int i = 0; i < 3; i++) {
        s.addNode(node("n" + i, 1000, 8192, 110));
      }
      for (int i = 0; i < 5; i++) {
        s.addPod(pod("p" + i, 500, 10));
      }
      assertThat(s.runUntilIdle()).hasSize(5).allMatch(ScheduleResult::isBound);
    }
  }
}
