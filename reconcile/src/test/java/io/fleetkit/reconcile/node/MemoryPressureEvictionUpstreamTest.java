package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.reconcile.node.MemoryPressureEviction.PodMemory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The memory cases of kubernetes/kubernetes {@code pkg/kubelet/eviction/helpers_test.go} (the ranking tests
 * {@code TestOrderedByExceedsRequestMemory}, {@code TestOrderedByPriority}, {@code TestOrderedByMemory},
 * {@code TestOrderedByPriorityMemory}) and {@code eviction_manager_test.go} ({@code TestMemoryPressure}'s hard
 * threshold steps, {@code TestMemoryPressure_VerifyPodStatus}'s message), ported as data: each pod is a name, a
 * priority, its container's memory request and limit and its working set; the expected outcome is upstream's. See
 * docs/conformance.md for the cases left out.
 */
final class MemoryPressureEvictionUpstreamTest {
  /** {@code eviction_manager_test.go}'s priorities. */
  private static final int LOW = -1;
  private static final int DEFAULT = 0;
  private static final int HIGH = 1;

  /** A pod as upstream's {@code newPod}: one container named like the pod; "" for no request or limit. */
  static Pod pod(String name, int priority, String cpuRequest, String memoryRequest, String cpuLimit,
      String memoryLimit) {
    Container c = Container.of(name, "img", new ResourceRequirements(resources(cpuRequest, memoryRequest),
        resources(cpuLimit, memoryLimit), List.of()));
    return Pod.builder().namespace("default").name(name).container(c).priority(priority).build();
  }

  private static ResourceList resources(String cpu, String memory) {
    ResourceList.Builder b = ResourceList.builder();
    if (!cpu.isEmpty()) {
      b.put("cpu", cpu);
    }
    if (!memory.isEmpty()) {
      b.put("memory", memory);
    }
    return b.build();
  }

  private static long bytes(String quantity) {
    return Quantity.parse(quantity).value();
  }

  /** {@code newPodMemoryStats}: the pod's working set, and its one container's. */
  static PodMemory stats(Pod pod, String workingSet) {
    return new PodMemory(pod, bytes(workingSet), Map.of(pod.spec().containers().get(0).name(), bytes(workingSet)));
  }

  private static List<String> names(List<PodMemory> pods) {
    return pods.stream().map(m -> m.pod().metadata().name()).toList();
  }

  private static List<String> sorted(List<PodMemory> pods, Comparator<PodMemory> order) {
    List<PodMemory> out = new ArrayList<>(pods);
    out.sort(order);
    return names(out);
  }

  /** One ranking case: the pods with their stats in the order given, the comparator, the expected order. */
  record Ranking(String upstream, List<PodMemory> pods, Comparator<PodMemory> order, List<String> expected) {
    @Override
    public String toString() {
      return upstream;
    }
  }

  static Stream<Arguments> rankings() {
    Pod below = pod("below-requests", -1, "", "200Mi", "", "");
    Pod exceeds = pod("exceeds-requests", 1, "", "100Mi", "", "");
    Ranking exceedsRequests = new Ranking("TestOrderedByExceedsRequestMemory",
        List.of(stats(below, "199Mi"), stats(exceeds, "101Mi")), MemoryPressureEviction.EXCEEDS_REQUESTS,
        List.of("exceeds-requests", "below-requests"));

    Pod low = pod("low-priority", -134, "", "", "", "");
    Pod medium = pod("medium-priority", 1, "100m", "100Mi", "200m", "200Mi");
    Pod high = pod("high-priority", 12534, "200m", "200Mi", "200m", "200Mi");
    Ranking priority = new Ranking("TestOrderedByPriority",
        List.of(PodMemory.of(high, null), PodMemory.of(medium, null), PodMemory.of(low, null)),
        MemoryPressureEviction.PRIORITY, List.of("low-priority", "medium-priority", "high-priority"));

    List<PodMemory> memoryPods = List.of(
        stats(pod("best-effort-high", DEFAULT, "", "", "", ""), "500Mi"),
        stats(pod("best-effort-low", DEFAULT, "", "", "", ""), "300Mi"),
        stats(pod("burstable-high", DEFAULT, "", "100Mi", "", "1Gi"), "800Mi"),
        stats(pod("burstable-low", DEFAULT, "", "100Mi", "", "1Gi"), "300Mi"),
        stats(pod("guaranteed-high", DEFAULT, "", "1Gi", "", "1Gi"), "800Mi"),
        stats(pod("guaranteed-low", DEFAULT, "", "1Gi", "", "1Gi"), "200Mi"));
    Ranking memory = new Ranking("TestOrderedByMemory", memoryPods, MemoryPressureEviction.MEMORY,
        List.of("burstable-high", "best-effort-high", "best-effort-low", "burstable-low", "guaranteed-high",
            "guaranteed-low"));

    List<PodMemory> byPriority = new ArrayList<>(List.of(
        stats(pod("above-requests-low-priority-high-usage", LOW, "", "", "", ""), "500Mi"),
        stats(pod("above-requests-low-priority-low-usage", LOW, "", "", "", ""), "50Mi"),
        stats(pod("above-requests-high-priority-high-usage", HIGH, "", "100Mi", "", ""), "600Mi"),
        stats(pod("above-requests-high-priority-low-usage", HIGH, "", "100Mi", "", ""), "150Mi"),
        stats(pod("below-requests-low-priority-high-usage", LOW, "", "1Gi", "", ""), "800Mi"),
        stats(pod("below-requests-low-priority-low-usage", LOW, "", "1Gi", "", ""), "200Mi"),
        stats(pod("below-requests-high-priority-high-usage", HIGH, "", "1Gi", "", ""), "800Mi"),
        stats(pod("below-requests-high-priority-low-usage", HIGH, "", "1Gi", "", ""), "200Mi")));
    List<String> expected = names(byPriority);
    List<PodMemory> reversed = new ArrayList<>(byPriority);
    java.util.Collections.reverse(reversed); // upstream sorts pod8 ... pod1
    Ranking priorityMemory = new Ranking("TestOrderedByPriorityMemory", reversed, MemoryPressureEviction.RANK,
        expected);
    return Stream.of(exceedsRequests, priority, memory, priorityMemory).map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rankings")
  void order_upstreamCase_sortsAsUpstream(Ranking c) {
    assertThat(sorted(c.pods(), c.order())).as(c.upstream()).isEqualTo(c.expected());
  }

  @Test
  void rank_TestOrderedByPriorityMemory_isTheRankFunction() {
    List<PodMemory> pods = new ArrayList<>(List.of(
        stats(pod("below-requests-high-priority-low-usage", HIGH, "", "1Gi", "", ""), "200Mi"),
        stats(pod("above-requests-low-priority-high-usage", LOW, "", "", "", ""), "500Mi")));
    assertThat(names(MemoryPressureEviction.rank(pods)))
        .containsExactly("above-requests-low-priority-high-usage", "below-requests-high-priority-low-usage");
  }

  /** {@code eviction_manager_test.go} {@code TestMemoryPressure}'s pods; upstream evicts pods[4]. */
  private static List<Pod> testMemoryPressurePods() {
    return List.of(
        pod("guaranteed-low-priority-high-usage", LOW, "100m", "1Gi", "100m", "1Gi"),
        pod("burstable-below-requests", DEFAULT, "100m", "100Mi", "200m", "1Gi"),
        pod("burstable-above-requests", DEFAULT, "100m", "100Mi", "200m", "1Gi"),
        pod("best-effort-high-priority-high-usage", HIGH, "", "", "", ""),
        pod("best-effort-low-priority-low-usage", LOW, "", "", "", ""));
  }

  private static List<PodMemory> testMemoryPressureStats() {
    List<Pod> pods = testMemoryPressurePods();
    String[] workingSets = {"900Mi", "50Mi", "400Mi", "400Mi", "100Mi"};
    List<PodMemory> out = new ArrayList<>();
    for (int i = 0; i < pods.size(); i++) {
      out.add(stats(pods.get(i), workingSets[i]));
    }
    return out;
  }

  /**
   * {@code TestMemoryPressure}, its hard threshold ({@code memory.available<1Gi}) steps: 3Gi available, no pressure;
   * a minute later 500Mi, pressure and {@code best-effort-low-priority-low-usage} evicted; a minute later 2Gi, still
   * pressure (the 5-minute transition period) and nothing evicted; five minutes later 2Gi, no pressure.
   */
  @Test
  void testMemoryPressure_hardThreshold_conditionVictimAndTransitionPeriod() {
    MemoryPressureEviction m = new MemoryPressureEviction(bytes("1Gi"), Duration.ofMinutes(5));
    List<PodMemory> active = testMemoryPressureStats();
    Instant t = Instant.parse("2026-01-01T00:00:00Z");

    assertThat(m.observe(t, bytes("3Gi"), 0)).isFalse();
    assertThat(m.underPressure(t)).as("manager should not report memory pressure").isFalse();

    t = t.plus(Duration.ofMinutes(1));
    assertThat(m.observe(t, bytes("500Mi"), 0)).isTrue();
    assertThat(m.underPressure(t)).as("manager should report memory pressure").isTrue();
    PodMemory victim = m.choose(active);
    assertThat(victim).isNotNull();
    assertThat(victim.pod().metadata().name()).isEqualTo("best-effort-low-priority-low-usage");

    t = t.plus(Duration.ofMinutes(1));
    assertThat(m.observe(t, bytes("2Gi"), 0)).as("no pod should be killed").isFalse();
    assertThat(m.underPressure(t)).as("pressure, the transition period not yet met").isTrue();
    assertThat(m.condition(t).status()).isEqualTo(ConditionStatus.True);

    t = t.plus(Duration.ofMinutes(5));
    assertThat(m.observe(t, bytes("2Gi"), 0)).isFalse();
    assertThat(m.underPressure(t)).as("no pressure, the transition period met").isFalse();
    NodeCondition c = m.condition(t);
    assertThat(c.status()).isEqualTo(ConditionStatus.False);
    assertThat(c.reason()).isEqualTo("KubeletHasSufficientMemory");
  }

  /**
   * {@code TestMemoryPressure_VerifyPodStatus}: threshold 2Gi, 1500Mi available, stats without container usage: the
   * message names the threshold and what is available only.
   */
  @Test
  void testMemoryPressureVerifyPodStatus_message() {
    MemoryPressureEviction m = new MemoryPressureEviction(bytes("2Gi"), Duration.ofMinutes(5));
    Pod below = pod("below-requests", DEFAULT, "", "1Gi", "", "1Gi");
    Pod above = pod("above-requests", DEFAULT, "", "100Mi", "", "1Gi");
    List<PodMemory> active = List.of(PodMemory.of(below, bytes("900Mi")), PodMemory.of(above, bytes("700Mi")));
    Instant t = Instant.parse("2026-01-01T00:00:00Z");

    assertThat(m.observe(t, bytes("1500Mi"), 0)).isTrue();
    assertThat(m.underPressure(t)).isTrue();
    PodMemory victim = m.choose(active);
    assertThat(victim).isNotNull();
    assertThat(m.message(victim))
        .isEqualTo("The node was low on resource: memory. Threshold quantity: 2Gi, available: 1500Mi. ");
  }

  /**
   * {@code evictionMessage} with container stats, as {@code TestDiskPressureNodeFs_VerifyPodStatus} expects for
   * ephemeral storage ("Container above-requests was using 700Mi, request is 100Mi, has larger consumption of ..."),
   * here for memory; a container below its request is not named.
   */
  @Test
  void message_containerAboveItsRequest_named() {
    Pod above = pod("above-requests", DEFAULT, "", "100Mi", "", "1Gi");
    Map<String, Long> containers = new LinkedHashMap<>();
    containers.put("above-requests", bytes("700Mi"));
    PodMemory m = new PodMemory(above, bytes("700Mi"), containers);
    assertThat(MemoryPressureEviction.message(bytes("2Gi"), bytes("1536Mi"), m))
        .isEqualTo("The node was low on resource: memory. Threshold quantity: 2Gi, available: 1536Mi. "
            + "Container above-requests was using 700Mi, request is 100Mi, has larger consumption of memory. ");
    Pod below = pod("below-requests", DEFAULT, "", "1Gi", "", "1Gi");
    assertThat(MemoryPressureEviction.message(bytes("2Gi"), bytes("1536Mi"), stats(below, "900Mi")))
        .isEqualTo("The node was low on resource: memory. Threshold quantity: 2Gi, available: 1536Mi. ");
  }

  @Test
  void choose_criticalPodsFirstInRank_skippedForTheNext() {
    MemoryPressureEviction m = new MemoryPressureEviction(bytes("100Mi"), Duration.ofMinutes(5));
    Pod critical = pod("node-critical", MemoryPressureEviction.SYSTEM_CRITICAL_PRIORITY + 1000, "", "", "", "");
    Pod mirror = Pod.builder().namespace("kube-system").name("static").container("static", "img", ResourceList.EMPTY)
        .annotation(MemoryPressureEviction.CONFIG_MIRROR_ANNOTATION, "abc").priority(LOW).build();
    Pod ordinary = pod("ordinary", HIGH, "", "", "", "");
    List<PodMemory> active = List.of(stats(critical, "1Gi"), stats(mirror, "2Gi"), stats(ordinary, "10Mi"));
    // by rank the mirror pod (lowest priority) comes first, the critical one last
    assertThat(names(MemoryPressureEviction.rank(active))).containsExactly("static", "ordinary", "node-critical");
    PodMemory victim = m.choose(active);
    assertThat(victim).isNotNull();
    assertThat(victim.pod().metadata().name()).isEqualTo("ordinary");
    assertThat(m.choose(List.of(stats(critical, "1Gi"), stats(mirror, "2Gi")))).isNull();
  }

  @Test
  void isCritical_staticPodFromAFile_critical() {
    Pod fromFile = Pod.builder().namespace("kube-system").name("etcd").container("etcd", "img", ResourceList.EMPTY)
        .annotation(MemoryPressureEviction.CONFIG_SOURCE_ANNOTATION, "file").build();
    Pod fromApi = Pod.builder().namespace("default").name("web").container("web", "img", ResourceList.EMPTY)
        .annotation(MemoryPressureEviction.CONFIG_SOURCE_ANNOTATION, "api").build();
    assertThat(MemoryPressureEviction.isCritical(fromFile)).isTrue();
    assertThat(MemoryPressureEviction.isCritical(fromApi)).isFalse();
    assertThat(MemoryPressureEviction.isCritical(pod("c", 2_000_000_000, "", "", "", ""))).isTrue();
    assertThat(MemoryPressureEviction.isCritical(pod("c", 1_999_999_999, "", "", "", ""))).isFalse();
  }

  @Test
  void observe_availableNeverBelowZero_andThresholdIsStrict() {
    MemoryPressureEviction m = new MemoryPressureEviction(bytes("100Mi"), Duration.ofMinutes(5));
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    assertThat(m.observe(t, bytes("1Gi"), bytes("924Mi"))).as("exactly 100Mi available: not below").isFalse();
    assertThat(m.observe(t, bytes("1Gi"), bytes("924Mi") + 1)).isTrue();
    assertThat(m.observe(t, bytes("1Gi"), bytes("5Gi"))).isTrue();
    assertThat(m.message(stats(pod("x", 0, "", "", "", ""), "0"))).contains("available: 0. ");
  }

  /** {@code helpers_test.go} TestThresholdsMet: hard {@code memory.available<1Gi}, "threshold-met-memory" (500Mi). */
  @Test
  void testThresholdsMet_thresholdMetMemory() {
    MemoryPressureEviction m = new MemoryPressureEviction(bytes("1Gi"), Duration.ofMinutes(5));
    assertThat(m.observe(Instant.EPOCH, bytes("500Mi"), 0)).isTrue();
  }

  /** TestThresholdsMet "threshold-not-met" (2Gi available). */
  @Test
  void testThresholdsMet_thresholdNotMet() {
    MemoryPressureEviction m = new MemoryPressureEviction(bytes("1Gi"), Duration.ofMinutes(5));
    assertThat(m.observe(Instant.EPOCH, bytes("2Gi"), 0)).isFalse();
  }

  /**
   * {@code helpers_test.go} TestNodeConditionsObservedSince: MemoryPressure observed a minute ago is reported with a
   * 2-minute period ("in-period"), not with a 30-second one ("out-of-period").
   */
  @Test
  void testNodeConditionsObservedSince_inAndOutOfPeriod() {
    Instant now = Instant.parse("2026-01-01T00:10:00Z");
    MemoryPressureEviction in = new MemoryPressureEviction(bytes("1Gi"), Duration.ofMinutes(2));
    in.observe(now.minus(Duration.ofMinutes(1)), 0, 0);
    assertThat(in.underPressure(now)).isTrue();
    MemoryPressureEviction out = new MemoryPressureEviction(bytes("1Gi"), Duration.ofSeconds(30));
    out.observe(now.minus(Duration.ofMinutes(1)), 0, 0);
    assertThat(out.underPressure(now)).isFalse();
  }

  /**
   * {@code helpers_test.go} TestNodeConditionsLastObservedAt: a condition observed now is at now whether or not it was
   * observed before ("no-previous-observation", "previous-observation"); one not observed now keeps its old time
   * ("old-observation"). Read through when the condition's transition period ends.
   */
  @Test
  void testNodeConditionsLastObservedAt_threeCases() {
    Instant now = Instant.parse("2026-01-01T00:10:00Z");
    Instant old = now.minus(Duration.ofMinutes(1));
    Duration period = Duration.ofMinutes(5);
    MemoryPressureEviction noPrevious = new MemoryPressureEviction(bytes("1Gi"), period);
    noPrevious.observe(now, 0, 0);
    assertThat(noPrevious.underPressure(now.plus(period).minusNanos(1))).isTrue();
    assertThat(noPrevious.underPressure(now.plus(period))).isFalse();
    MemoryPressureEviction previous = new MemoryPressureEviction(bytes("1Gi"), period);
    previous.observe(old, 0, 0);
    previous.observe(now, 0, 0);
    assertThat(previous.underPressure(now.plus(period).minusNanos(1))).as("observed at now").isTrue();
    MemoryPressureEviction oldObservation = new MemoryPressureEviction(bytes("1Gi"), period);
    oldObservation.observe(old, 0, 0);
    oldObservation.observe(now, bytes("2Gi"), 0);
    assertThat(oldObservation.underPressure(old.plus(period).minusNanos(1))).isTrue();
    assertThat(oldObservation.underPressure(old.plus(period))).as("kept at the old time").isFalse();
  }
}
