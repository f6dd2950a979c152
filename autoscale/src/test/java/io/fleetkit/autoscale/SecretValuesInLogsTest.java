package io.fleetkit.autoscale;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscaler;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerSpec;
import io.fleetkit.api.autoscaling.MetricSpec;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.testing.CapturedLogs;
import io.fleetkit.api.testing.CapturedTelemetry;
import io.fleetkit.api.testing.SecretFixtures;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.autoscale.hpa.HorizontalPodAutoscalerController;
import io.fleetkit.autoscale.hpa.MetricsSource;
import io.fleetkit.autoscale.hpa.MetricsUnavailableException;
import io.fleetkit.autoscale.hpa.SyncOutcome;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * No log line of this module's whole test run holds a secret value ({@link CapturedLogs}). Runs last, after an HPA
 * synced a Deployment whose pods carry the test values in their env while its metrics were unavailable (the failed
 * outcome logged as a caller would); nor does any metric series it recorded ({@link CapturedTelemetry}).
 */
@Order(Integer.MAX_VALUE)
final class SecretValuesInLogsTest {
  @Test
  void wholeSuite_noLogLineContainsASecretValue() {
    ManualClock clock = ManualClock.atEpoch2026();
    CapturedTelemetry telemetry = new CapturedTelemetry();
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      store.create(SecretFixtures.secret("ns", "db"));
      store.create(Deployment.builder().namespace("ns").name("web").replicas(2).matchLabels(Map.of("app", "web"))
          .podSpec(PodSpec.builder().container(SecretFixtures.container("app")).build()).build());
      store.create(SecretFixtures.pod("ns", "web-0").withMetadata(ObjectMeta.builder().namespace("ns").name("web-0")
          .label("app", "web").build()));
      store.create(HorizontalPodAutoscaler.of(ObjectMeta.builder().namespace("ns").name("web").build(),
          HorizontalPodAutoscalerSpec.builder().scaleTargetRef(CrossVersionObjectReference.deployment("web"))
              .minReplicas(1).maxReplicas(5).metric(MetricSpec.resourceUtilization(ResourceNames.CPU, 50)).build()));
      MetricsSource down = new MetricsSource() {
        @Override
        public java.util.List<io.fleetkit.autoscale.hpa.PodResourceMetrics> podResourceMetrics(String namespace,
            io.fleetkit.api.labels.LabelSelector selector, String resource) {
          throw new MetricsUnavailableException("metrics server unreachable");
        }

        @Override
        public java.util.List<Long> externalMetric(String namespace, String metricName,
            io.fleetkit.api.labels.@org.jspecify.annotations.Nullable LabelSelector metricSelector) {
          throw new MetricsUnavailableException("no such metric " + metricName);
        }
      };
      SyncOutcome out = HorizontalPodAutoscalerController.builder(store, down).clock(clock)
          .metricsRegistry(telemetry.metrics()).build().sync("ns", "web");
      assertThat(out.error()).isNotNull();
      LoggerFactory.getLogger(SecretValuesInLogsTest.class).warn("hpa sync failed: {} {}", out, out.error());
    }
    assertThat(CapturedLogs.lines()).anyMatch(l -> l.contains("hpa sync failed"));
    assertThat(telemetry.metricNames()).contains("horizontal_pod_autoscaler_controller_reconciliations_total");
    telemetry.assertNoSecrets();
    CapturedLogs.assertNoLeaks();
  }
}
