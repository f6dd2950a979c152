package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.admission.ResourceQuotaPlugin;
import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.ResourceQuotaSpec;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A ReplicaSet whose pod creates are refused by a quota: the controller creates what the quota allows, keeps the
 * rest of its work (retrying with backoff, nothing lost), and catches up once the quota grows.
 */
final class QuotaDenialTest {
  private final ManualClock clock = ManualClock.atEpoch2026();

  @Test
  void replicaSet_quotaDeniesSomePods_createsTheRestAfterTheQuotaGrows() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock())
        .admission(AdmissionChain.of(new ResourceQuotaPlugin(clock.asClock()))).build();
        ReplicaSetController c = ReplicaSetController.builder(store).clock(clock).stepping().build()) {
      c.start().join();
      ResourceQuota quota;
      store.create(ResourceQuota.of("ns", "pods",
          ResourceList.builder().put("pods", "3").build()));
      String uid = store.create(ReplicaSetControllerTest.rs("web", 5)).metadata().uid();
      c.runUntilIdle();

      assertThat(Sim.podsOf(store, uid)).hasSize(3);
      assertThat(store.require(ReplicaSet.class, "ns", "web").status().replicas()).isEqualTo(3);

      quota = store.require(ResourceQuota.class, "ns", "pods"); // its status changed with every charge
      store.update(quota.withSpec(ResourceQuotaSpec.of(ResourceList.builder().put("pods", "5").build())));
      clock.advance(Duration.ofMinutes(1)); // past the retry backoff
      c.runUntilIdle();

      assertThat(Sim.podsOf(store, uid)).hasSize(5);
      assertThat(store.require(ResourceQuota.class, "ns", "pods").status().used().pods()).isEqualTo(5);
    }
  }
}
