package io.fleetkit.reconcile;

import io.fleetkit.api.time.ManualClock;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.controllers.ReplicaSetController;
import io.fleetkit.api.testing.CapturedLogs;
import io.fleetkit.api.testing.CapturedTelemetry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * No log line of this module's whole test run holds a secret value: {@link CapturedLogs} checks every line, at
 * every level, against {@link CapturedLogs#TEST_SECRET} and {@link CapturedLogs#TEST_TOKEN}; nor does any event,
 * metric series or span the controllers report about secret-bearing pods ({@link CapturedTelemetry}). This class runs last
 * (class order by {@code @Order}, see junit-platform.properties), after exercising the paths that log objects and
 * failures with secret-bearing pods itself.
 */
@Order(Integer.MAX_VALUE)
final class SecretValuesInLogsTest {
  @Test
  void wholeSuite_noLogLineContainsASecretValue() throws Exception {
    CapturedTelemetry telemetry = new CapturedTelemetry();
    ManualClock clock = ManualClock.atEpoch2026();
    PodSpec spec = PodSpec.builder().container(new Container("app", "nginx", ResourceRequirements.NONE, List.of(),
        List.of(new EnvVar("DB_PASSWORD", CapturedLogs.TEST_SECRET), new EnvVar("TOKEN", CapturedLogs.TEST_TOKEN)),
        null)).build();
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
        ReplicaSetController rs = ReplicaSetController.builder(store).clock(clock).stepping()
            .metrics(telemetry.metrics()).events(telemetry.events()).tracing(telemetry.tracing()).build();
        Controller<Gadget> failing = Controller.builder(store, Gadget.class).stepping().clock(clock)
            .metrics(telemetry.metrics()).events(telemetry.events()).tracing(telemetry.tracing())
            .reconciler(ctx -> {
              throw new IllegalStateException("cannot reach the database");
            }).build()) {
      rs.start().join();
      failing.start().get();
      store.create(ReplicaSet.builder().namespace("ns").name("db").replicas(2).matchLabels(Map.of("app", "db"))
          .podSpec(spec).build());
      store.create(Gadget.of("ns", "g", 1));
      rs.runUntilIdle();
      failing.runOnce();
      clock.advance(Duration.ofSeconds(1));
      assertThat(store.list(Pod.class).items()).hasSize(2).allSatisfy(p ->
          assertThat(p.spec().containers().get(0).env()).extracting(EnvVar::value).contains(CapturedLogs.TEST_SECRET));
    }
    assertThat(CapturedLogs.scanned()).as("log lines checked").isPositive();
    assertThat(CapturedLogs.lines()).anyMatch(l -> l.contains("cannot reach the database"));
    assertThat(telemetry.reasons()).contains("SuccessfulCreate", "BackOff");
    assertThat(telemetry.spanNames()).containsExactly("fleetkit.reconcile");
    assertThat(telemetry.metricNames()).contains("controller_runtime_reconcile_total", "workqueue_adds_total");
    telemetry.assertNoSecrets();
    CapturedLogs.assertNoLeaks();
  }
}
