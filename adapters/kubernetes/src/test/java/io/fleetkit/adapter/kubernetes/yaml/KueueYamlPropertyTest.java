package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.queueing.BorrowWithinCohort;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.ClusterQueuePreemption;
import io.fleetkit.queueing.FlavorFungibility;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import io.fleetkit.queueing.QueueingStrategy;
import io.fleetkit.queueing.ResourceGroup;
import io.fleetkit.queueing.StopPolicy;
import io.fleetkit.queueing.manifest.ClusterQueueObject;
import io.fleetkit.queueing.manifest.KueueObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Invariant of the Kueue converters: any valid ClusterQueue, in either served version, written by {@link
 * KubernetesYaml#dump} loads back equal and without a warning (every field written is one the loader reads).
 */
final class KueueYamlPropertyTest {
  private static final List<String> RESOURCES = List.of("cpu", "memory", "nvidia.com/gpu", "pods");

  @Property(tries = 80)
  void dumpThenParse_anyValidClusterQueue_isEqualAndWarnsOfNothing(@ForAll("queues") ClusterQueueObject queue) {
    String yaml = KubernetesYaml.dump(List.of(queue));
    LoadedObjects back = KubernetesYaml.parse(yaml, "cq.yaml");

    assertThat(back.objects()).as(yaml).containsExactly((ApiObject<?>) queue);
    assertThat(back.warnings()).as(yaml).isEmpty();
  }

  /** A group per slice of the resources, each with 1 to 3 flavors named after the group. */
  private static Arbitrary<List<ResourceGroup>> groups(boolean cohort) {
    Arbitrary<Integer> amount = Arbitraries.integers().between(0, 64);
    return Arbitraries.integers().between(1, 3).flatMap(groupCount -> amount.list().ofSize(48).map(amounts -> {
      List<ResourceGroup> out = new ArrayList<>();
      int next = 0;
      for (int g = 0; g < groupCount; g++) {
        List<String> covered = g == groupCount - 1 ? RESOURCES.subList(g, RESOURCES.size()) : List.of(RESOURCES.get(g));
        List<FlavorQuotas> flavors = new ArrayList<>();
        int flavorCount = 1 + amounts.get(next++) % 3;
        for (int f = 0; f < flavorCount; f++) {
          List<FlavorResourceQuota> quotas = new ArrayList<>();
          for (String r : covered) {
            int nominal = amounts.get(next++ % amounts.size());
            int limit = amounts.get(next++ % amounts.size());
            quotas.add(new FlavorResourceQuota(r, Quantity.of(nominal),
                cohort && limit % 2 == 0 ? Quantity.of(limit) : null,
                cohort && limit % 3 == 0 ? Quantity.of(Math.min(limit, nominal)) : null));
          }
          flavors.add(new FlavorQuotas("g" + g + "-f" + f, quotas));
        }
        out.add(new ResourceGroup(covered, flavors));
      }
      return out;
    }));
  }

  @Provide
  Arbitrary<ClusterQueueObject> queues() {
    Arbitrary<Boolean> cohort = Arbitraries.of(true, false);
    return cohort.flatMap(inCohort -> Combinators.combine(
        groups(inCohort),
        Arbitraries.of(KueueObject.V1BETA1, KueueObject.V1BETA2),
        Arbitraries.of(QueueingStrategy.values()),
        Arbitraries.of(QueuePreemptionPolicy.NEVER, QueuePreemptionPolicy.LOWER_PRIORITY,
            QueuePreemptionPolicy.LOWER_OR_NEWER_EQUAL_PRIORITY),
        Arbitraries.of(QueuePreemptionPolicy.NEVER, QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.ANY),
        Arbitraries.integers().between(-1, 1000),
        Arbitraries.of(StopPolicy.values()),
        Arbitraries.of(LabelSelector.EVERYTHING, ClusterQueueObject.NO_NAMESPACE, LabelSelector.of(Map.of("team", "a"))))
        .as((groups, version, strategy, within, reclaim, threshold, stop, selector) -> {
          ClusterQueue.Builder b = ClusterQueue.builder("cq").queueingStrategy(strategy).stopPolicy(stop)
              .namespaceSelector(selector)
              .preemption(new ClusterQueuePreemption(within, reclaim, reclaim == QueuePreemptionPolicy.NEVER
                  ? BorrowWithinCohort.NEVER : BorrowWithinCohort.lowerPriority(threshold < 0 ? null : threshold)))
              .flavorFungibility(threshold % 2 == 0 ? FlavorFungibility.DEFAULT
                  : FlavorFungibility.tryEveryFlavor(FlavorFungibility.Preference.PREEMPTION_OVER_BORROWING))
              .fairSharingWeight(Quantity.parse(threshold % 5 == 0 ? "1" : "250m"));
          if (inCohort) {
            b.cohort("lab");
          }
          groups.forEach(b::resourceGroup);
          if (version.equals(KueueObject.V1BETA1) && threshold % 7 == 0) {
            b.admissionChecks("check-a");
          }
          return new ClusterQueueObject(version, ObjectMeta.of("cq"), b.build());
        }));
  }
}
