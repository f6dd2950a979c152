package io.fleetkit.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.AdmissionDeniedException;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/** Replenishment, as kube's quota controller's {@code replenishQuota}: deletions and terminal pods free usage. */
final class QuotaReplenisherTest {
  private final Clock clock = Clock.systemUTC();

  private static Pod pod(String name) {
    return Pod.of(ObjectMeta.of("ns", name), PodSpec.builder().container("c", "img", ResourceList.EMPTY).build());
  }

  private static long used(ObjectStore store) {
    return store.require(ResourceQuota.class, "ns", "pods").status().used().pods();
  }

  @Test
  void podStuckTerminating_freedOncePastItsDeletionTimestampPlusGrace_recountedThen() {
    io.fleetkit.api.time.ManualClock manual = io.fleetkit.api.time.ManualClock.atEpoch2026();
    QuotaLedger ledger = QuotaLedger.publishingEveryCharge();
    try (ObjectStore store = ObjectStore.builder().directDelivery().clock(manual.asClock())
        .admission(AdmissionChain.of(new ResourceQuotaPlugin(manual.asClock(), ledger))).build();
        QuotaReplenisher replenisher = QuotaReplenisher.watch(store, manual.asClock(), ledger)) {
      store.create(ResourceQuota.of("ns", "pods", ResourceList.builder().put("pods", "1").build()));
      Pod lost = pod("lost");
      store.create(lost.withSpec(lost.spec().withNodeName("gone-node")));
      store.delete(Pod.class, "ns", "lost"); // marked: deletionTimestamp now + 30 s, grace 30 s; no kubelet ends it
      assertThat(replenisher.sync()).isZero();
      assertThat(used(store)).isEqualTo(1);

      manual.advance(java.time.Duration.ofSeconds(60)); // QuotaV1Pod: not past deletionTimestamp + grace yet
      replenisher.sync();
      assertThat(used(store)).isEqualTo(1);
      assertThatThrownBy(() -> store.create(pod("next"))).isInstanceOf(AdmissionDeniedException.class);

      manual.advance(java.time.Duration.ofSeconds(1));
      replenisher.sync();
      assertThat(used(store)).as("stuck terminating: no longer charged").isZero();
      store.create(pod("next"));
    }
  }

  @Test
  void withoutTheLedger_theRecountWrittenToTheStatus_isAdoptedByAdmission() {
    QuotaLedger ledger = QuotaLedger.publishingEvery(java.time.Duration.ofHours(1));
    try (ObjectStore store = ObjectStore.builder().directDelivery()
        .admission(AdmissionChain.of(new ResourceQuotaPlugin(clock, ledger))).build();
        QuotaReplenisher replenisher = QuotaReplenisher.watch(store, clock)) {
      store.create(ResourceQuota.of("ns", "pods", ResourceList.builder().put("pods", "2").build()));
      store.create(pod("a"));
      store.create(pod("b"));
      assertThat(used(store)).isZero(); // charged on the ledger, not published yet
      store.delete(Pod.class, "ns", "a");
      assertThat(replenisher.sync()).isEqualTo(1);
      assertThat(used(store)).isEqualTo(1);
      store.create(pod("c")); // fits only because admission took the recount
      assertThatThrownBy(() -> store.create(pod("d"))).isInstanceOf(AdmissionDeniedException.class);
      assertThat(ledger.publish()).isEqualTo(1);
      assertThat(used(store)).isEqualTo(2);
    }
  }

  @Test
  void sync_afterADeletionAndATerminalPod_recountsSoThatCreatesFitAgain() {
    QuotaLedger ledger = QuotaLedger.publishingEveryCharge();
    try (ObjectStore store = ObjectStore.builder().directDelivery()
        .admission(AdmissionChain.of(new ResourceQuotaPlugin(clock, ledger))).build();
        QuotaReplenisher replenisher = QuotaReplenisher.watch(store, clock, ledger)) {
      store.create(ResourceQuota.of("ns", "pods", ResourceList.builder().put("pods", "2").build()));
      store.create(pod("a"));
      Pod b = store.create(pod("b"));
      assertThatThrownBy(() -> store.create(pod("c"))).isInstanceOf(AdmissionDeniedException.class);
      assertThat(replenisher.sync()).isZero(); // nothing deleted yet

      store.delete(Pod.class, "ns", "a");
      assertThat(used(store)).isEqualTo(2); // admission only adds
      assertThat(replenisher.sync()).isEqualTo(1);
      assertThat(used(store)).isEqualTo(1);
      store.create(pod("c"));

      store.updateStatus(b.withStatus(b.status().withPhase(PodPhase.Succeeded)));
      assertThat(replenisher.sync()).isEqualTo(1);
      assertThat(used(store)).isEqualTo(1); // c only: a terminal pod is not charged "pods"
      assertThat(replenisher.sync()).isZero();
    }
  }
}
