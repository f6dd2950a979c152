package io.fleetkit.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.ConcurrentCreates;
import io.fleetkit.api.admission.QuotaAssertions;
import io.fleetkit.api.admission.AdmissionDeniedException;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Under concurrent creates from several threads a quota is never exceeded, and its recorded usage equals the usage
 * of the pods actually stored once published: all quotas of a namespace are charged in one critical section of the
 * ledger, and a charge whose create fails is refunded.
 */
final class QuotaConcurrencyPropertyTest {

  @Property(tries = 25)
  void concurrentCreates_neverExceedTheQuota_andUsageMatchesStoredPods(
      @ForAll @IntRange(min = 2, max = 6) int threads,
      @ForAll @IntRange(min = 1, max = 8) int hardPods,
      @ForAll @IntRange(min = 100, max = 3000) int hardMilliCpu,
      @ForAll @Size(min = 4, max = 40) List<@IntRange(min = 1, max = 700) Integer> podMilliCpu) throws Exception {
    AdmissionChain chain = Admission.standard();
    try (ObjectStore store = ObjectStore.builder().admission(chain).build()) {
      store.create(Namespace.of("team"));
      store.create(ResourceQuota.of("team", "compute", ResourceList.builder().put("pods", String.valueOf(hardPods))
          .put("requests.cpu", hardMilliCpu + "m").build()));
      List<Pod> pods = new ArrayList<>();
      for (int i = 0; i < podMilliCpu.size(); i++) {
        pods.add(pod("p-" + i, podMilliCpu.get(i)));
      }
      int denied = ConcurrentCreates.run(threads, pods, (i, pod) -> store.create(pod),
          e -> assertThat(e.rule()).startsWith("exceeded quota: compute, requested: "));
      QuotaLedger.of(chain).orElseThrow().publish();

      List<Pod> stored = QuotaAssertions.assertWithinQuotaAndCounted(store, "team", "compute");
      assertThat(stored.size() + denied).isEqualTo(podMilliCpu.size());
    }
  }

  static Pod pod(String name, int milliCpu) {
    // Every pod requests cpu: the quota tracks requests.cpu, so a container without one would be refused.
    ResourceList requests = ResourceList.builder().put("cpu", milliCpu + "m").build();
    return Pod.of(ObjectMeta.of("team", name), PodSpec.builder().container(Container.of("c", "img", requests))
        .build());
  }
}
