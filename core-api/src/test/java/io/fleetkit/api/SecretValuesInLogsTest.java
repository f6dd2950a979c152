package io.fleetkit.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Bytes;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.testing.CapturedLogs;
import io.fleetkit.api.testing.SecretFixtures;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * No log line of this module's whole test run holds a secret value ({@link CapturedLogs} scans every line). Runs
 * last (class order by {@code @Order}), after exercising the store's logging paths with secret-bearing objects: a
 * watch listener failing on a Secret and on a pod whose env holds the values, and validation errors of such objects
 * logged as a caller would log them.
 */
@Order(Integer.MAX_VALUE)
final class SecretValuesInLogsTest {
  @Test
  void wholeSuite_noLogLineContainsASecretValue() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build();
        Watch secrets = store.watch(Secret.class, "0", e -> {
          throw new IllegalStateException("listener broke on " + e);
        });
        Watch pods = store.watch(Pod.class, "0", e -> {
          throw new IllegalStateException("listener broke on " + e);
        })) {
      store.create(SecretFixtures.secret("ns", "db"));
      store.create(SecretFixtures.pod("ns", "web"));
      store.create(SecretFixtures.configMap("ns", "cfg"));
    }
    var log = LoggerFactory.getLogger(SecretValuesInLogsTest.class);
    assertThatThrownBy(() -> new Secret(ObjectMeta.of("ns", "tls"), Secret.TYPE_BASIC_AUTH,
        Map.of("bad key!", Bytes.ofUtf8(CapturedLogs.TEST_SECRET)), false))
        .isInstanceOf(ValidationException.class)
        .satisfies(e -> log.warn("creating secret failed", e));
    assertThatThrownBy(() -> Pod.builder().namespace("ns").name("bad").container(new Container("Bad_Name", "nginx",
        ResourceRequirements.NONE, List.of(), List.of(new EnvVar("TOKEN", CapturedLogs.TEST_TOKEN)), null)).build())
        .isInstanceOf(ValidationException.class)
        .satisfies(e -> log.warn("creating pod failed", e));

    assertThat(CapturedLogs.lines()).anyMatch(l -> l.contains("watch listener on Secret failed"))
        .anyMatch(l -> l.contains("watch listener on Pod failed"));
    CapturedLogs.assertNoLeaks();
  }
}
