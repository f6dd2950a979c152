package io.fleetkit.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.AdmissionDeniedException;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.ResourceQuotaSpec;
import io.fleetkit.api.core.ResourceQuotaStatus;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.testing.CapturedLogs;
import io.fleetkit.api.testing.SecretFixtures;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * No log line of this module's whole test run holds a secret value ({@link CapturedLogs}). Runs last, after a quota
 * denied a Secret and a pod carrying the test values (the denials logged as a caller would) and the namespace
 * controller emptied a namespace holding them.
 */
@Order(Integer.MAX_VALUE)
final class SecretValuesInLogsTest {
  @Test
  void wholeSuite_noLogLineContainsASecretValue() {
    try (ObjectStore store = ObjectStore.builder().directDelivery()
        .admission(AdmissionChain.of(new NamespaceLifecyclePlugin(), new ResourceQuotaPlugin())).build()) {
      store.create(Namespace.of("ns"));
      store.create(SecretFixtures.secret("ns", "db"));
      store.create(SecretFixtures.pod("ns", "web"));
      store.create(SecretFixtures.configMap("ns", "cfg"));
      ResourceList hard = ResourceList.builder().put("count/secrets", Quantity.of(1)).put("pods", Quantity.of(1))
          .build();
      store.create(new ResourceQuota(ObjectMeta.of("ns", "q"), new ResourceQuotaSpec(hard, List.of(), List.of()),
          new ResourceQuotaStatus(hard, hard)));
      var log = LoggerFactory.getLogger(SecretValuesInLogsTest.class);
      assertThatThrownBy(() -> store.create(SecretFixtures.secret("ns", "db2")))
          .isInstanceOf(AdmissionDeniedException.class).satisfies(e -> log.warn("create denied", e));
      assertThatThrownBy(() -> store.create(SecretFixtures.pod("ns", "web2")))
          .isInstanceOf(AdmissionDeniedException.class).satisfies(e -> log.warn("create denied", e));
      try (NamespaceController controller = NamespaceController.of(store, NamespacedKinds.all()).start()) {
        store.delete(Namespace.class, "", "ns");
        assertThat(store.list(Secret.class, "ns").items()).isEmpty();
        assertThat(store.list(Pod.class, "ns").items()).isEmpty();
      }
    }
    assertThat(CapturedLogs.lines()).anyMatch(l -> l.contains("create denied"));
    CapturedLogs.assertNoLeaks();
  }
}
