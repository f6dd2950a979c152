package io.fleetkit.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.testing.CapturedLogs;
import io.fleetkit.api.testing.CapturedTelemetry;
import io.fleetkit.api.testing.SecretFixtures;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.observability.events.StoreEventRecorder;
import io.fleetkit.observability.store.MeteredObjectStore;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * No log line of this module's whole test run holds a secret value ({@link CapturedLogs}). Runs last, after events
 * about secret-bearing objects went through the correlator (the spam filter drops and logs some) and into a store that
 * refuses them, and after a metered store counted a failed write of a Secret; nor does any stored event or metric
 * series ({@link CapturedTelemetry}).
 */
@Order(Integer.MAX_VALUE)
final class SecretValuesInLogsTest {
  @Test
  void wholeSuite_noLogLineContainsASecretValue() {
    ManualClock clock = ManualClock.atEpoch2026();
    CapturedTelemetry telemetry = new CapturedTelemetry();
    try (ObjectStore raw = ObjectStore.builder().directDelivery().build()) {
      ObjectStore store = MeteredObjectStore.wrap(raw, telemetry.metrics());
      Secret secret = store.create(SecretFixtures.secret("ns", "db"));
      Pod pod = store.create(SecretFixtures.pod("ns", "web"));
      assertThatThrownBy(() -> store.create(SecretFixtures.secret("ns", "db")))
          .satisfies(e -> LoggerFactory.getLogger(SecretValuesInLogsTest.class).warn("create failed", e));
      StoreEventRecorder events = StoreEventRecorder.create(store, clock, "fleetkit.io/test", "fleetkit.io/test-0");
      for (int i = 0; i < 30; i++) { // past the spam filter's burst of 25
        events.event(pod, Event.WARNING, "FailedMount", "Mount", "cannot mount secret db, attempt " + i);
        events.event(secret, Event.NORMAL, "Synced", "Sync", "synced " + i);
      }
      List<Event> stored = raw.list(Event.class).items();
      assertThat(stored).isNotEmpty().allSatisfy(e -> assertThat(CapturedLogs.secretIn(e.toString()))
          .as("stored event %s", CapturedLogs.mask(e.toString())).isNull());
    }
    ManualClock later = ManualClock.atEpoch2026();
    ObjectStore closed = ObjectStore.builder().directDelivery().build();
    closed.close();
    StoreEventRecorder refused = StoreEventRecorder.create(closed, later, "fleetkit.io/test", "fleetkit.io/test-0");
    refused.event(SecretFixtures.pod("ns", "web"), Event.WARNING, "BackOff", "Start", "back-off restarting");
    assertThat(CapturedLogs.lines()).anyMatch(l -> l.contains("dropped by the spam filter"));
    assertThat(telemetry.metricNames()).contains("fleetkit_store_requests_total");
    telemetry.assertNoSecrets();
    CapturedLogs.assertNoLeaks();
  }
}
