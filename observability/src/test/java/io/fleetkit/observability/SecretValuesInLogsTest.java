package io.fleetkit.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.testing.CapturedLogs;
import io.fleetkit.api.testing.SecretFixtures;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.observability.events.StoreEventRecorder;
import io.fleetkit.observability.store.MeteredObjectStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.fleetkit.observability.micrometer.MicrometerMetrics;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * No log line of this module's whole test run holds a secret value ({@link CapturedLogs}). Runs last, after events
 * about secret-bearing objects went through the correlator (the spam filter drops and logs some) and into a store that
 * refuses them, and after a metered store counted a failed write of a Secret.
 */
@Order(Integer.MAX_VALUE)
final class SecretValuesInLogsTest {
  @Test
  void wholeSuite_noLogLineContainsASecretValue() {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore raw = ObjectStore.builder().directDelivery().build()) {
      ObjectStore store = MeteredObjectStore.wrap(raw, MicrometerMetrics.of(new SimpleMeterRegistry()));
      Secret secret = store.create(SecretFixtures.secret("ns", "db"));
      Pod pod = store.create(SecretFixtures.pod("ns", "web"));
      assertThatThrownBy(() -> store.create(SecretFixtures.secret("ns", "db")))
          .satisfies(e -> LoggerFactory.getLogger(SecretValuesInLogsTest.class).warn("create failed", e));
      StoreEventRecorder events = StoreEventRecorder.create(store, clock, "fleetkit.io/test", "fleetkit.io/test-0");
      for (int i = 0; i < 30; i++) { // past the spam filter's burst of 25
        events.event(pod, Event.WARNING, "FailedMount", "Mount", "cannot mount secret db, attempt " + i);
        events.event(secret, Event.NORMAL, "Synced", "Sync", "synced " + i);
      }
    }
    ManualClock later = ManualClock.atEpoch2026();
    ObjectStore closed = ObjectStore.builder().directDelivery().build();
    closed.close();
    StoreEventRecorder refused = StoreEventRecorder.create(closed, later, "fleetkit.io/test", "fleetkit.io/test-0");
    refused.event(SecretFixtures.pod("ns", "web"), Event.WARNING, "BackOff", "Start", "back-off restarting");
    assertThat(CapturedLogs.lines()).anyMatch(l -> l.contains("dropped by the spam filter"));
    CapturedLogs.assertNoLeaks();
  }
}
