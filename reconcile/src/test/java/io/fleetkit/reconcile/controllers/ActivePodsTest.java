package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.reconcile.controllers.ActivePods.RankedPod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes/kubernetes pkg/controller/controller_utils_test.go: TestSortingActivePods (1 case, 9
 * pods, 20 shuffles) and TestSortingActivePodsWithRanks (11 equality cases, 15 inequality cases; the one with
 * PodDeletionCost disabled is not ported because the gate is always on here).
 */
final class ActivePodsTest {
  static final Instant NOW = Instant.parse("2024-06-01T12:00:00Z");
  static final Instant THEN_1_MONTH = NOW.atZone(java.time.ZoneOffset.UTC).minusMonths(1).toInstant();
  static final Instant THEN_2_HOURS = NOW.minus(Duration.ofHours(2));
  static final Instant THEN_5_HOURS = NOW.minus(Duration.ofHours(5));
  static final Instant THEN_8_HOURS = NOW.minus(Duration.ofHours(8));

  static Pod pod(String name, String node, PodPhase phase, @Nullable Instant readySince, boolean ready,
      @Nullable Instant created, Map<String, String> annotations, int... restarts) {
    // upstream names are camelCase; ours must be DNS-1123, so they are kebab-cased
    ObjectMeta meta = ObjectMeta.builder().namespace("default").name(name.replaceAll("([A-Z])", "-$1").toLowerCase(java.util.Locale.ROOT)).annotations(annotations)
        .creationTimestamp(created).build();
    List<PodCondition> conditions = ready
        ? List.of(PodCondition.of(PodCondition.READY, ConditionStatus.True, "", "", readySince)) : List.of();
    List<ContainerStatus> cs = new ArrayList<>();
    for (int i = 0; i < restarts.length; i++) {
      cs.add(new ContainerStatus("c" + i, ready, restarts[i], ContainerState.WAITING));
    }
    PodStatus status = new PodStatus(phase, conditions, "", "", null, cs, "", "");
    return new Pod(meta, PodSpec.builder().container("app", "img", io.fleetkit.api.resource.ResourceList.EMPTY)
        .nodeName(node).build(), status);
  }

  /** The {@code pod(...)} helper of TestSortingActivePodsWithRanks. */
  static Pod rp(String name, String node, PodPhase phase, boolean ready, int restarts, @Nullable Instant readySince,
      @Nullable Instant created, Map<String, String> annotations) {
    return ready ? pod(name, node, phase, readySince, true, created, annotations, restarts)
        : pod(name, node, phase, null, false, created, annotations);
  }

  @Test
  void order_sortingActivePods_matchesUpstreamOrderUnderShuffles() {
    Instant then = THEN_1_MONTH;
    List<Pod> pods = List.of(
        pod("unscheduled", "", PodPhase.Pending, null, false, null, Map.of()),
        pod("scheduledButPending", "bar", PodPhase.Pending, null, false, null, Map.of()),
        pod("unknownPhase", "foo", PodPhase.Unknown, null, false, null, Map.of()),
        pod("runningButNotReady", "foo", PodPhase.Running, null, false, null, Map.of()),
        pod("runningNoLastTransitionTime", "foo", PodPhase.Running, null, true, null, Map.of(), 3, 0),
        pod("runningWithLastTransitionTime", "foo", PodPhase.Running, NOW, true, null, Map.of(), 3, 0),
        pod("runningLongerTime", "foo", PodPhase.Running, then, true, null, Map.of(), 3, 0),
        pod("lowerContainerRestartCount", "foo", PodPhase.Running, then, true, NOW, Map.of(), 2, 1),
        pod("oldest", "foo", PodPhase.Running, then, true, then, Map.of(), 2, 1));
    List<String> want = pods.stream().map(p -> p.metadata().name()).toList();
    Random random = new Random(42);
    for (int i = 0; i < 20; i++) {
      List<Pod> shuffled = new ArrayList<>(pods);
      Collections.shuffle(shuffled, random);
      shuffled.sort(ActivePods.order());
      assertThat(shuffled).extracting(p -> p.metadata().name()).containsExactlyElementsOf(want);
    }
  }

  static final Pod UNSCHEDULED = rp("unscheduled", "", PodPhase.Pending, false, 0, null, null, Map.of());
  static final Pod SCHEDULED_PENDING = rp("pending", "node", PodPhase.Pending, false, 0, null, null, Map.of());
  static final Pod UNKNOWN_PHASE = rp("unknown-phase", "node", PodPhase.Unknown, false, 0, null, null, Map.of());
  static final Pod RUNNING_NOT_READY = rp("not-ready", "node", PodPhase.Running, false, 0, null, null, Map.of());
  static final Pod READY_NO_LTT = rp("ready-no-last-transition-time", "node", PodPhase.Running, true, 0, null, null,
      Map.of());
  static final Pod READY_NOW = rp("ready-now", "node", PodPhase.Running, true, 0, NOW, NOW, Map.of());
  static final Pod READY_THEN = rp("ready-then", "node", PodPhase.Running, true, 0, THEN_1_MONTH, THEN_1_MONTH,
      Map.of());
  static final Pod READY_NOW_HIGH_RESTARTS = rp("ready-high-restarts", "node", PodPhase.Running, true, 9001, NOW,
      NOW, Map.of());
  static final Pod READY_NOW_CREATED_THEN = rp("ready-now-created-then", "node", PodPhase.Running, true, 0, NOW,
      THEN_1_MONTH, Map.of());
  static final Pod LOW_COST = rp("low-deletion-cost", "node", PodPhase.Running, true, 0, NOW, THEN_1_MONTH,
      Map.of(WorkloadLabels.POD_DELETION_COST, "10"));
  static final Pod HIGH_COST = rp("high-deletion-cost", "node", PodPhase.Running, true, 0, NOW, THEN_1_MONTH,
      Map.of(WorkloadLabels.POD_DELETION_COST, "100"));
  static final Pod UNSCHEDULED_5H = rp("unscheduled-5-hours", "", PodPhase.Pending, false, 0, THEN_5_HOURS,
      THEN_5_HOURS, Map.of());
  static final Pod UNSCHEDULED_8H = rp("unscheduled-10-hours", "", PodPhase.Pending, false, 0, THEN_8_HOURS,
      THEN_8_HOURS, Map.of());
  static final Pod READY_2H = rp("ready-2-hours", "", PodPhase.Running, true, 0, THEN_2_HOURS, THEN_1_MONTH,
      Map.of());
  static final Pod READY_5H = rp("ready-5-hours", "", PodPhase.Running, true, 0, THEN_5_HOURS, THEN_1_MONTH,
      Map.of());
  static final Pod READY_10H = rp("ready-10-hours", "", PodPhase.Running, true, 0, THEN_8_HOURS, THEN_1_MONTH,
      Map.of());

  static List<Pod[]> equalityCases() {
    return List.of(new Pod[] {UNSCHEDULED, UNSCHEDULED}, new Pod[] {SCHEDULED_PENDING, SCHEDULED_PENDING},
        new Pod[] {UNKNOWN_PHASE, UNKNOWN_PHASE}, new Pod[] {RUNNING_NOT_READY, RUNNING_NOT_READY},
        new Pod[] {READY_NOW_CREATED_THEN, READY_NOW_CREATED_THEN}, new Pod[] {READY_NOW, READY_NOW},
        new Pod[] {READY_THEN, READY_THEN}, new Pod[] {READY_NOW_HIGH_RESTARTS, READY_NOW_HIGH_RESTARTS},
        new Pod[] {READY_NOW_CREATED_THEN, READY_NOW_CREATED_THEN}, new Pod[] {UNSCHEDULED_5H, UNSCHEDULED_8H},
        new Pod[] {READY_5H, READY_10H});
  }

  @ParameterizedTest
  @MethodSource("equalityCases")
  void withRanks_equalityCase_neitherLess(Pod p1, Pod p2) {
    Comparator<RankedPod> c = ActivePods.withRanks(NOW);
    assertThat(c.compare(new RankedPod(p1, 1), new RankedPod(p2, 1))).isZero();
    assertThat(c.compare(new RankedPod(p2, 1), new RankedPod(p1, 1))).isZero();
  }

  static List<Object[]> inequalityCases() {
    return List.of(
        new Object[] {UNSCHEDULED, 1, SCHEDULED_PENDING, 2},
        new Object[] {UNSCHEDULED, 2, SCHEDULED_PENDING, 1},
        new Object[] {SCHEDULED_PENDING, 1, UNKNOWN_PHASE, 2},
        new Object[] {UNKNOWN_PHASE, 1, RUNNING_NOT_READY, 2},
        new Object[] {RUNNING_NOT_READY, 1, READY_NO_LTT, 1},
        new Object[] {READY_NO_LTT, 1, READY_NOW, 1},
        new Object[] {READY_NOW, 2, READY_NO_LTT, 1},
        new Object[] {READY_NOW, 1, READY_THEN, 1},
        new Object[] {READY_NOW, 2, READY_THEN, 1},
        new Object[] {READY_NOW_HIGH_RESTARTS, 1, READY_NOW, 1},
        new Object[] {READY_NOW, 2, READY_NOW_HIGH_RESTARTS, 1},
        new Object[] {READY_NOW, 1, READY_NOW_CREATED_THEN, 1},
        new Object[] {READY_NOW_CREATED_THEN, 2, READY_NOW, 1},
        new Object[] {LOW_COST, 2, HIGH_COST, 1},
        new Object[] {READY_2H, 1, READY_5H, 1});
  }

  @ParameterizedTest
  @MethodSource("inequalityCases")
  void withRanks_inequalityCase_lesserFirst(Pod lesser, int lesserRank, Pod greater, int greaterRank) {
    Comparator<RankedPod> c = ActivePods.withRanks(NOW);
    RankedPod l = new RankedPod(lesser, lesserRank);
    RankedPod g = new RankedPod(greater, greaterRank);
    assertThat(c.compare(l, g)).as("%s < %s", lesser.metadata().name(), greater.metadata().name()).isNegative();
    assertThat(c.compare(g, l)).isPositive();
  }

  @Test
  void isAvailable_minReadySeconds_countsFromReadyTransition() {
    Pod p = pod("p", "n", PodPhase.Running, NOW, true, NOW, Map.of());
    assertThat(ActivePods.isAvailable(p, 0, NOW)).isTrue();
    assertThat(ActivePods.isAvailable(p, 10, NOW.plusSeconds(10))).isFalse();
    assertThat(ActivePods.isAvailable(p, 10, NOW.plusSeconds(11))).isTrue();
    assertThat(ActivePods.isAvailable(RUNNING_NOT_READY, 0, NOW)).isFalse();
  }

  @Test
  void isActive_terminalOrDeleting_false() {
    assertThat(ActivePods.isActive(READY_NOW)).isTrue();
    assertThat(ActivePods.isActive(READY_NOW.withStatus(READY_NOW.status().withPhase(PodPhase.Failed)))).isFalse();
    assertThat(ActivePods.isActive(READY_NOW.withMetadata(READY_NOW.metadata().toBuilder()
        .deletionTimestamp(NOW).build()))).isFalse();
  }

  private static Pod costed(String cost) {
    return Pod.builder().namespace("ns").name("p").annotation(WorkloadLabels.POD_DELETION_COST, cost)
        .spec(PodSpec.builder().container("c", "img", io.fleetkit.api.resource.ResourceList.ofCpuMemory(100, 0))
            .build()).build();
  }

  /**
   * getDeletionCostFromPodAnnotations: validFirstDigit, then strconv.ParseInt(value, 10, 32). Integer.parseInt read
   * "\u0663" (Arabic-Indic three) as 3 and took "+10", "008" and " 5"; upstream counts each as 0.
   */
  @Test
  void deletionCost_upstreamGrammar_othersCountAsZero() {
    assertThat(ActivePods.deletionCost(costed("10"))).isEqualTo(10);
    assertThat(ActivePods.deletionCost(costed("-5"))).isEqualTo(-5);
    assertThat(ActivePods.deletionCost(costed("0"))).isZero();
    assertThat(ActivePods.deletionCost(costed("2147483647"))).isEqualTo(Integer.MAX_VALUE);
    for (String bad : new String[] {"\u0663", "\uff11\uff10", "1\u0663", "+10", "008", " 5", "5 ", "",
        "2147483648", "abc"}) {
      assertThat(ActivePods.deletionCost(costed(bad))).as("\"%s\"", bad).isZero();
    }
  }
}
