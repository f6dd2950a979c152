package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.queueing.AdmissionCheck;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.ClusterQueuePreemption;
import io.fleetkit.queueing.Cohort;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which ClusterQueues' {@link CqState#allocatableGeneration} (Kueue's {@code AllocatableResourceGeneration}) advance on
 * ClusterQueue, Cohort, flavor and admission check events. Ported from kueue {@code
 * pkg/cache/scheduler/cache_test.go} TestCacheClusterQueueOperations (commit ff69552e): 16 of the 17 cases that assert
 * {@code AllocatableResourceGeneration}, with their {@code Status} (active or pending) and cohort members as secondary
 * assertions; "add cluster queue after finished workloads" is left out (it lists the workloads of a ClusterQueue added
 * after them, a controller restart the engine has no counterpart of). Plus kueue {@code
 * pkg/cache/scheduler/clusterqueue_test.go} TestClusterQueueUpdate "RGs not change" and "RGs changed".
 */
final class KueueAllocatableGenerationPortTest {
  private static final Set<String> ALL = Set.of("a", "b", "c", "d", "e", "f");

  /** Kueue's {@code initialClusterQueues}. */
  private static List<ClusterQueue> initialQueues() {
    return List.of(
        ClusterQueue.builder("a").cohort("one")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "10", "10"))).build(),
        ClusterQueue.builder("b").cohort("one")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "15"))).build(),
        ClusterQueue.builder("c").cohort("two").build(),
        ClusterQueue.builder("d").build(),
        ClusterQueue.builder("e").cohort("two")
            .resourceGroup(FlavorQuotas.of("nonexistent-flavor", FlavorResourceQuota.of("cpu", "15"))).build(),
        ClusterQueue.builder("f").cohort("two").build());
  }

  private static void setup(QueueScheduler s) {
    s.addResourceFlavor(ResourceFlavor.of("default"));
    initialQueues().forEach(s::putClusterQueue);
  }

  /**
   * One case: the operation, then per ClusterQueue its generation, the queues that are pending (inactive), and per
   * cohort its member queues.
   */
  record Case(String name, Consumer<QueueScheduler> operation, Map<String, Integer> generations, Set<String> pending,
      Map<String, Set<String>> cohorts) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    List<Case> cases = new ArrayList<>();
    cases.add(new Case("add", KueueAllocatableGenerationPortTest::setup,
        Map.of("a", 2, "b", 1, "c", 3, "d", 1, "e", 2, "f", 1), Set.of("e"),
        Map.of("one", Set.of("a", "b"), "two", Set.of("c", "e", "f"))));
    cases.add(new Case("add ClusterQueue with preemption policies",
        s -> s.putClusterQueue(ClusterQueue.builder("foo").preemption(
            ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.LOWER_PRIORITY))
            .build()),
        Map.of("foo", 1), Set.of(), Map.of()));
    cases.add(new Case("add ClusterQueue with fair sharing weight",
        s -> s.putClusterQueue(ClusterQueue.builder("foo").fairSharingWeight(Quantity.parse("2")).build()),
        Map.of("foo", 1), Set.of(), Map.of()));
    cases.add(new Case("add flavors after queue capacities", s -> {
      initialQueues().forEach(s::putClusterQueue);
      s.addResourceFlavor(ResourceFlavor.of("default"));
    }, Map.of("a", 2, "b", 1, "c", 3, "d", 1, "e", 2, "f", 1), Set.of("e"),
        Map.of("one", Set.of("a", "b"), "two", Set.of("c", "e", "f"))));
    // Kueue's case then updates flavor "default"'s node labels; the engine's flavors are added once, and Kueue's
    // flavor update advances no generation (UpdateWithFlavors), so that step is left out
    cases.add(new Case("update", s -> {
      setup(s);
      s.putClusterQueue(ClusterQueue.builder("a").cohort("two")
          .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "5", "5"))).build());
      s.putClusterQueue(ClusterQueue.builder("b").cohort("one").build());
      s.putClusterQueue(ClusterQueue.builder("e").cohort("two")
          .resourceGroup(FlavorQuotas.of("default", new FlavorResourceQuota("cpu", Quantity.parse("5"),
              Quantity.parse("5"), Quantity.parse("4")))).build());
    }, Map.of("a", 4, "b", 3, "c", 5, "d", 1, "e", 4, "f", 3), Set.of(),
        Map.of("one", Set.of("b"), "two", Set.of("a", "c", "e", "f"))));
    cases.add(new Case("shouldn't delete usage resources on update ClusterQueue", s -> {
      s.addResourceFlavor(ResourceFlavor.of("default"));
      s.putClusterQueue(ClusterQueue.builder("a").cohort("one")
          .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "10", "10"))).build());
      s.assumeAdmitted(Workload.builder("default", "one").queueName("lq").creationTime(KueueHarness.NOW)
          .request("cpu", "5").build(), "a", Map.of("cpu", "default"), KueueHarness.NOW);
      // Kueue's update leaves flavor "default" with no resources, which validation refuses (coveredResources
      // required); a zero nominal quota is the same change of quotas
      s.putClusterQueue(ClusterQueue.builder("a").cohort("one")
          .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "0"))).build());
    }, Map.of("a", 2), Set.of(), Map.of("one", Set.of("a"))));
    cases.add(new Case("implicit Cohorts created and deleted", s -> {
      setup(s);
      s.putClusterQueue(ClusterQueue.builder("a").cohort("three").build());
      s.putClusterQueue(ClusterQueue.builder("b").build());
      s.putClusterQueue(ClusterQueue.builder("c").cohort("three").build());
      s.removeClusterQueue("d");
      s.removeClusterQueue("e");
      s.removeClusterQueue("f");
    }, Map.of("a", 4, "b", 3, "c", 4), Set.of(), Map.of("three", Set.of("a", "c"))));
    cases.add(new Case("delete", s -> {
      setup(s);
      s.removeClusterQueue("a");
      s.removeClusterQueue("d");
    }, Map.of("b", 2, "c", 3, "e", 2, "f", 1), Set.of("e"),
        Map.of("one", Set.of("b"), "two", Set.of("c", "e", "f"))));
    cases.add(new Case("add resource flavors", s -> {
      setup(s);
      s.addResourceFlavor(ResourceFlavor.of("nonexistent-flavor"));
    }, Map.of("a", 2, "b", 1, "c", 3, "d", 1, "e", 2, "f", 1), Set.of(),
        Map.of("one", Set.of("a", "b"), "two", Set.of("c", "e", "f"))));
    cases.add(new Case("Add ClusterQueue with multiple resource groups",
        s -> s.putClusterQueue(ClusterQueue.builder("foo")
            .resourceGroup(FlavorQuotas.of("foo", FlavorResourceQuota.of("cpu", "0"),
                FlavorResourceQuota.of("memory", "0")),
                FlavorQuotas.of("bar", FlavorResourceQuota.of("cpu", "0"), FlavorResourceQuota.of("memory", "0")))
            .resourceGroup(FlavorQuotas.of("theta", FlavorResourceQuota.of("example.com/gpu", "0")),
                FlavorQuotas.of("gamma", FlavorResourceQuota.of("example.com/gpu", "0")))
            .build()),
        Map.of("foo", 1), Set.of("foo"), Map.of()));
    cases.add(new Case("add cluster queue with missing check",
        s -> s.putClusterQueue(ClusterQueue.builder("foo").admissionChecks("check1", "check2").build()),
        Map.of("foo", 1), Set.of("foo"), Map.of()));
    cases.add(new Case("add check after queue creation", s -> {
      s.putClusterQueue(ClusterQueue.builder("foo").admissionChecks("check1", "check2").build());
      s.putAdmissionCheck(AdmissionCheck.of("check1", "controller"));
      s.putAdmissionCheck(AdmissionCheck.of("check2", "controller"));
    }, Map.of("foo", 1), Set.of(), Map.of()));
    cases.add(new Case("remove check after queue creation", s -> {
      s.putAdmissionCheck(AdmissionCheck.of("check1", "controller"));
      s.putAdmissionCheck(AdmissionCheck.of("check2", "controller"));
      s.putClusterQueue(ClusterQueue.builder("foo").admissionChecks("check1", "check2").build());
      s.removeAdmissionCheck("check2");
    }, Map.of("foo", 1), Set.of("foo"), Map.of()));
    cases.add(new Case("inactivate check after queue creation", s -> {
      s.putAdmissionCheck(AdmissionCheck.of("check1", "controller"));
      s.putAdmissionCheck(AdmissionCheck.of("check2", "controller"));
      s.putClusterQueue(ClusterQueue.builder("foo").admissionChecks("check1", "check2").build());
      s.putAdmissionCheck(AdmissionCheck.of("check2", "controller").withActive(false));
    }, Map.of("foo", 1), Set.of("foo"), Map.of()));
    // in cohort "lenders": validation refuses lending limits of a queue without a cohort (Kueue's webhook does too;
    // its cache test bypasses it)
    cases.add(new Case("add CQ with multiple resource groups and flavors",
        s -> s.putClusterQueue(ClusterQueue.builder("foo").cohort("lenders")
            .resourceGroup(
                FlavorQuotas.of("on-demand", lending("cpu", "10", "8"), lending("memory", "10Gi", "8Gi")),
                FlavorQuotas.of("spot", lending("cpu", "20", "20"), lending("memory", "20Gi", "20Gi")))
            .resourceGroup(FlavorQuotas.of("license", lending("license", "8", "4")))
            .build()),
        Map.of("foo", 1), Set.of("foo"), Map.of("lenders", Set.of("foo"))));
    cases.add(new Case("cohort remains after deletion when child exists", s -> {
      s.putCohort(Cohort.of("cohort", null));
      s.putClusterQueue(ClusterQueue.builder("cq").cohort("cohort").build());
      s.removeCohort("cohort");
    }, Map.of("cq", 2), Set.of(), Map.of("cohort", Set.of("cq"))));
    // clusterqueue_test.go TestClusterQueueUpdate: the queue is added, then updated with the same or other quotas; in
    // cohort "eng", as validation refuses borrowing limits of a queue without a cohort

    cases.add(new Case("RGs not change", s -> {
      s.addResourceFlavor(ResourceFlavor.of("on-demand"));
      s.addResourceFlavor(ResourceFlavor.of("spot"));
      s.putClusterQueue(engAlpha("50"));
      s.putClusterQueue(engAlpha("50"));
    }, Map.of("eng-alpha", 1), Set.of(), Map.of("eng", Set.of("eng-alpha"))));
    cases.add(new Case("RGs changed", s -> {
      s.addResourceFlavor(ResourceFlavor.of("on-demand"));
      s.addResourceFlavor(ResourceFlavor.of("spot"));
      s.putClusterQueue(engAlpha("50"));
      s.putClusterQueue(engAlpha("100"));
    }, Map.of("eng-alpha", 2), Set.of(), Map.of("eng", Set.of("eng-alpha"))));
    return cases.stream();
  }

  private static FlavorResourceQuota lending(String resource, String nominal, String lendingLimit) {
    return new FlavorResourceQuota(resource, Quantity.parse(nominal), null, Quantity.parse(lendingLimit));
  }

  /** Kueue's {@code eng-alpha}: on-demand {@code cpu} with the given nominal quota and borrowing limit 50, spot 100/0. */
  private static ClusterQueue engAlpha(String onDemandNominal) {
    return ClusterQueue.builder("eng-alpha").cohort("eng")
        .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.NEVER))
        .resourceGroup(FlavorQuotas.of("on-demand", FlavorResourceQuota.of("cpu", onDemandNominal, "50")),
            FlavorQuotas.of("spot", FlavorResourceQuota.of("cpu", "100", "0")))
        .build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void clusterQueueOperations_advanceTheGenerationsKueueDoes(Case tc) {
    QueueScheduler s = new KueueHarness(List.of(), List.of(), false).scheduler;

    tc.operation().accept(s);

    Map<String, Integer> generations = new TreeMap<>();
    Set<String> pending = new TreeSet<>();
    Map<String, Set<String>> cohorts = new TreeMap<>();
    for (String name : names(tc)) {
      CqState cq = s.queue(name);
      if (cq == null || cq.removed) {
        continue;
      }
      generations.put(name, (int) cq.allocatableGeneration);
      if (!cq.active()) {
        pending.add(name);
      }
      if (cq.cohort != null) {
        cohorts.computeIfAbsent(cq.cohort.name, k -> new TreeSet<>()).add(name);
      }
    }
    assertThat(generations).isEqualTo(new TreeMap<>(tc.generations()));
    assertThat(pending).isEqualTo(new TreeSet<>(tc.pending()));
    assertThat(cohorts).isEqualTo(new TreeMap<>(tc.cohorts()));
    if (tc.name().equals("shouldn't delete usage resources on update ClusterQueue")) {
      CqState a = s.queue("a");
      assertThat(a.usage[s.index().of("default", "cpu")]).as("the admitted workload keeps its usage").isEqualTo(5000);
    }
  }

  private static Set<String> names(Case tc) {
    Set<String> names = new TreeSet<>(ALL);
    names.addAll(tc.generations().keySet());
    names.addAll(List.of("foo", "cq", "eng-alpha"));
    return names;
  }
}
