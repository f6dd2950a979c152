package io.fleetkit.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.ConcurrentCreates;
import io.fleetkit.api.admission.QuotaAssertions;
import io.fleetkit.api.admission.AdmissionDeniedException;
import io.fleetkit.api.admission.AdmissionOperation;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ForwardingObjectStore;
import io.fleetkit.api.store.ObjectStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * Two processes admitting into one store, each with its own chain (so its own {@link QuotaLedger}): the store here is
 * one in-memory store seen by both through a view that says it is shared, as a store on etcd does
 * ({@code EtcdSharedQuotaTest} runs the same against a real etcd).
 */
final class SharedStoreQuotaTest {

  /** One admitting process: its own chain, the shared store, and what the store's create does around admission. */
  static final class Process {
    final AdmissionChain chain;
    final ObjectStore view;
    private final ObjectStore store;

    Process(ObjectStore store, boolean shared) {
      // A ledger that would publish only when asked: the case where in-memory charging cannot see the other's.
      this.chain = Admission.standard(Clock.systemUTC(), QuotaLedger.publishingEvery(Duration.ofDays(1)));
      this.store = store;
      this.view = new View(store, shared);
    }

    <T extends ApiObject<T>> T create(T object) {
      AdmissionChain.Admitted<T> a = chain.admit(AdmissionOperation.CREATE, object, null, view);
      try {
        return store.create(a.object());
      } catch (RuntimeException e) {
        a.rollback();
        throw e;
      }
    }
  }

  @Test
  void sharedStore_secondProcessSeesTheChargesOfTheFirst() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      seed(store, 3, 100_000);
      Process a = new Process(store, true);
      Process b = new Process(store, true);
      for (int i = 0; i < 3; i++) {
        a.create(QuotaConcurrencyPropertyTest.pod("a-" + i, 100));
      }
      assertThat(store.require(ResourceQuota.class, "team", "compute").status().used().pods()).isEqualTo(3);
      assertThatThrownBy(() -> b.create(QuotaConcurrencyPropertyTest.pod("b-0", 100)))
          .isInstanceOf(AdmissionDeniedException.class)
          .hasMessageContaining("exceeded quota: compute, requested: pods=1, used: pods=3, limited: pods=3");
      assertThat(store.list(Pod.class, "team").items()).hasSize(3);
    }
  }

  /** The gap the shared mode closes: two in-memory ledgers, each unaware of the other's charges, pass the limit. */
  @Test
  void processLocalLedgers_onOneStore_passTheLimitTogether() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      seed(store, 3, 100_000);
      Process a = new Process(store, false);
      Process b = new Process(store, false);
      a.create(QuotaConcurrencyPropertyTest.pod("a-0", 100)); // a's ledger counts the quota: 0 pods, status written
      b.create(QuotaConcurrencyPropertyTest.pod("b-0", 100)); // b's adopts that status: 0 pods
      for (int i = 1; i < 3; i++) {
        a.create(QuotaConcurrencyPropertyTest.pod("a-" + i, 100));
        b.create(QuotaConcurrencyPropertyTest.pod("b-" + i, 100));
      }
      assertThat(store.list(Pod.class, "team").items()).hasSize(6); // twice the limit of 3
    }
  }

  @Test
  void sharedStore_refusedLaterInTheChain_givesTheChargeBack() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      seed(store, 3, 100_000);
      Process a = new Process(store, true);
      a.create(QuotaConcurrencyPropertyTest.pod("a-0", 100));
      // The same name again: admitted and charged, then the store's create fails and the charge is given back.
      assertThatThrownBy(() -> a.create(QuotaConcurrencyPropertyTest.pod("a-0", 100)))
          .isInstanceOf(io.fleetkit.api.ConflictException.class);
      ResourceQuota q = store.require(ResourceQuota.class, "team", "compute");
      assertThat(q.status().used().pods()).isEqualTo(1);
      assertThat(q.status().used().get("requests.cpu").milliValue()).isEqualTo(100);
    }
  }

  @Property(tries = 15)
  void concurrentCreatesFromTwoProcesses_neverExceedTheQuota_andUsageMatchesStoredPods(
      @ForAll @IntRange(min = 2, max = 6) int threads,
      @ForAll @IntRange(min = 1, max = 8) int hardPods,
      @ForAll @IntRange(min = 100, max = 3000) int hardMilliCpu,
      @ForAll @Size(min = 4, max = 30) List<@IntRange(min = 1, max = 700) Integer> podMilliCpu) throws Exception {
    try (ObjectStore store = ObjectStore.builder().build()) {
      seed(store, hardPods, hardMilliCpu);
      Process[] processes = {new Process(store, true), new Process(store, true)};
      List<Pod> pods = new ArrayList<>();
      for (int i = 0; i < podMilliCpu.size(); i++) {
        pods.add(QuotaConcurrencyPropertyTest.pod("p-" + i, podMilliCpu.get(i)));
      }
      int denied = ConcurrentCreates.run(threads, pods, (i, pod) -> processes[i % 2].create(pod),
          e -> assertThat(e.rule()).startsWith("exceeded quota: compute, requested: "));

      // Nothing to publish: the status is the count.
      List<Pod> stored = QuotaAssertions.assertWithinQuotaAndCounted(store, "team", "compute");
      assertThat(stored.size() + denied).isEqualTo(podMilliCpu.size());
    }
  }

  private static void seed(ObjectStore store, int pods, int milliCpu) {
    store.create(Namespace.of("team"));
    store.create(ResourceQuota.of("team", "compute", ResourceList.builder().put("pods", String.valueOf(pods))
        .put("requests.cpu", milliCpu + "m").build()));
  }

  /** {@code store} as a process sharing it sees it: every call forwarded, {@code shared} as told. */
  static final class View extends ForwardingObjectStore {
    private final boolean shared;

    View(ObjectStore store, boolean shared) {
      super(store);
      this.shared = shared;
    }

    @Override
    public boolean sharedWithOtherProcesses() {
      return shared;
    }
  }
}
