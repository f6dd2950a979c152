package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.labels.LabelSelectorOperator;
import io.fleetkit.api.labels.LabelSelectorRequirement;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.policy.PodDisruptionBudgetSpec;
import io.fleetkit.api.policy.PodDisruptionBudgetStatus;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.controllers.DisruptionController;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The disruption controller's {@code UnmanagedPods} event (kubernetes {@code pkg/controller/disruption/disruption.go}
 * {@code trySync}, {@code getExpectedScale}), with upstream's TestTotalUnmanagedPods
 * ({@code disruption_test.go}): the budget "foobar" at minAvailable 28% selecting foo=bar, one ready pod without a
 * controller.
 */
final class DisruptionReconcilerUnmanagedPodsTest {
  private static final Map<String, String> FOO_BAR = Map.of("foo", "bar");
  private static final PodSpec SPEC = PodSpec.builder().container("c", "img", ResourceList.EMPTY).build();

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
  private final List<String> events = new ArrayList<>();
  private final DisruptionController dc = DisruptionController.builder(store).clock(clock).stepping()
      .events((regarding, related, type, reason, action, note) -> events.add(type + " " + reason + " " + action
          + " " + regarding.kind() + "/" + regarding.name() + ": " + note)).build();

  DisruptionReconcilerUnmanagedPodsTest() {
    dc.start().join();
  }

  @AfterEach
  void close() {
    dc.close();
    store.close();
  }

  private void sync() {
    dc.controller().enqueue(ObjectKey.of("default", "foobar"));
    dc.runUntilIdle();
  }

  private Pod readyPod(String name) {
    Pod p = store.create(Pod.of(ObjectMeta.builder().namespace("default").name(name).labels(FOO_BAR).build(), SPEC));
    return store.updateStatus(p.withStatus(p.status().withCondition(
        PodCondition.of(PodCondition.READY, ConditionStatus.True, "", "", clock.now()))));
  }

  private PodDisruptionBudget pdb() {
    return store.require(PodDisruptionBudget.class, "default", "foobar");
  }

  // upstream TestTotalUnmanagedPods
  @Test
  void totalUnmanagedPods_oneCollected_noStatusError_eventEmitted() {
    store.create(PodDisruptionBudget.of(ObjectMeta.of("default", "foobar"),
        PodDisruptionBudgetSpec.minAvailable(LabelSelector.of(FOO_BAR), IntOrPercent.ofPercent(28))));
    sync();
    assertThat(pdb().status().disruptionsAllowed()).isZero();

    Pod pod = readyPod("unmanaged");
    sync();
    DisruptionReconciler.Scale scale = DisruptionReconciler.expectedScale(store, List.of(pod));
    assertThat(scale.unmanagedPods()).containsExactly("unmanaged");
    assertThat(scale.expected()).isZero();
    assertThat(pdb().status().conditions()).noneMatch(c -> c.reason().equals(PodDisruptionBudgetStatus.SYNC_FAILED));
    assertThat(events).contains("Warning UnmanagedPods Sync PodDisruptionBudget/foobar: Pods selected by this "
        + "PodDisruptionBudget (selector: &LabelSelector{MatchLabels:map[string]string{foo: bar,},"
        + "MatchExpressions:[]LabelSelectorRequirement{},}) were found to be unmanaged. As a result, the status of "
        + "the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods "
        + "please set \".spec.minAvailable\" field of the PDB to an integer value.");
  }

  @Test
  void integerMinAvailable_unmanagedPodsNotLookedFor_noEvent() {
    // upstream's getExpectedPodCount counts the pods themselves for an integer minAvailable: no getExpectedScale
    store.create(PodDisruptionBudget.of(ObjectMeta.of("default", "foobar"),
        PodDisruptionBudgetSpec.minAvailable(LabelSelector.of(FOO_BAR), IntOrPercent.of(1))));
    readyPod("unmanaged");
    sync();
    assertThat(pdb().status().expectedPods()).isEqualTo(1);
    assertThat(events).noneMatch(e -> e.contains("UnmanagedPods"));
  }

  @Test
  void everyPodManaged_noUnmanagedPodsEvent() {
    store.create(PodDisruptionBudget.of(ObjectMeta.of("default", "foobar"),
        PodDisruptionBudgetSpec.maxUnavailable(LabelSelector.of(FOO_BAR), IntOrPercent.of(1))));
    sync();
    assertThat(events).isNotEmpty()
        .allMatch(e -> e.equals("Normal NoPods Sync PodDisruptionBudget/foobar: No matching pods found"));
    events.clear();
    ReplicaSet rs = store.create(ReplicaSet.builder().namespace("default").name("foobar").replicas(3)
        .matchLabels(FOO_BAR).podSpec(SPEC).build());
    Pod p = store.create(Pod.of(ObjectMeta.builder().namespace("default").name("pod").labels(FOO_BAR)
        .ownerReference(OwnerReference.controllerOf(rs)).build(), SPEC));
    store.updateStatus(p.withStatus(p.status().withCondition(
        PodCondition.of(PodCondition.READY, ConditionStatus.True, "", "", clock.now()))));
    sync();
    assertThat(pdb().status().expectedPods()).isEqualTo(3);
    assertThat(events).isEmpty();
  }

  @Test
  void goString_asMetav1LabelSelectorString() {
    LabelSelector s = new LabelSelector(Map.of("b", "2", "a", "1"), List.of(
        new LabelSelectorRequirement("tier", LabelSelectorOperator.In, List.of("web", "api")),
        new LabelSelectorRequirement("canary", LabelSelectorOperator.DoesNotExist, List.of())));
    assertThat(DisruptionReconciler.goString(s)).isEqualTo("&LabelSelector{MatchLabels:map[string]string{a: 1,b: 2,},"
        + "MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:tier,Operator:In,"
        + "Values:[web api],},LabelSelectorRequirement{Key:canary,Operator:DoesNotExist,Values:[],},},}");
    assertThat(DisruptionReconciler.goString(LabelSelector.EVERYTHING))
        .isEqualTo("&LabelSelector{MatchLabels:map[string]string{},MatchExpressions:[]LabelSelectorRequirement{},}");
    assertThat(DisruptionReconciler.goString(null)).isEqualTo("nil");
  }

  @Test
  void faultyRecorder_syncStillWritesTheStatus() {
    try (ObjectStore s = ObjectStore.builder().directDelivery().clock(clock.asClock()).build();
        DisruptionController faulty = DisruptionController.builder(s).clock(clock).stepping()
            .events((regarding, related, type, reason, action, note) -> {
              throw new IllegalStateException("recorder down");
            }).build()) {
      faulty.start().join();
      s.create(PodDisruptionBudget.of(ObjectMeta.of("default", "foobar"),
          PodDisruptionBudgetSpec.minAvailable(LabelSelector.of(FOO_BAR), IntOrPercent.ofPercent(28))));
      Pod p = s.create(Pod.of(ObjectMeta.builder().namespace("default").name("unmanaged").labels(FOO_BAR).build(),
          SPEC));
      s.updateStatus(p.withStatus(p.status().withCondition(
          PodCondition.of(PodCondition.READY, ConditionStatus.True, "", "", clock.now()))));
      faulty.controller().enqueue(ObjectKey.of("default", "foobar"));
      faulty.runUntilIdle();
      PodDisruptionBudgetStatus st = s.require(PodDisruptionBudget.class, "default", "foobar").status();
      assertThat(st.currentHealthy()).isEqualTo(1);
      assertThat(st.conditions()).noneMatch(c -> c.reason().equals(PodDisruptionBudgetStatus.SYNC_FAILED));
    }
  }
}
