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
import io.fleetkit.api.core.ResourceQuotaSpec;
import io.fleetkit.api.core.ScopeSelectorOperator;
import io.fleetkit.api.core.ScopedResourceSelectorRequirement;
import io.fleetkit.api.core.ResourceQuotaScope;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Ten quotas in one namespace, concurrent creates from several threads, for each way of publishing (the default
 * interval, after every charge, rarely): no quota is ever exceeded,
 * and after the ledger published, every quota's recorded usage equals the usage of the pods actually stored that it
 * applies to. Half the quotas are scoped to a priority class that only some pods have, so a create charges some
 * quotas and not others.
 */
final class TenQuotasConcurrencyPropertyTest {
  enum Publishing { DEFAULT, EVERY_CHARGE, RARELY }

  @Property(tries = 20)
  void tenQuotas_concurrentCreates_neverExceedAny_andUsageMatchesStoredPods(
      @ForAll Publishing publishing,
      @ForAll @IntRange(min = 2, max = 6) int threads,
      @ForAll @Size(value = 10) List<@IntRange(min = 1, max = 8) Integer> hardPods,
      @ForAll @Size(value = 10) List<@IntRange(min = 100, max = 3000) Integer> hardMilliCpu,
      @ForAll @Size(min = 4, max = 40) List<@IntRange(min = 1, max = 700) Integer> podMilliCpu) throws Exception {
    Clock clock = Clock.systemUTC();
    AdmissionChain chain = switch (publishing) {
      case DEFAULT -> Admission.standard(clock);
      case EVERY_CHARGE -> Admission.standard(clock, QuotaLedger.publishingEveryCharge());
      case RARELY -> Admission.standard(clock, QuotaLedger.publishingEvery(Duration.ofHours(1)));
    };
    QuotaLedger ledger = QuotaLedger.of(chain).orElseThrow();
    try (ObjectStore store = ObjectStore.builder().admission(chain).build()) {
      store.create(Namespace.of("team"));
      for (int i = 0; i < 10; i++) {
        ResourceList hard = ResourceList.builder().put("pods", String.valueOf(hardPods.get(i)))
            .put("requests.cpu", hardMilliCpu.get(i) + "m").build();
        List<ScopedResourceSelectorRequirement> scope = i % 2 == 0 ? List.of()
            : List.of(new ScopedResourceSelectorRequirement(ResourceQuotaScope.PriorityClass,
                ScopeSelectorOperator.In, List.of("system-cluster-critical")));
        store.create(new ResourceQuota(ObjectMeta.of("team", "q-" + i),
            new ResourceQuotaSpec(hard, List.of(), scope), io.fleetkit.api.core.ResourceQuotaStatus.EMPTY));
      }
      List<Pod> pods = new ArrayList<>();
      for (int i = 0; i < podMilliCpu.size(); i++) {
        pods.add(pod("p-" + i, podMilliCpu.get(i), i % 3 == 0));
      }
      int denied = ConcurrentCreates.run(threads, pods, (i, pod) -> store.create(pod),
          e -> assertThat(e.rule()).matches("exceeded quota: q-\\d, requested: .*, used: .*, limited: .*"));
      ledger.publish();

      List<Pod> stored = store.list(Pod.class, "team").items();
      assertThat(stored.size() + denied).isEqualTo(podMilliCpu.size());
      for (int i = 0; i < 10; i++) {
        boolean scoped = i % 2 == 1;
        QuotaAssertions.assertWithinQuotaAndCounted(store, "team", "q-" + i,
            p -> !scoped || p.spec().priorityClassName().equals("system-cluster-critical"));
      }
    }
  }

  static Pod pod(String name, int milliCpu, boolean critical) {
    ResourceList requests = ResourceList.builder().put("cpu", milliCpu + "m").build();
    PodSpec.Builder spec = PodSpec.builder().container(Container.of("c", "img", requests));
    if (critical) {
      spec.priorityClassName("system-cluster-critical");
    }
    return Pod.of(ObjectMeta.of("team", name), spec.build());
  }
}
