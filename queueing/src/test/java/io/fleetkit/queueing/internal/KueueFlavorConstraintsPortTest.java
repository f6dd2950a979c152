package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.NodeSelector;
import io.fleetkit.api.scheduling.NodeSelectorOperator;
import io.fleetkit.api.scheduling.NodeSelectorRequirement;
import io.fleetkit.api.scheduling.NodeSelectorTerm;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.FairSharingStrategy;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.PodSet;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.Workload;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/scheduler/flavorassigner/flavorassigner_test.go}, {@code
 * TestAssignFlavors} (at commit ff69552e): the twelve cases whose pod sets carry a node selector, a required node
 * affinity or tolerations or whose flavors are tainted, against upstream's flavors with node labels, a taint, and a taint with a toleration. Each
 * test is named after its upstream case and checks its representative mode, flavor per resource and status reasons.
 * (The other cases of the table are in {@link KueueFlavorAssignerPortTest}.) Flavor names with {@code _} take
 * {@code -}: ResourceFlavor names must be DNS subdomains.
 */
final class KueueFlavorConstraintsPortTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final Taint SPOT = Taint.of("instance", "spot", TaintEffect.NoSchedule);
  private static final Toleration TOLERATE_SPOT = Toleration.equal("instance", "spot", TaintEffect.NoSchedule);
  /** Upstream's {@code resourceFlavors} of the test. */
  private static final List<ResourceFlavor> FLAVORS = List.of(
      ResourceFlavor.of("default"),
      new ResourceFlavor("one", Map.of("type", "one")),
      new ResourceFlavor("two", Map.of("type", "two")),
      new ResourceFlavor("b-one", Map.of("b_type", "one")),
      new ResourceFlavor("b-two", Map.of("b_type", "two")),
      ResourceFlavor.of("tainted").withNodeTaints(List.of(SPOT)),
      ResourceFlavor.of("taint-and-toleration").withNodeTaints(List.of(SPOT)).withTolerations(List.of(TOLERATE_SPOT)),
      new ResourceFlavor("label-x-a", Map.of("x", "a")),
      new ResourceFlavor("label-xy-b", Map.of("x", "b", "y", "k")));

  private static QueueScheduler scheduler(ClusterQueue cq) {
    return new QueueScheduler(Clock.fixed(NOW, ZoneOffset.UTC), FLAVORS, List.of(cq), List.of(),
        List.of(LocalQueue.of("default", cq.name(), cq.name())), Map.of(), false,
        List.of(FairSharingStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE, FairSharingStrategy.LESS_THAN_INITIAL_SHARE),
        List.of(), List.of());
  }

  private static ClusterQueue cpuQueue(String... flavorThenCpu) {
    FlavorQuotas[] fqs = new FlavorQuotas[flavorThenCpu.length / 2];
    for (int i = 0; i < fqs.length; i++) {
      fqs[i] = FlavorQuotas.of(flavorThenCpu[2 * i], FlavorResourceQuota.of("cpu", flavorThenCpu[2 * i + 1]));
    }
    return ClusterQueue.builder("test-clusterqueue").resourceGroup(fqs).build();
  }

  private static ResourceList req(String... pairs) {
    ResourceList.Builder b = ResourceList.builder();
    for (int i = 0; i < pairs.length; i += 2) {
      b.put(pairs[i], Quantity.parse(pairs[i + 1]));
    }
    return b.build();
  }

  private static Workload wl(PodSet... podSets) {
    Workload.Builder b = Workload.builder("default", "wl").creationTime(NOW);
    for (PodSet ps : podSets) {
      b.podSet(ps);
    }
    return b.build();
  }

  private static PodSet main(String... requests) {
    return PodSet.of("main", 1, req(requests));
  }

  private static NodeSelector terms(NodeSelectorRequirement... oneRequirementPerTerm) {
    return new NodeSelector(java.util.Arrays.stream(oneRequirementPerTerm)
        .map(r -> new NodeSelectorTerm(List.of(r), List.of())).toList());
  }

  private static NodeSelectorRequirement in(String key, String value) {
    return new NodeSelectorRequirement(key, NodeSelectorOperator.In, List.of(value));
  }

  /** Usage as upstream's {@code clusterQueueUsage}: a workload admitted with {@code cpu} of {@code flavor}. */
  private static void use(QueueScheduler s, String name, String flavor, String cpu) {
    s.assumeAdmitted(Workload.builder("default", name).creationTime(NOW).request("cpu", cpu).build(),
        "test-clusterqueue", Map.of("cpu", flavor), NOW);
  }

  private static Assignment assign(QueueScheduler s, Workload wl) {
    return s.assigner().assign(wl, s.queue("test-clusterqueue"));
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

  /** Upstream's {@code Usage}: {@code flavor/resource} to the milli-value assigned (zero entries left out). */
  private static Map<String, Long> usage(QueueScheduler s, Assignment a) {
    Map<String, Long> out = new TreeMap<>();
    for (int i = 0; i < a.frs().length; i++) {
      if (a.values()[i] != 0) {
        out.put(s.index().flavor(a.frs()[i]) + "/" + s.index().resource(a.frs()[i]), a.values()[i]);
      }
    }
    return out;
  }

  @Test
  void singleFlavorFitsTaintedFlavor() {
    QueueScheduler s = scheduler(cpuQueue("tainted", "4"));
    Assignment a = assign(s, wl(main("cpu", "1").withTolerations(List.of(TOLERATE_SPOT))));
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    assertThat(a.podSets().get(0).flavors()).containsExactlyEntriesOf(Map.of("cpu", "tainted"));
    assertTried(a, 0, "cpu", -1);
    assertThat(a.message()).isEmpty();
    assertThat(usage(s, a)).containsExactlyEntriesOf(Map.of("tainted/cpu", 1000L));
  }

  @Test
  void multipleFlavorsFitsANodeSelector() {
    QueueScheduler s = scheduler(cpuQueue("one", "4", "two", "4"));
    // the key "ignored1" and the term on "ignored2" name no label of the flavors: ignored
    Assignment a = assign(s, wl(main("cpu", "1").withNodeSelector(Map.of("type", "two", "ignored1", "foo"))
        .withRequiredNodeAffinity(terms(in("ignored2", "bar")))));
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    assertThat(a.podSets().get(0).flavors()).containsExactlyEntriesOf(Map.of("cpu", "two"));
    assertTried(a, 0, "cpu", -1);
    assertThat(a.borrows()).isFalse();
    assertThat(usage(s, a)).containsExactlyEntriesOf(Map.of("two/cpu", 1000L));
  }

  @Test
  void multipleFlavorsFitsWithNodeAffinity() {
    QueueScheduler s = scheduler(ClusterQueue.builder("test-clusterqueue").resourceGroup(
        FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "4"), FlavorResourceQuota.of("memory", "1Gi")),
        FlavorQuotas.of("two", FlavorResourceQuota.of("cpu", "4"), FlavorResourceQuota.of("memory", "1Gi"))).build());
    Assignment a = assign(s, wl(main("cpu", "1", "memory", "1Mi").withNodeSelector(Map.of("ignored1", "foo"))
        .withRequiredNodeAffinity(terms(in("type", "two")))));
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    assertThat(a.podSets().get(0).flavors()).containsExactlyInAnyOrderEntriesOf(Map.of("cpu", "two", "memory", "two"));
    assertTried(a, 0, "cpu", -1, "memory", -1);
    assertThat(usage(s, a)).containsExactlyInAnyOrderEntriesOf(Map.of("two/cpu", 1000L, "two/memory", 1048576000L));
  }

  @Test
  void multipleFlavorsNodeAffinityFitsAnyFlavor() {
    QueueScheduler s = scheduler(cpuQueue("one", "4", "two", "4"));
    // the first term names no flavor label, so it matches every flavor; the terms are ORed
    Assignment a = assign(s, wl(main("cpu", "1")
        .withRequiredNodeAffinity(terms(in("ignored2", "bar"), in("cpuType", "two")))));
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    assertThat(a.podSets().get(0).flavors()).containsExactlyEntriesOf(Map.of("cpu", "one"));
    assertTried(a, 0, "cpu", 0);
    assertThat(usage(s, a)).containsExactlyEntriesOf(Map.of("one/cpu", 1000L));
  }

  @Test
  void multipleFlavorsWithDifferentLabelKeysSelectorOnlyUsesFlavorsOwnKeys() {
    QueueScheduler s = scheduler(cpuQueue("label-x-a", "4", "label-xy-b", "4"));
    Assignment a = assign(s, wl(main("cpu", "1").withNodeSelector(Map.of("x", "a", "y", "g"))));
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    assertThat(a.podSets().get(0).flavors()).containsExactlyEntriesOf(Map.of("cpu", "label-x-a"));
    assertTried(a, 0, "cpu", 0);
    assertThat(usage(s, a)).containsExactlyEntriesOf(Map.of("label-x-a/cpu", 1000L));
  }

  @Test
  void labellessFlavorInGroupWithLabeledFlavorWorkloadUsesLabeledSelector() {
    QueueScheduler s = scheduler(cpuQueue("default", "4", "two", "4"));
    Assignment a = assign(s, wl(main("cpu", "1").withNodeSelector(Map.of("type", "two"))));
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    assertThat(a.podSets().get(0).flavors()).containsExactlyEntriesOf(Map.of("cpu", "default"));
    assertTried(a, 0, "cpu", 0);
    assertThat(usage(s, a)).containsExactlyEntriesOf(Map.of("default/cpu", 1000L));
  }

  @Test
  void multipleFlavorsDoesntFitNodeAffinity() {
    QueueScheduler s = scheduler(cpuQueue("one", "4", "two", "4"));
    Assignment a = assign(s, wl(main("cpu", "1").withRequiredNodeAffinity(terms(in("type", "three")))));
    assertThat(a.mode()).isEqualTo(Assignment.NO_FIT);
    assertThat(a.podSets()).isEmpty(); // no flavor for any resource (FleetKit's assignment keeps no pod set then)
    assertThat(a.message()).isEqualTo("couldn't assign flavors to pod set main: "
        + "flavor one doesn't match node affinity, flavor two doesn't match node affinity");
    assertThat(usage(s, a)).isEmpty();
  }

  @Test
  void canOnlyPreemptFlavorsThatMatchAffinity() {
    QueueScheduler s = scheduler(cpuQueue("one", "4", "two", "4"));
    use(s, "usage-one", "one", "3");
    use(s, "usage-two", "two", "3");
    Assignment a = assign(s, wl(main("cpu", "2").withNodeSelector(Map.of("type", "two"))));
    assertThat(a.mode()).isEqualTo(Assignment.PREEMPT);
    assertThat(a.podSets().get(0).flavors()).containsExactlyEntriesOf(Map.of("cpu", "two"));
    assertTried(a, 0, "cpu", -1);
    assertThat(a.message()).isEqualTo("couldn't assign flavors to pod set main: "
        + "flavor one doesn't match node affinity, insufficient unused quota for cpu in flavor two, 1 more needed");
    assertThat(usage(s, a)).containsExactlyEntriesOf(Map.of("two/cpu", 2000L));
  }

  @Test
  void eachPodsetRequiresPreemptionOnADifferentFlavor() {
    QueueScheduler s = scheduler(cpuQueue("one", "4", "tainted", "10"));
    use(s, "usage-one", "one", "3");
    use(s, "usage-tainted", "tainted", "3");
    Assignment a = assign(s, wl(PodSet.of("launcher", 1, req("cpu", "2")),
        PodSet.of("workers", 10, req("cpu", "1")).withTolerations(List.of(TOLERATE_SPOT))));
    assertThat(a.mode()).isEqualTo(Assignment.PREEMPT);
    assertThat(a.podSets().get(0).flavors()).containsExactlyEntriesOf(Map.of("cpu", "one"));
    assertThat(a.podSets().get(1).flavors()).containsExactlyEntriesOf(Map.of("cpu", "tainted"));
    assertTried(a, 0, "cpu", -1);
    assertTried(a, 1, "cpu", -1);
    assertThat(a.message()).isEqualTo("couldn't assign flavors to pod set launcher: "
        + "insufficient unused quota for cpu in flavor one, 1 more needed, "
        + "untolerated taint {instance spot NoSchedule <nil>} in flavor tainted; "
        + "couldn't assign flavors to pod set workers: "
        + "insufficient quota for cpu in flavor one, previously considered podsets requests (2) + current podset"
        + " request (10) > maximum capacity (4), insufficient unused quota for cpu in flavor tainted, 3 more needed");
    assertThat(usage(s, a)).containsExactlyInAnyOrderEntriesOf(Map.of("one/cpu", 2000L, "tainted/cpu", 10000L));
  }

  @Test
  void singleFlavorFitsTaintedFlavorWithToleration() {
    QueueScheduler s = scheduler(cpuQueue("taint-and-toleration", "4"));
    Assignment a = assign(s, wl(main("cpu", "1"))); // the flavor's own toleration covers its taint
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    assertThat(a.podSets().get(0).flavors()).containsExactlyEntriesOf(Map.of("cpu", "taint-and-toleration"));
    assertTried(a, 0, "cpu", -1);
    assertThat(usage(s, a)).containsExactlyEntriesOf(Map.of("taint-and-toleration/cpu", 1000L));
  }

  @Test
  void multipleFlavorsFitsWhileSkippingTaintedFlavor() {
    QueueScheduler s = scheduler(cpuQueue("tainted", "4", "two", "4"));
    Assignment a = assign(s, wl(main("cpu", "3")));
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    assertThat(a.podSets().get(0).flavors()).containsExactlyEntriesOf(Map.of("cpu", "two"));
    assertTried(a, 0, "cpu", -1);
    assertThat(usage(s, a)).containsExactlyEntriesOf(Map.of("two/cpu", 3000L));
  }

  @Test
  void multiPodsetOneFitsAndAnotherFailsFittingPodsetAttemptsSkippedInResolveNoFitReason() {
    QueueScheduler s = scheduler(cpuQueue("one", "2", "two", "2"));
    Assignment a = assign(s, wl(PodSet.of("fitting-podset", 1, req("cpu", "1")).withNodeSelector(Map.of("type", "one")),
        PodSet.of("blocking-podset", 1, req("cpu", "5"))));
    assertThat(a.mode()).isEqualTo(Assignment.NO_FIT);
    assertTried(a, 0, "cpu", 0); // upstream keeps the fitting pod set's assignment, TriedFlavorIdx 0
    assertThat(a.message()).isEqualTo("couldn't assign flavors to pod set blocking-podset: "
        + "insufficient quota for cpu in flavor one, previously considered podsets requests (1) + current podset"
        + " request (5) > maximum capacity (2), "
        + "insufficient quota for cpu in flavor two, previously considered podsets requests (0) + current podset"
        + " request (5) > maximum capacity (2)");
    assertThat(usage(s, a)).containsExactlyEntriesOf(Map.of("one/cpu", 1000L));
  }
}
