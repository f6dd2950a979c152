package io.fleetkit.lab.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.testing.CapturedLogs;
import io.fleetkit.api.testing.CapturedTelemetry;
import io.fleetkit.api.testing.SecretFixtures;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.ScheduleResult;
import io.fleetkit.scheduler.Scheduler;
import io.fleetkit.scheduler.plugins.gpu.GpuPlugins;
import io.fleetkit.scheduler.plugins.gpu.GpuPolicy;
import io.fleetkit.scheduler.plugins.gpu.GpuWorkload;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * No log line of this module's whole test run holds a secret value ({@link CapturedLogs}; the suite scans INFO and
 * above, see the module's pom), and none of the lines, at every level, of a GPU policy scheduling trace pods whose
 * env carries the test values, nor the metric series, events and spans of that scheduling
 * ({@link CapturedTelemetry}). Runs last.
 */
@Order(Integer.MAX_VALUE)
final class SecretValuesInLogsTest {
  @Test
  void secretBearingTracePods_noValueInLogsAtEveryLevelOrTelemetry() {
    CapturedTelemetry telemetry = new CapturedTelemetry();
    List<ScheduleResult> results = new ArrayList<>();
    CapturedLogs.atEveryLevel(() -> {
      List<Pod> pods = new ArrayList<>();
      for (TracePod p : List.of(new TracePod("a", 4000, 1024, 1, 500, List.of()),
          new TracePod("b", 8000, 1024, 2, 1000, List.of()), new TracePod("big", 900000, 1024, 8, 0, List.of()))) {
        Pod pod = EngineTraceReplay.pod(p);
        var app = SecretFixtures.container("app").withResources(pod.spec().containers().get(0).resources());
        pods.add(pod.withSpec(pod.spec().toBuilder().containers(List.of(app)).build()));
      }
      GpuPlugins gpu = GpuPlugins.builder().policy(GpuPolicy.FGD).workload(GpuWorkload.typicalOf(pods)).seed(1)
          .build();
      try (Scheduler s = Scheduler.builder().registry(gpu.registry(PluginRegistry.defaults()))
          .profile(gpu.policyOnlyProfile()).binder(gpu.binder(new EngineTraceReplay.RecordingBinder()))
          .metrics(telemetry.metrics()).events(telemetry.events()).tracing(telemetry.tracing())
          .parallelism(1).seed(1).build()) {
        s.addNode(EngineTraceReplay.node(new TraceNode("n1", 32000, 1 << 20, 4, "T4")));
        pods.forEach(s::addPod);
        results.addAll(s.runUntilIdle());
      }
    });
    assertThat(results).anyMatch(ScheduleResult::isBound).anyMatch(r -> !r.isBound());
    for (ScheduleResult r : results) {
      assertThat(CapturedLogs.secretIn(r.toString())).as("result %s", CapturedLogs.mask(r.toString())).isNull();
    }
    assertThat(telemetry.reasons()).contains("Scheduled", "FailedScheduling");
    telemetry.assertNoSecrets();
    CapturedLogs.assertNoLeaks();
  }
}
