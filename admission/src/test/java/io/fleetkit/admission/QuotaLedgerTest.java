package io.fleetkit.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.AdmissionDeniedException;
import io.fleetkit.api.admission.AdmissionRequest;
import io.fleetkit.api.admission.AdmissionVerdict;
import io.fleetkit.api.admission.ValidatingAdmissionPlugin;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.ResourceQuotaSpec;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What charging a {@link QuotaLedger} implies: lagging publication, staying current with the stored quotas. */
final class QuotaLedgerTest {
  static final Clock CLOCK = ResourceQuotaPluginTest.CLOCK;

  final QuotaLedger ledger = QuotaLedger.publishingEvery(Duration.ofHours(1));
  final ObjectStore store = ObjectStore.builder().directDelivery()
      .admission(AdmissionChain.of(new ResourceQuotaPlugin(CLOCK, ledger))).build();

  @AfterEach
  void close() {
    store.close();
  }

  static Pod pod(String name, String cpu) {
    return ResourceQuotaPluginTest.pod(name, 1, ResourceQuotaPluginTest.kv("cpu", cpu), ResourceList.EMPTY);
  }

  ResourceList used(String name) {
    return store.require(ResourceQuota.class, "test", name).status().used();
  }

  void quota(String name, String... hard) {
    store.create(ResourceQuota.of("test", name, ResourceQuotaPluginTest.kv(hard)));
  }

  @Test
  void charges_areDecidedOnTheLedger_andReachTheStatusWhenPublished() {
    quota("compute", "pods", "2", "requests.cpu", "1");
    quota("count", "pods", "5");
    store.create(pod("a", "400m"));
    store.create(pod("b", "400m"));
    assertThat(used("compute")).isEqualTo(ResourceQuotaPluginTest.kv("pods", "0", "requests.cpu", "0"));

    assertThatThrownBy(() -> store.create(pod("c", "100m"))).isInstanceOfSatisfying(AdmissionDeniedException.class,
        e -> assertThat(e.rule()).isEqualTo("exceeded quota: compute, requested: pods=1, used: pods=2, limited:"
            + " pods=2"));
    assertThat(store.get(Pod.class, "test", "c")).isEmpty();

    assertThat(ledger.publish()).isEqualTo(2);
    assertThat(used("compute")).isEqualTo(ResourceQuotaPluginTest.kv("pods", "2", "requests.cpu", "800m"));
    assertThat(used("count")).isEqualTo(ResourceQuotaPluginTest.kv("pods", "2"));
    assertThat(ledger.publish()).isZero(); // nothing charged since
  }

  @Test
  void aLaterDenial_refundsTheLedger() {
    quota("compute", "pods", "1");
    ValidatingAdmissionPlugin denyAll = new ValidatingAdmissionPlugin() {
      @Override
      public String name() {
        return "DenyAll";
      }

      @Override
      public AdmissionVerdict validate(AdmissionRequest request, ObjectStore s) {
        return request.object().metadata().name().equals("refused") ? AdmissionVerdict.deny("metadata.name", "no")
            : AdmissionVerdict.allow();
      }
    };
    QuotaLedger l = QuotaLedger.publishingEveryCharge();
    try (ObjectStore s = ObjectStore.builder().directDelivery()
        .admission(AdmissionChain.of(new ResourceQuotaPlugin(CLOCK, l), denyAll)).build()) {
      s.create(ResourceQuota.of("test", "compute", ResourceQuotaPluginTest.kv("pods", "1")));
      assertThatThrownBy(() -> s.create(pod("refused", "1"))).isInstanceOf(AdmissionDeniedException.class);
      s.create(pod("accepted", "1")); // the refused create's charge was given back
      assertThat(s.require(ResourceQuota.class, "test", "compute").status().used())
          .isEqualTo(ResourceQuotaPluginTest.kv("pods", "1"));
    }
  }

  @Test
  void aRecountWrittenByTheController_isAdopted() {
    quota("compute", "pods", "2");
    store.create(pod("a", "1"));
    store.create(pod("b", "1"));
    ledger.publish();
    store.delete(Pod.class, "test", "a");

    QuotaRecount.recountAll(store, "test", CLOCK.instant()); // status: 1 pod, written by someone else
    store.create(pod("c", "1")); // fits only if the ledger took the recount
    ledger.publish();

    assertThat(used("compute")).isEqualTo(ResourceQuotaPluginTest.kv("pods", "2"));
  }

  @Test
  void aReplenisherWithTheLedger_recountsThroughIt_andPublishes() {
    quota("compute", "pods", "2");
    try (QuotaReplenisher r = QuotaReplenisher.watch(store, CLOCK, ledger)) {
      store.create(pod("a", "1"));
      store.create(pod("b", "1"));
      assertThat(r.sync()).isEqualTo(1); // publishes the two charges
      assertThat(used("compute")).isEqualTo(ResourceQuotaPluginTest.kv("pods", "2"));
      store.delete(Pod.class, "test", "a");
      r.sync();
      assertThat(used("compute")).isEqualTo(ResourceQuotaPluginTest.kv("pods", "1"));
      store.create(pod("c", "1"));
      assertThatThrownBy(() -> store.create(pod("d", "1"))).isInstanceOf(AdmissionDeniedException.class);
    }
  }

  @Test
  void aLoweredHardLimit_isRecountedAndEnforced_andAMetadataChangeKeepsUnpublishedCharges() {
    quota("compute", "pods", "5");
    store.create(pod("a", "1"));
    store.create(pod("b", "1"));
    ResourceQuota q = store.require(ResourceQuota.class, "test", "compute");
    q = store.update(q.withMetadata(q.metadata().toBuilder().labels(java.util.Map.of("team", "a")).build()));
    store.create(pod("c", "1")); // the label change kept the two unpublished charges: 3 used
    ledger.publish();
    assertThat(used("compute")).isEqualTo(ResourceQuotaPluginTest.kv("pods", "3"));

    q = store.require(ResourceQuota.class, "test", "compute");
    store.update(q.withSpec(ResourceQuotaSpec.of(ResourceQuotaPluginTest.kv("pods", "3"))));
    assertThatThrownBy(() -> store.create(pod("d", "1"))).isInstanceOfSatisfying(AdmissionDeniedException.class,
        e -> assertThat(e.rule()).isEqualTo("exceeded quota: compute, requested: pods=1, used: pods=3, limited:"
            + " pods=3"));
  }

  @Test
  void aQuotaDeletedAndCreatedAgain_startsFromTheStore() {
    quota("compute", "pods", "1");
    store.create(pod("a", "1"));
    store.delete(ResourceQuota.class, "test", "compute");
    store.delete(Pod.class, "test", "a");
    quota("compute", "pods", "1");
    store.create(pod("b", "1"));
    ledger.publish();
    assertThat(used("compute")).isEqualTo(ResourceQuotaPluginTest.kv("pods", "1"));
  }

  @Test
  void oneLedger_keepsTheBooksOfEachStoreApart() {
    quota("compute", "pods", "1");
    store.create(pod("a", "1"));
    try (ObjectStore other = ObjectStore.builder().directDelivery()
        .admission(AdmissionChain.of(new ResourceQuotaPlugin(CLOCK, ledger))).build()) {
      other.create(ResourceQuota.of("test", "compute", ResourceQuotaPluginTest.kv("pods", "1")));
      other.create(pod("a", "1")); // the other store's quota is empty
      assertThatThrownBy(() -> other.create(pod("b", "1"))).isInstanceOf(AdmissionDeniedException.class);
      assertThat(ledger.publish()).isEqualTo(2);
      assertThat(other.require(ResourceQuota.class, "test", "compute").status().used())
          .isEqualTo(ResourceQuotaPluginTest.kv("pods", "1"));
    }
  }

  @Test
  void aNegativeInterval_isRefused() {
    assertThatThrownBy(() -> QuotaLedger.publishingEvery(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("publish interval");
    assertThat(QuotaLedger.publishingEveryCharge().publishInterval()).isEqualTo(Duration.ZERO);
    assertThat(new ResourceQuotaPlugin(CLOCK, ledger).ledger()).isSameAs(ledger);
    assertThat(new ResourceQuotaPlugin(CLOCK).ledger().publishInterval())
        .isEqualTo(QuotaLedger.DEFAULT_PUBLISH_INTERVAL);
    AdmissionChain chain = Admission.standard(CLOCK, ledger);
    assertThat(QuotaLedger.of(chain)).containsSame(ledger);
    assertThat(QuotaLedger.of(AdmissionChain.of(new PriorityPlugin()))).isEmpty();
  }
}
