package io.fleetkit.reconcile.rollouts;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.rollouts.AnalysisPhase;
import io.fleetkit.api.rollouts.AnalysisRun;
import io.fleetkit.api.rollouts.AnalysisRunSpec;
import io.fleetkit.api.rollouts.AnalysisRunStatus;
import io.fleetkit.api.rollouts.Measurement;
import io.fleetkit.api.rollouts.Metric;
import io.fleetkit.api.rollouts.MetricProvider;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.store.ObjectStore;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The simulated error rate is Go float text on the version's running pods. */
final class SimulatedMeasurementProviderTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private static Measurement measure(String errorRate) {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      Pod p = store.create(Pod.builder().namespace("default").name("web-1")
          .label(Rollout.POD_TEMPLATE_HASH_LABEL, "abc")
          .annotation(SimulatedMeasurementProvider.ERROR_RATE, errorRate)
          .spec(PodSpec.builder().container("app", "shop:2", ResourceList.ofCpuMemory(100, 0)).build()).build());
      store.updateStatus(p.withStatus(PodStatus.of(PodPhase.Running)));
      Metric m = Metric.of("error-rate", new MetricProvider.Simulated("error-rate")).withConditions("result < 0.05",
          "");
      AnalysisRun run = new AnalysisRun(ObjectMeta.builder().namespace("default").name("run")
          .label(Rollout.POD_TEMPLATE_HASH_LABEL, "abc").build(), new AnalysisRunSpec(List.of(m), List.of(), false),
          AnalysisRunStatus.EMPTY);
      return new SimulatedMeasurementProvider(store).run(run, m, NOW);
    }
  }

  @Test
  void errorRate_goFloatText_judged() {
    assertThat(measure("0.01").phase()).isEqualTo(AnalysisPhase.Successful);
    assertThat(measure("0.2").phase()).isEqualTo(AnalysisPhase.Failed);
  }

  /** Double.parseDouble read "0.01d" (a Java suffix) as 0.01; Go's float text has no such suffix. */
  @Test
  void errorRate_javaOnlyFloatText_anErrorNamingPodAndAnnotation() {
    Measurement m = measure("0.01d");
    assertThat(m.phase()).isEqualTo(AnalysisPhase.Error);
    assertThat(m.message()).contains("pod default/web-1").contains(SimulatedMeasurementProvider.ERROR_RATE)
        .contains("\"0.01d\"").contains("must be a number");
  }
}
