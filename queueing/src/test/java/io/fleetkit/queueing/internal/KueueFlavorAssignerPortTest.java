package io.fleetkit.queueing.internal;

import static io.fleetkit.queueing.internal.KueueHarness.wl;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.queueing.BorrowWithinCohort;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.ClusterQueuePreemption;
import io.fleetkit.queueing.FlavorFungibility;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import io.fleetkit.queueing.Workload;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/scheduler/flavorassigner/flavorassigner_test.go}, {@code
 * TestAssignFlavors}: the same ClusterQueue, usage (set up as an admitted workload) and pod set; the same
 * representative mode, flavor per resource, borrowing and status reasons (and, in the later ports, the usage and
 * which flavor-resources need preemption, with Kueue's test oracle). 41 of the 60 cases at kueue commit ff69552e are
 * ported here, 12 of them on Kueue's implicit {@code pods} resource (upstream's pod set requests, which carry {@code
 * pods} too, are checked as the assignment's {@code resourceUsage}); {@link KueueFlavorConstraintsPortTest} has 12
 * more (53 in all); docs/conformance.md lists the others and why (pod set groups, reclaimable pods, workload slices,
 * topology). Flavor names {@code b_one} and {@code b_two} become {@code b-one} and {@code b-two}: ResourceFlavor names
 * must be DNS subdomains.
 */
final class KueueFlavorAssignerPortTest {
  private static final List<String> FLAVORS = List.of("default", "one", "two", "b-one", "b-two");

  private static KueueHarness h(ClusterQueue... queues) {
    return new KueueHarness(FLAVORS, List.of(queues), false);
  }

  private static Assignment assign(KueueHarness h, Workload wl, String cq) {
    return h.scheduler.assigner().assign(wl, h.scheduler.queue(cq));
  }

  private static String flavor(Assignment a, int podSet, String resource) {
    return a.podSets().get(podSet).flavors().get(resource);
  }

  /**
   * Upstream's {@code TriedFlavorIdx} of every resource of pod set {@code podSet} that got a flavor: {@code
   * resourceIdx} holds resource, index pairs ({@code -1}: the search reached the group's last flavor).
   */
  private static void assertTried(Assignment a, int podSet, Object... resourceIdx) {
    Map<String, Integer> want = new java.util.LinkedHashMap<>();
    for (int i = 0; i < resourceIdx.length; i += 2) {
      want.put((String) resourceIdx[i], (Integer) resourceIdx[i + 1]);
    }
    assertThat(a.lastTriedFlavorIdx().get(podSet)).as("TriedFlavorIdx of pod set %d", podSet)
        .containsExactlyInAnyOrderEntriesOf(want);
  }

  @Test
  void singleFlavorFits() {
    KueueHarness h = h(ClusterQueue.builder("test-clusterqueue")
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "1"), FlavorResourceQuota.of("memory", "2Mi")))
        .build());
    Assignment a = assign(h, wl("wl", 0, "cpu", "1", "memory", "1Mi"), "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    assertThat(a.podSets().get(0).flavors())
        .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", "default", "memory", "default"));
    assertThat(a.borrows()).isFalse();
    assertTried(a, 0, "cpu", -1, "memory", -1);
  }

  @Test
  void singleFlavorUsedResourcesDoesntFit() {
    KueueHarness h = h(ClusterQueue.builder("test-clusterqueue")
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "4"))).build());
    h.admit(wl("usage", 0, "cpu", "3"), "test-clusterqueue", "cpu", "default");
    Assignment a = assign(h, wl("wl", 0, "cpu", "2"), "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.PREEMPT);
    assertThat(flavor(a, 0, "cpu")).isEqualTo("default");
    assertThat(a.message()).contains("insufficient unused quota for cpu in flavor default, 1 more needed");
    assertTried(a, 0, "cpu", -1);
  }

  @Test
  void multipleResourceGroupsFits() {
    KueueHarness h = h(ClusterQueue.builder("test-clusterqueue")
        .resourceGroup(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "2")),
            FlavorQuotas.of("two", FlavorResourceQuota.of("cpu", "4")))
        .resourceGroup(FlavorQuotas.of("b-one", FlavorResourceQuota.of("memory", "1Gi")),
            FlavorQuotas.of("b-two", FlavorResourceQuota.of("memory", "5Gi")))
        .build());
    Assignment a = assign(h, wl("wl", 0, "cpu", "3", "memory", "10Mi"), "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    assertThat(a.podSets().get(0).flavors())
        .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", "two", "memory", "b-one"));
    assertTried(a, 0, "cpu", -1, "memory", 0);
  }

  @Test
  void multipleResourceGroupsWithMultipleResourcesFits() {
    KueueHarness h = h(ClusterQueue.builder("test-clusterqueue")
        .resourceGroup(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "2"), FlavorResourceQuota.of("memory", "1Gi")),
            FlavorQuotas.of("two", FlavorResourceQuota.of("cpu", "4"), FlavorResourceQuota.of("memory", "15Mi")))
        .resourceGroup(FlavorQuotas.of("b-one", FlavorResourceQuota.of("example.com/gpu", "4")),
            FlavorQuotas.of("b-two", FlavorResourceQuota.of("example.com/gpu", "2")))
        .build());
    Assignment a = assign(h, wl("wl", 0, "cpu", "3", "memory", "10Mi", "example.com/gpu", "3"), "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    assertThat(a.podSets().get(0).flavors())
        .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", "two", "memory", "two", "example.com/gpu", "b-one"));
    assertTried(a, 0, "cpu", -1, "memory", -1, "example.com/gpu", 0);
  }

  @Test
  void multipleResourceGroupsWithMultipleResourcesFitsWithDifferentModes() {
    KueueHarness h = h(
        ClusterQueue.builder("test-clusterqueue").cohort("test-cohort")
            .resourceGroup(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "2"), FlavorResourceQuota.of("memory", "1Gi")),
                FlavorQuotas.of("two", FlavorResourceQuota.of("cpu", "4"), FlavorResourceQuota.of("memory", "15Mi")))
            .resourceGroup(FlavorQuotas.of("b-one", FlavorResourceQuota.of("example.com/gpu", "4")))
            .build(),
        ClusterQueue.builder("test-secondary-clusterqueue").cohort("test-cohort")
            .resourceGroup(FlavorQuotas.of("b-one", FlavorResourceQuota.of("example.com/gpu", "0")))
            .build());
    h.admit(wl("usage", 0, "memory", "10Mi"), "test-clusterqueue", "memory", "two");
    h.admit(wl("secondary-usage", 0, "example.com/gpu", "2"), "test-secondary-clusterqueue",
        "example.com/gpu", "b-one");
    Assignment a = assign(h, wl("wl", 0, "cpu", "3", "memory", "10Mi", "example.com/gpu", "3"), "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.PREEMPT);
    assertThat(a.borrows()).isTrue();
    assertThat(a.podSets().get(0).flavors())
        .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", "two", "memory", "two", "example.com/gpu", "b-one"));
    assertTried(a, 0, "cpu", -1, "memory", -1, "example.com/gpu", -1);
    FlavorResources idx = h.scheduler.index();
    assertThat(a.needPreemption()[idx.of("two", "cpu")]).isFalse();
    assertThat(a.needPreemption()[idx.of("two", "memory")]).isTrue();
    assertThat(a.needPreemption()[idx.of("b-one", "example.com/gpu")]).isTrue();
    assertThat(a.message()).contains(
        "insufficient quota for cpu in flavor one, previously considered podsets requests (0) + current podset "
            + "request (3) > maximum capacity (2)",
        "insufficient unused quota for memory in flavor two, 5Mi more needed",
        "insufficient unused quota for example.com/gpu in flavor b-one, 1 more needed");
  }

  @Test
  void multipleResourcesInAGroupDoesntFit() {
    KueueHarness h = h(ClusterQueue.builder("test-clusterqueue")
        .resourceGroup(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "2"), FlavorResourceQuota.of("memory", "1Gi")),
            FlavorQuotas.of("two", FlavorResourceQuota.of("cpu", "4"), FlavorResourceQuota.of("memory", "5Mi")))
        .build());
    Assignment a = assign(h, wl("wl", 0, "cpu", "3", "memory", "10Mi"), "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.NO_FIT);
    assertThat(a.message()).contains(
        "insufficient quota for cpu in flavor one, previously considered podsets requests (0) + current podset "
            + "request (3) > maximum capacity (2)",
        "insufficient quota for memory in flavor two, previously considered podsets requests (0) + current "
            + "podset request (10Mi) > maximum capacity (5Mi)");
  }

  private static KueueHarness hFair(ClusterQueue... queues) {
    return new KueueHarness(FLAVORS, List.of(queues), true);
  }

  /**
   * Assigns with Kueue's test oracle: preemption is possible in every flavor-resource except those named in {@code
   * noCandidates} (flavor, resource pairs), where the oracle finds no candidates.
   */
  private static Assignment assignWithOracle(
      KueueHarness h, boolean fairSharing, Workload wl, String cq, String... noCandidates) {
    FlavorResources idx = h.scheduler.index();
    Set<Integer> none = new HashSet<>();
    for (int i = 0; i < noCandidates.length; i += 2) {
      none.add(idx.of(noCandidates[i], noCandidates[i + 1]));
    }
    FlavorAssigner assigner = new FlavorAssigner(idx, Map.of(), fairSharing,
        (w, q, fr, v) -> new FlavorAssigner.Simulation(
            none.contains(fr) ? Assignment.NO_CANDIDATES : Assignment.PREEMPT, 0));
    return assigner.assign(wl, h.scheduler.queue(cq));
  }

  /**
   * Assigns with Kueue's test oracle and the case's {@code simulationResult}: upstream's {@code {Preempt, 1}} (preemption
   * possible, borrowing level 1 once the targets are gone) for the flavor/resource pairs in {@code preemptBorrowingOne},
   * its default {@code {Preempt, 0}} for every other one.
   */
  private static Assignment assignWithPreemptBorrowingOne(
      KueueHarness h, boolean fairSharing, Workload wl, String cq, String... preemptBorrowingOne) {
    FlavorResources idx = h.scheduler.index();
    Set<Integer> one = new HashSet<>();
    for (int i = 0; i < preemptBorrowingOne.length; i += 2) {
      one.add(idx.of(preemptBorrowingOne[i], preemptBorrowingOne[i + 1]));
    }
    FlavorAssigner assigner = new FlavorAssigner(idx, Map.of(), fairSharing,
        (w, q, fr, v) -> new FlavorAssigner.Simulation(Assignment.PREEMPT, one.contains(fr) ? 1 : 0));
    return assigner.assign(wl, h.scheduler.queue(cq));
  }

  private static Assignment assignWithOracle(KueueHarness h, Workload wl, String cq, String... noCandidates) {
    return assignWithOracle(h, false, wl, cq, noCandidates);
  }

  /** Kueue's {@code Usage}: flavor/resource to the milli-value assigned (zero entries left out). */
  private static Map<String, Long> usage(KueueHarness h, Assignment a) {
    Map<String, Long> out = new TreeMap<>();
    for (int i = 0; i < a.frs().length; i++) {
      if (a.values()[i] != 0) {
        out.put(h.scheduler.index().flavor(a.frs()[i]) + "/" + h.scheduler.index().resource(a.frs()[i]), a.values()[i]);
      }
    }
    return out;
  }

  /** {@code expectedUsage("two", "cpu", "3")}: flavor, resource, quantity triples. */
  private static Map<String, Long> expectedUsage(String... triples) {
    Map<String, Long> out = new TreeMap<>();
    for (int i = 0; i < triples.length; i += 3) {
      out.put(triples[i] + "/" + triples[i + 1], Quantity.parse(triples[i + 2]).milliValue());
    }
    return out;
  }

  /** The flavor-resources assigned in mode Preempt (Kueue's per-resource {@code Mode: Preempt}). */
  private static Set<String> preempting(KueueHarness h, Assignment a) {
    Set<String> out = new TreeSet<>();
    for (int fr = 0; fr < a.needPreemption().length; fr++) {
      if (a.needPreemption()[fr]) {
        out.add(h.scheduler.index().flavor(fr) + "/" + h.scheduler.index().resource(fr));
      }
    }
    return out;
  }

  private static Workload podSets(String... nameCountRequests) {
    Workload.Builder b = Workload.builder("default", "wl").creationTime(KueueHarness.NOW);
    int i = 0;
    while (i < nameCountRequests.length) {
      String name = nameCountRequests[i];
      int count = Integer.parseInt(nameCountRequests[i + 1]);
      i += 2;
      List<String> req = new ArrayList<>();
      while (i < nameCountRequests.length && !nameCountRequests[i].equals("|")) {
        req.add(nameCountRequests[i++]);
      }
      i++;
      b.podSet(name, count, KueueHarness.req(req.toArray(String[]::new)));
    }
    return b.build();
  }

  private static FlavorQuotas quota(String flavor, String resource, String nominal, String borrowing) {
    return FlavorQuotas.of(flavor, FlavorResourceQuota.of(resource, nominal, borrowing));
  }

  private static ClusterQueue secondary(FlavorQuotas... flavors) {
    return ClusterQueue.builder("test-secondary-clusterqueue").cohort("test-cohort").resourceGroup(flavors).build();
  }

  @Test
  void multipleResourceGroupsOneCouldFitWithPreemptionOtherDoesntFit() {
    KueueHarness h = h(ClusterQueue.builder("test-clusterqueue")
        .resourceGroup(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "3")))
        .resourceGroup(FlavorQuotas.of("b-one", FlavorResourceQuota.of("memory", "1Mi")))
        .build());
    h.admit(wl("usage", 0, "cpu", "1"), "test-clusterqueue", "cpu", "one");
    Assignment a = assignWithOracle(h, wl("wl", 0, "cpu", "3", "memory", "10Mi"), "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.NO_FIT);
    assertThat(a.podSets()).isEmpty();
    assertThat(usage(h, a)).isEmpty();
    assertThat(a.message()).contains("insufficient quota for memory in flavor b-one, previously considered podsets "
        + "requests (0) + current podset request (10Mi) > maximum capacity (1Mi)");
  }

  @Test
  void multipleSpecsFitDifferentFlavors() {
    KueueHarness h = h(ClusterQueue.builder("test-clusterqueue")
        .resourceGroup(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "4")),
            FlavorQuotas.of("two", FlavorResourceQuota.of("cpu", "10")))
        .build());
    Assignment a = assignWithOracle(h, podSets("driver", "1", "cpu", "5", "|", "worker", "1", "cpu", "3"),
        "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    assertThat(a.podSets().get(0).flavors()).containsExactlyEntriesOf(Map.of("cpu", "two"));
    assertThat(a.podSets().get(1).flavors()).containsExactlyEntriesOf(Map.of("cpu", "one"));
    assertTried(a, 0, "cpu", -1);
    assertTried(a, 1, "cpu", 0);
    assertThat(a.borrows()).isFalse();
    assertThat(usage(h, a)).isEqualTo(expectedUsage("one", "cpu", "3", "two", "cpu", "5"));
  }

  @Test
  void multipleSpecsFitsBorrowing() {
    KueueHarness h = h(
        ClusterQueue.builder("test-clusterqueue").cohort("test-cohort")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "2", "98"),
                FlavorResourceQuota.of("memory", "2Gi")))
            .build(),
        secondary(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "198"),
            FlavorResourceQuota.of("memory", "198Gi"))));
    Assignment a = assignWithOracle(h,
        podSets("driver", "1", "cpu", "4", "memory", "1Gi", "|", "worker", "1", "cpu", "6", "memory", "4Gi"),
        "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    for (int p = 0; p < 2; p++) {
      assertThat(a.podSets().get(p).flavors())
          .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", "default", "memory", "default"));
      assertTried(a, p, "cpu", -1, "memory", -1);
    }
    assertThat(a.borrows()).isTrue();
    assertThat(usage(h, a)).isEqualTo(expectedUsage("default", "cpu", "10", "default", "memory", "5Gi"));
  }

  @Test
  void notEnoughSpaceToBorrow() {
    KueueHarness h = h(
        ClusterQueue.builder("test-clusterqueue").cohort("test-cohort")
            .resourceGroup(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "1"))).build(),
        secondary(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "10").withLendingLimit("0"))));
    h.admit(wl("secondary-usage", 0, "cpu", "9"), "test-secondary-clusterqueue", "cpu", "one");
    Assignment a = assignWithOracle(h, wl("wl", 0, "cpu", "2"), "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.NO_FIT);
    assertThat(a.podSets()).isEmpty();
    assertThat(usage(h, a)).isEmpty();
    assertThat(a.message()).contains("insufficient quota for cpu in flavor one, previously considered podsets "
        + "requests (0) + current podset request (2) > maximum capacity (1)");
  }

  @Test
  void pastMaxButCanPreemptInClusterQueue() {
    KueueHarness h = h(
        ClusterQueue.builder("test-clusterqueue").cohort("test-cohort")
            .resourceGroup(quota("one", "cpu", "2", "8")).build(),
        secondary(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "98"))));
    h.admit(wl("usage", 0, "cpu", "9"), "test-clusterqueue", "cpu", "one");
    h.admit(wl("secondary-usage", 0, "cpu", "9"), "test-secondary-clusterqueue", "cpu", "one");
    Assignment a = assignWithPreemptBorrowingOne(h, false, wl("wl", 0, "cpu", "2"), "test-clusterqueue",
        "one", "cpu");
    assertThat(a.mode()).isEqualTo(Assignment.PREEMPT);
    assertThat(flavor(a, 0, "cpu")).isEqualTo("one");
    assertTried(a, 0, "cpu", -1);
    assertThat(preempting(h, a)).containsExactly("one/cpu");
    assertThat(a.borrows()).isTrue();
    assertThat(a.message()).contains("insufficient unused quota for cpu in flavor one, 1 more needed");
    assertThat(usage(h, a)).isEqualTo(expectedUsage("one", "cpu", "2"));
  }

  @Test
  void pastMinButCanPreemptInClusterQueue() {
    KueueHarness h = h(ClusterQueue.builder("test-clusterqueue")
        .resourceGroup(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "2"))).build());
    h.admit(wl("usage", 0, "cpu", "1"), "test-clusterqueue", "cpu", "one");
    Assignment a = assignWithOracle(h, wl("wl", 0, "cpu", "2"), "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.PREEMPT);
    assertThat(flavor(a, 0, "cpu")).isEqualTo("one");
    assertTried(a, 0, "cpu", -1);
    assertThat(preempting(h, a)).containsExactly("one/cpu");
    assertThat(a.borrows()).isFalse();
    assertThat(a.message()).contains("insufficient unused quota for cpu in flavor one, 1 more needed");
    assertThat(usage(h, a)).isEqualTo(expectedUsage("one", "cpu", "2"));
  }

  @Test
  void pastMinButCanPreemptInCohortAndClusterQueue() {
    KueueHarness h = h(
        ClusterQueue.builder("test-clusterqueue").cohort("test-cohort")
            .resourceGroup(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "3"))).build(),
        secondary(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "7"))));
    h.admit(wl("usage", 0, "cpu", "2"), "test-clusterqueue", "cpu", "one");
    h.admit(wl("secondary-usage", 0, "cpu", "8"), "test-secondary-clusterqueue", "cpu", "one");
    Assignment a = assignWithPreemptBorrowingOne(h, false, wl("wl", 0, "cpu", "2"), "test-clusterqueue",
        "one", "cpu");
    assertThat(a.mode()).isEqualTo(Assignment.PREEMPT);
    assertThat(flavor(a, 0, "cpu")).isEqualTo("one");
    assertThat(preempting(h, a)).containsExactly("one/cpu");
    assertTried(a, 0, "cpu", -1);
    assertThat(a.borrows()).isTrue();
    assertThat(a.message()).contains("insufficient unused quota for cpu in flavor one, 2 more needed");
    assertThat(usage(h, a)).isEqualTo(expectedUsage("one", "cpu", "2"));
  }

  @Test
  void resourceNotListedInClusterQueue() {
    KueueHarness h = h(ClusterQueue.builder("test-clusterqueue")
        .resourceGroup(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "4"))).build());
    Assignment a = assignWithOracle(h, wl("wl", 0, "example.com/gpu", "2"), "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.NO_FIT);
    assertThat(a.podSets()).isEmpty();
    assertThat(usage(h, a)).isEmpty();
    assertThat(a.message()).contains("resource example.com/gpu unavailable in ClusterQueue");
  }

  @Test
  void zeroResourceRequestNotInClusterQueueShouldSucceed() {
    KueueHarness h = h(ClusterQueue.builder("test-clusterqueue")
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "4"))).build());
    Assignment a = assignWithOracle(h, wl("wl", 0, "cpu", "1", "example.com/gpu", "0"), "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    assertThat(a.podSets().get(0).flavors()).containsExactlyEntriesOf(Map.of("cpu", "default"));
    assertTried(a, 0, "cpu", -1);
    assertThat(usage(h, a)).isEqualTo(expectedUsage("default", "cpu", "1"));
  }

  @Test
  void zeroResourceRequestDefinedInClusterQueueShouldGetFlavorAssigned() {
    KueueHarness h = h(ClusterQueue.builder("test-clusterqueue")
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "4"),
            FlavorResourceQuota.of("example.com/gpu", "4"))).build());
    Assignment a = assignWithOracle(h, wl("wl", 0, "cpu", "1", "example.com/gpu", "0"), "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    assertThat(a.podSets().get(0).flavors())
        .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", "default", "example.com/gpu", "default"));
    assertTried(a, 0, "cpu", -1, "example.com/gpu", -1);
    assertThat(usage(h, a)).isEqualTo(expectedUsage("default", "cpu", "1"));
  }

  // Kueue's implicit pods resource: a ClusterQueue that covers pods counts one pods unit per pod of every pod set,
  // added to the pod set's requests (upstream's PodSetAssignment.Requests, here its resourceUsage)

  /** A flavor whose quotas are {@code pods} and then {@code cpu}, as upstream's {@code Resource(pods, ..)} first. */
  private static FlavorQuotas podsAndCpu(String flavor, String pods, FlavorResourceQuota cpu) {
    return FlavorQuotas.of(flavor, FlavorResourceQuota.of("pods", pods), cpu);
  }

  private static FlavorQuotas podsAndCpu(String flavor, String pods, String cpu) {
    return podsAndCpu(flavor, pods, FlavorResourceQuota.of("cpu", cpu));
  }

  private static void assertRequests(Assignment a, String... requests) {
    assertThat(a.podSets().get(0).resourceUsage()).isEqualTo(KueueHarness.req(requests));
  }

  @Test
  void numPodsFit() {
    KueueHarness h = h(ClusterQueue.builder("test-clusterqueue").resourceGroup(podsAndCpu("default", "3", "10"))
        .build());
    Assignment a = assignWithOracle(h, podSets("main", "3", "cpu", "1"), "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    assertThat(a.podSets().get(0).flavors())
        .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", "default", "pods", "default"));
    assertTried(a, 0, "cpu", -1, "pods", -1);
    assertRequests(a, "cpu", "3", "pods", "3");
    assertThat(preempting(h, a)).isEmpty();
    assertThat(a.borrows()).isFalse();
    assertThat(a.message()).isEmpty();
    assertThat(usage(h, a)).isEqualTo(expectedUsage("default", "pods", "3", "default", "cpu", "3"));
  }

  @Test
  void numPodsDontFit() {
    KueueHarness h = h(ClusterQueue.builder("test-clusterqueue").resourceGroup(podsAndCpu("default", "2", "10"))
        .build());
    Assignment a = assignWithOracle(h, podSets("main", "3", "cpu", "1"), "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.NO_FIT);
    assertThat(a.podSets()).isEmpty();
    assertThat(usage(h, a)).isEmpty();
    assertThat(a.message()).isEqualTo("couldn't assign flavors to pod set main: insufficient quota for pods in "
        + "flavor default, previously considered podsets requests (0) + current podset request (3) > maximum capacity "
        + "(2)");
  }

  // Upstream's workload reports 2 of its 5 pods reclaimable, with the ReclaimablePods feature gate off: they are not
  // subtracted. FleetKit has no reclaimable pods (as with the gate off), so the workload has just its 5 pods.
  @Test
  void withReclaimablePodsReclaimablePodsOff() {
    KueueHarness h = h(ClusterQueue.builder("test-clusterqueue").resourceGroup(podsAndCpu("default", "5", "10"))
        .build());
    Assignment a = assignWithOracle(h, podSets("main", "5", "cpu", "1"), "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    assertThat(a.podSets().get(0).flavors())
        .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", "default", "pods", "default"));
    assertTried(a, 0, "cpu", -1, "pods", -1);
    assertRequests(a, "cpu", "5", "pods", "5");
    assertThat(a.borrows()).isFalse();
    assertThat(a.message()).isEmpty();
    assertThat(usage(h, a)).isEqualTo(expectedUsage("default", "pods", "5", "default", "cpu", "5"));
  }

  private static final FlavorFungibility TRY_NEXT_FLAVOR = new FlavorFungibility(
      FlavorFungibility.WhenCanBorrow.TRY_NEXT_FLAVOR, FlavorFungibility.WhenCanPreempt.TRY_NEXT_FLAVOR);

  /** Flavors one and two with 10 pods and 10 cpu each, no cohort; 2 cpu of flavor one in use. */
  private static KueueHarness twoFlavorsOfTenPods(FlavorFungibility fungibility) {
    KueueHarness h = h(ClusterQueue.builder("test-clusterqueue").flavorFungibility(fungibility)
        .resourceGroup(podsAndCpu("one", "10", "10"), podsAndCpu("two", "10", "10")).build());
    h.admit(wl("usage", 0, "cpu", "2"), "test-clusterqueue", "cpu", "one");
    return h;
  }

  /** In flavor one, cpu by preemption (1 more needed) and the pod fitting; borrowing or not. */
  private static void assertPreemptsCpuInFlavorOne(KueueHarness h, Assignment a, boolean borrows, int tried) {
    assertThat(a.mode()).isEqualTo(Assignment.PREEMPT);
    assertThat(a.podSets().get(0).flavors()).containsExactlyInAnyOrderEntriesOf(Map.of("cpu", "one", "pods", "one"));
    assertTried(a, 0, "cpu", tried, "pods", tried);
    assertRequests(a, "cpu", "9", "pods", "1");
    assertThat(preempting(h, a)).containsExactly("one/cpu");
    assertThat(a.borrows()).isEqualTo(borrows);
    assertThat(a.message())
        .isEqualTo("couldn't assign flavors to pod set main: insufficient unused quota for cpu in flavor one, 1 more "
            + "needed");
    assertThat(usage(h, a)).isEqualTo(expectedUsage("one", "cpu", "9", "one", "pods", "1"));
  }

  /** 9 cpu and the pod fit in {@code flavor}, borrowing or not. */
  private static void assertFitsNinePodCpusIn(KueueHarness h, Assignment a, String flavor, boolean borrows,
      int tried) {
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    assertThat(a.podSets().get(0).flavors())
        .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", flavor, "pods", flavor));
    assertTried(a, 0, "cpu", tried, "pods", tried);
    assertRequests(a, "cpu", "9", "pods", "1");
    assertThat(preempting(h, a)).isEmpty();
    assertThat(a.borrows()).isEqualTo(borrows);
    assertThat(a.message()).isEmpty();
    assertThat(usage(h, a)).isEqualTo(expectedUsage(flavor, "cpu", "9", flavor, "pods", "1"));
  }

  @Test
  void preemptBeforeTryNextFlavor() {
    KueueHarness h = twoFlavorsOfTenPods(MAY_STOP_SEARCH);
    assertPreemptsCpuInFlavorOne(h, assignWithOracle(h, wl("wl", 0, "cpu", "9"), "test-clusterqueue"), false, 0);
  }

  @Test
  void preemptBeforeTryNextFlavorUsingWhenCanBorrowMayStopSearchWhenCanPreemptMayStopSearch() {
    KueueHarness h = twoFlavorsOfTenPods(MAY_STOP_SEARCH);
    assertPreemptsCpuInFlavorOne(h, assignWithOracle(h, wl("wl", 0, "cpu", "9"), "test-clusterqueue"), false, 0);
  }

  @Test
  void preemptTryNextFlavor() {
    KueueHarness h = twoFlavorsOfTenPods(FlavorFungibility.DEFAULT);
    assertFitsNinePodCpusIn(h, assignWithOracle(h, wl("wl", 0, "cpu", "9"), "test-clusterqueue"), "two", false,
        -1);
  }

  /**
   * The "borrow ... flavor" cases: in cohort test-cohort, flavor one has 10 pods and 10 cpu that may borrow 1, flavor
   * two 10 pods and {@code cpuTwo} cpu; the secondary queue lends 1 cpu of flavor one; 2 cpu of flavor one in use.
   */
  private static KueueHarness borrowTwoFlavors(FlavorFungibility fungibility, String cpuTwo) {
    KueueHarness h = h(
        ClusterQueue.builder("test-clusterqueue").cohort("test-cohort").flavorFungibility(fungibility)
            .resourceGroup(podsAndCpu("one", "10", FlavorResourceQuota.of("cpu", "10", "1")),
                podsAndCpu("two", "10", cpuTwo))
            .build(),
        secondary(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "1"))));
    h.admit(wl("usage", 0, "cpu", "2"), "test-clusterqueue", "cpu", "one");
    return h;
  }

  @Test
  void borrowTryNextFlavorFoundTheFirstFlavor() {
    KueueHarness h = borrowTwoFlavors(TRY_NEXT_FLAVOR, "1");
    assertFitsNinePodCpusIn(h, assignWithOracle(h, wl("wl", 0, "cpu", "9"), "test-clusterqueue"), "one", true,
        -1);
  }

  @Test
  void borrowTryNextFlavorFoundTheSecondFlavor() {
    KueueHarness h = borrowTwoFlavors(TRY_NEXT_FLAVOR, "10");
    assertFitsNinePodCpusIn(h, assignWithOracle(h, wl("wl", 0, "cpu", "9"), "test-clusterqueue"), "two", false,
        -1);
  }

  @Test
  void borrowBeforeTryNextFlavor() {
    KueueHarness h = borrowTwoFlavors(FlavorFungibility.DEFAULT, "10");
    assertFitsNinePodCpusIn(h, assignWithOracle(h, wl("wl", 0, "cpu", "9"), "test-clusterqueue"), "one", true,
        0);
  }

  /**
   * The ClusterQueue of the "when borrowing while preemption is needed for flavor one" cases: flavor one has no nominal
   * quota (borrowing limit {@code borrowingLimitOne}, or none), flavor two has 12 cpu; the secondary queue lends 12 cpu
   * of flavor one, {@code secondaryUsage} of which are used.
   */
  private static KueueHarness borrowingWhilePreempting(
      boolean fairSharing, ClusterQueuePreemption preemption, FlavorFungibility fungibility,
      @Nullable String borrowingLimitOne, @Nullable String secondaryUsage) {
    ClusterQueue cq = ClusterQueue.builder("test-clusterqueue").cohort("test-cohort")
        .preemption(preemption).flavorFungibility(fungibility)
        .resourceGroup(borrowingLimitOne == null
                ? FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "0"))
                : quota("one", "cpu", "0", borrowingLimitOne),
            FlavorQuotas.of("two", FlavorResourceQuota.of("cpu", "12")))
        .build();
    KueueHarness h = new KueueHarness(FLAVORS,
        List.of(cq, secondary(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "12")))), fairSharing);
    if (secondaryUsage != null) {
      h.admit(wl("secondary-usage", 0, "cpu", secondaryUsage), "test-secondary-clusterqueue", "cpu", "one");
    }
    return h;
  }

  private static final ClusterQueuePreemption RECLAIM_AND_BORROW_LOWER_PRIORITY = new ClusterQueuePreemption(
      QueuePreemptionPolicy.NEVER, QueuePreemptionPolicy.LOWER_PRIORITY, BorrowWithinCohort.lowerPriority(null));
  private static final FlavorFungibility MAY_STOP_SEARCH =
      new FlavorFungibility(FlavorFungibility.WhenCanBorrow.BORROW, FlavorFungibility.WhenCanPreempt.PREEMPT);
  private static final FlavorFungibility BORROW_TRY_NEXT =
      new FlavorFungibility(FlavorFungibility.WhenCanBorrow.TRY_NEXT_FLAVOR, FlavorFungibility.WhenCanPreempt.PREEMPT);

  private static void assertPreemptsInFlavorOne(KueueHarness h, Assignment a) {
    assertThat(a.mode()).isEqualTo(Assignment.PREEMPT);
    assertThat(flavor(a, 0, "cpu")).isEqualTo("one");
    assertTried(a, 0, "cpu", 0);
    assertThat(preempting(h, a)).containsExactly("one/cpu");
    assertThat(a.borrows()).isTrue();
    assertThat(a.message()).contains("insufficient unused quota for cpu in flavor one, 10 more needed");
    assertThat(usage(h, a)).isEqualTo(expectedUsage("one", "cpu", "12"));
  }

  private static void assertFitsInFlavorTwo(KueueHarness h, Assignment a) {
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    assertThat(flavor(a, 0, "cpu")).isEqualTo("two");
    assertTried(a, 0, "cpu", -1);
    assertThat(preempting(h, a)).isEmpty();
    assertThat(a.borrows()).isFalse();
    assertThat(usage(h, a)).isEqualTo(expectedUsage("two", "cpu", "12"));
  }

  @Test
  void whenBorrowingWhilePreemptionIsNeededForFlavorOneWhenCanBorrowMayStopSearch() {
    KueueHarness h = borrowingWhilePreempting(false, RECLAIM_AND_BORROW_LOWER_PRIORITY, MAY_STOP_SEARCH, "12", "10");
    assertPreemptsInFlavorOne(h, assignWithPreemptBorrowingOne(h, false, wl("wl", 0, "cpu", "12"),
        "test-clusterqueue", "one", "cpu"));
  }

  @Test
  void whenBorrowingWhilePreemptionIsNeededForFlavorOneWhenCanBorrowMayStopSearchWhenCanPreemptMayStopSearch() {
    KueueHarness h = borrowingWhilePreempting(false, RECLAIM_AND_BORROW_LOWER_PRIORITY, MAY_STOP_SEARCH, "12", "10");
    assertPreemptsInFlavorOne(h, assignWithPreemptBorrowingOne(h, false, wl("wl", 0, "cpu", "12"),
        "test-clusterqueue", "one", "cpu"));
  }

  @Test
  void whenBorrowingWhilePreemptionIsNeededForFlavorOneNoBorrowingLimitWhenCanBorrowMayStopSearch() {
    KueueHarness h = borrowingWhilePreempting(false, RECLAIM_AND_BORROW_LOWER_PRIORITY, MAY_STOP_SEARCH, null, "10");
    assertPreemptsInFlavorOne(h, assignWithPreemptBorrowingOne(h, false, wl("wl", 0, "cpu", "12"),
        "test-clusterqueue", "one", "cpu"));
  }

  @Test
  void whenBorrowingWhilePreemptionIsNeededForFlavorOneNoBorrowingLimitWhenCanBorrowMayStopSearchWhenCanPreemptMayStopSearch() {
    KueueHarness h = borrowingWhilePreempting(false, RECLAIM_AND_BORROW_LOWER_PRIORITY, MAY_STOP_SEARCH, null, "10");
    assertPreemptsInFlavorOne(h, assignWithPreemptBorrowingOne(h, false, wl("wl", 0, "cpu", "12"),
        "test-clusterqueue", "one", "cpu"));
  }

  @Test
  void whenBorrowingWhilePreemptionIsNeededForFlavorOneWhenCanBorrowTryNextFlavor() {
    KueueHarness h = borrowingWhilePreempting(false, RECLAIM_AND_BORROW_LOWER_PRIORITY, BORROW_TRY_NEXT, "12", null);
    assertFitsInFlavorTwo(h, assignWithOracle(h, wl("wl", 0, "cpu", "12"), "test-clusterqueue"));
  }

  @Test
  void whenBorrowingWhilePreemptionIsNeededForFlavorOneWhenCanBorrowTryNextFlavorWhenCanPreemptMayStopSearch() {
    KueueHarness h = borrowingWhilePreempting(false, RECLAIM_AND_BORROW_LOWER_PRIORITY, BORROW_TRY_NEXT, "12", null);
    assertFitsInFlavorTwo(h, assignWithOracle(h, wl("wl", 0, "cpu", "12"), "test-clusterqueue"));
  }

  @Test
  void whenBorrowingWhilePreemptionIsNeededButBorrowingLimitExceedsTheQuotaAvailableInTheCohort() {
    KueueHarness h = h(
        ClusterQueue.builder("test-clusterqueue").cohort("test-cohort").preemption(RECLAIM_AND_BORROW_LOWER_PRIORITY)
            .resourceGroup(quota("one", "cpu", "0", "12")).build(),
        secondary(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "11"))));
    h.admit(wl("secondary-usage", 0, "cpu", "10"), "test-secondary-clusterqueue", "cpu", "one");
    Assignment a = assignWithOracle(h, wl("wl", 0, "cpu", "12"), "test-clusterqueue");
    assertThat(a.mode()).isEqualTo(Assignment.NO_FIT);
    assertThat(a.podSets()).isEmpty();
    assertThat(usage(h, a)).isEmpty();
    assertThat(a.message()).contains("insufficient quota for cpu in flavor one, previously considered podsets "
        + "requests (0) + current podset request (12) > maximum capacity (11)");
  }

  /**
   * The "lend ... flavor" cases: in cohort test-cohort, flavor one has 10 pods and 10 cpu of which it lends at most 1,
   * flavor two 10 pods and {@code cpuTwo} cpu it does not lend; the secondary queue lends 1 cpu of flavor one; 2 cpu of
   * flavor one in use.
   */
  private static KueueHarness lendTwoFlavors(String cpuTwo) {
    KueueHarness h = h(
        ClusterQueue.builder("test-clusterqueue").cohort("test-cohort").flavorFungibility(TRY_NEXT_FLAVOR)
            .resourceGroup(podsAndCpu("one", "10", FlavorResourceQuota.of("cpu", "10").withLendingLimit("1")),
                podsAndCpu("two", "10", FlavorResourceQuota.of("cpu", cpuTwo).withLendingLimit("0")))
            .build(),
        secondary(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "1"))));
    h.admit(wl("usage", 0, "cpu", "2"), "test-clusterqueue", "cpu", "one");
    return h;
  }

  @Test
  void lendTryNextFlavorFoundTheSecondFlavor() {
    KueueHarness h = lendTwoFlavors("10");
    assertFitsNinePodCpusIn(h, assignWithOracle(h, wl("wl", 0, "cpu", "9"), "test-clusterqueue"), "two", false,
        -1);
  }

  @Test
  void lendTryNextFlavorFoundTheFirstFlavor() {
    KueueHarness h = lendTwoFlavors("1");
    assertFitsNinePodCpusIn(h, assignWithOracle(h, wl("wl", 0, "cpu", "9"), "test-clusterqueue"), "one", true,
        -1);
  }

  private static KueueHarness oracleReturnsNone() {
    KueueHarness h = h(
        ClusterQueue.builder("test-clusterqueue").cohort("test-cohort").flavorFungibility(MAY_STOP_SEARCH)
            .preemption(RECLAIM_AND_BORROW_LOWER_PRIORITY)
            .resourceGroup(quota("one", "cpu", "0", "2"), quota("two", "cpu", "0", "2")).build(),
        secondary(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "2")),
            FlavorQuotas.of("two", FlavorResourceQuota.of("cpu", "2"))));
    h.admit(wl("secondary-usage", 0, "cpu", "2"), "test-secondary-clusterqueue", "cpu", "one");
    return h;
  }

  private static void assertBorrowsInFlavorTwo(KueueHarness h, Assignment a) {
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    assertThat(flavor(a, 0, "cpu")).isEqualTo("two");
    assertTried(a, 0, "cpu", -1);
    assertThat(preempting(h, a)).isEmpty();
    assertThat(a.borrows()).isTrue();
    assertThat(usage(h, a)).isEqualTo(expectedUsage("two", "cpu", "2"));
  }

  @Test
  void cannotPreemptInCohortOracleReturnsNoneForTheFirstFlavorTriesTheSecondFlavorWhichFits() {
    KueueHarness h = oracleReturnsNone();
    assertBorrowsInFlavorTwo(h, assignWithOracle(h, wl("wl", 0, "cpu", "2"), "test-clusterqueue", "one", "cpu"));
  }

  @Test
  void cannotPreemptInCohortOracleReturnsNoneForTheFirstFlavorTriesTheSecondFlavorWhichFitsUsingDeprecatedWhenCanBorrowMayStopSearchWhenCanPreemptMayStopSearch() {
    KueueHarness h = oracleReturnsNone();
    assertBorrowsInFlavorTwo(h, assignWithOracle(h, wl("wl", 0, "cpu", "2"), "test-clusterqueue", "one", "cpu"));
  }

  @Test
  void quotaExhaustedButCanPreemptInCohortAndClusterQueue() {
    KueueHarness h = h(
        ClusterQueue.builder("test-clusterqueue").cohort("test-cohort")
            .resourceGroup(podsAndCpu("one", "10", FlavorResourceQuota.of("cpu", "10").withLendingLimit("0")))
            .build(),
        secondary(podsAndCpu("one", "0", "0")));
    h.admit(wl("usage", 0, "cpu", "2"), "test-clusterqueue", "cpu", "one");
    // upstream's oracle finds preemption possible for one/cpu (and borrowing 1 after it)
    assertPreemptsCpuInFlavorOne(h, assignWithPreemptBorrowingOne(h, false, wl("wl", 0, "cpu", "9"),
        "test-clusterqueue", "one", "cpu"), true, -1);
  }

  private static final ClusterQueuePreemption RECLAIM_ANY =
      ClusterQueuePreemption.of(QueuePreemptionPolicy.NEVER, QueuePreemptionPolicy.ANY);

  @Test
  void whenBorrowingWhilePreemptionIsNeededForFlavorOneFairSharingEnabledReclaimWithinCohortAny() {
    KueueHarness h = borrowingWhilePreempting(true, RECLAIM_ANY, MAY_STOP_SEARCH, null, "10");
    assertPreemptsInFlavorOne(h, assignWithPreemptBorrowingOne(h, true, wl("wl", 0, "cpu", "12"),
        "test-clusterqueue", "one", "cpu"));
  }

  @Test
  void whenBorrowingWhilePreemptionIsNeededForFlavorOneFairSharingEnabledReclaimWithinCohortAnyUsingDeprecatedWhenCanBorrowMayStopSearchWhenCanPreemptMayStopSearch() {
    KueueHarness h = borrowingWhilePreempting(true, RECLAIM_ANY, MAY_STOP_SEARCH, null, "10");
    assertPreemptsInFlavorOne(h, assignWithPreemptBorrowingOne(h, true, wl("wl", 0, "cpu", "12"),
        "test-clusterqueue", "one", "cpu"));
  }

  @Test
  void whenBorrowingWhilePreemptionIsNeededForFlavorOneFairSharingEnabledReclaimWithinCohortNever() {
    KueueHarness h = borrowingWhilePreempting(true, ClusterQueuePreemption.NEVER, MAY_STOP_SEARCH, null, "10");
    assertFitsInFlavorTwo(h,
        assignWithOracle(h, true, wl("wl", 0, "cpu", "12"), "test-clusterqueue", "one", "cpu"));
  }

  @Test
  void whenBorrowingWhilePreemptionIsNeededForFlavorOneFairSharingEnabledReclaimWithinCohortNeverUsingDeprecatedWhenCanBorrowMayStopSearchWhenCanPreemptMayStopSearch() {
    KueueHarness h = borrowingWhilePreempting(true, ClusterQueuePreemption.NEVER, MAY_STOP_SEARCH, null, "10");
    assertFitsInFlavorTwo(h,
        assignWithOracle(h, true, wl("wl", 0, "cpu", "12"), "test-clusterqueue", "one", "cpu"));
  }
}
