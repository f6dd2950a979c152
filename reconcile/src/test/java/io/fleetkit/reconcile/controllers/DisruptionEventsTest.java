package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.policy.PodDisruptionBudgetSpec;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.reconcile.ObjectKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The disruption controller's events (kubernetes {@code pkg/controller/disruption/disruption.go} {@code trySync}):
 * {@code NoPods} when the budget selects no pod, {@code CalculateExpectedPodCountFailed} when a selected pod's
 * controller has no known scale (the fixture of upstream's TestUnsupportedControllerPod).
 */
final class DisruptionEventsTest {
  private static final Map<String, String> FOO_BAR = Map.of("foo", "bar");
  private static final PodSpec SPEC = PodSpec.builder().container("c", "img", ResourceList.EMPTY).build();

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = Sim.store(clock);
  private final java.util.List<String> events = new java.util.ArrayList<>();
  private final DisruptionController dc = DisruptionController.builder(store).clock(clock).stepping()
      .events((regarding, related, type, reason, action, note) -> events.add(type + " " + reason + " "
          + regarding.kind() + "/" + regarding.name() + ": " + note)).build();

  DisruptionEventsTest() {
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

  @Test
  void noSelectedPod_noPods_thenUnknownController_calculateExpectedPodCountFailed() {
    store.create(PodDisruptionBudget.of(ObjectMeta.of("default", "foobar"),
        PodDisruptionBudgetSpec.minAvailable(LabelSelector.of(FOO_BAR), IntOrPercent.ofPercent(28))));
    sync();
    assertThat(events).contains("Normal NoPods PodDisruptionBudget/foobar: No matching pods found");

    events.clear();
    ObjectMeta m = ObjectMeta.builder().namespace("default").name("naked").labels(FOO_BAR)
        .ownerReference(new OwnerReference("apps.test.io/v1", "TestWorkload", "fake-controller",
            "b7329742-8daa-493a-8881-6ca07139172b", true, false)).build();
    store.create(Pod.of(m, SPEC));
    sync();
    assertThat(events).isNotEmpty().allSatisfy(e -> assertThat(e).startsWith(
        "Warning CalculateExpectedPodCountFailed PodDisruptionBudget/foobar: Failed to calculate the number of "
            + "expected pods: "));
    assertThat(events).noneMatch(e -> e.contains("NoPods"));
  }
}
