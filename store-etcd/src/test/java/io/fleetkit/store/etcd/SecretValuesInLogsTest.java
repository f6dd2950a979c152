package io.fleetkit.store.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.testing.CapturedLogs;
import io.fleetkit.api.testing.SecretFixtures;
import java.util.UUID;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * No log line of this module's whole test run holds a secret value ({@link CapturedLogs}). Runs last. With an etcd
 * ({@code -Dfleetkit.etcd}) it first stores a Secret and a pod carrying the test values, read back through watches
 * whose listeners fail (the store logs each failure); without one it checks the lines the other tests left.
 */
@Order(Integer.MAX_VALUE)
final class SecretValuesInLogsTest {
  @Test
  void wholeSuite_noLogLineContainsASecretValue() {
    if (!LiveEtcd.endpoint().isEmpty()) {
      try (ObjectStore store = EtcdStore.builder(LiveEtcd.endpoint()).prefix("/fleetkit-test/" + UUID.randomUUID())
          .directDelivery().build();
          Watch secrets = store.watch(Secret.class, "0", e -> {
            throw new IllegalStateException("listener broke on " + e);
          });
          Watch pods = store.watch(Pod.class, "0", e -> {
            throw new IllegalStateException("listener broke on " + e);
          })) {
        store.create(SecretFixtures.secret("ns", "db"));
        store.create(SecretFixtures.pod("ns", "web"));
        assertThat(store.require(Secret.class, "ns", "db").data().get("password").utf8())
            .isEqualTo(CapturedLogs.TEST_SECRET);
      }
      assertThat(CapturedLogs.lines()).anyMatch(l -> l.contains("watch listener on Secret failed"));
    }
    CapturedLogs.assertNoLeaks();
  }
}
