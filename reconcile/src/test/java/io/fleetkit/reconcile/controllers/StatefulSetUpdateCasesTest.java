package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.apps.StatefulSetUpdateStrategy;
import io.fleetkit.reconcile.controllers.StatefulSetHarness.Invariant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Update tables ported from upstream {@code pkg/controller/statefulset/stateful_set_control_test.go}:
 * {@code TestStatefulSetControlRollingUpdate} (6 cases), {@code TestStatefulSetControlOnDeleteUpdate} (6 cases),
 * {@code TestStatefulSetControlRollingUpdateWithPartition} (4 cases, partition 2) and {@code
 * TestStatefulSetControlRollback} (6 cases). Case names are upstream's. Each scales up "foo" (image nginx) to its
 * initial replicas, applies the update (image "foo", maybe a new replica count), syncs and readies pods until
 * settled, and checks the images by ordinal.
 */
final class StatefulSetUpdateCasesTest {
  private static final String O = StatefulSetHarness.ORIGINAL_IMAGE;

  record Case(String name, boolean burst, int initial, int replicas, List<String> afterUpdate,
      List<String> afterRestart) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static List<String> images(int n, int fooFrom) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(i >= fooFrom ? "foo" : O);
    }
    return out;
  }

  static Stream<Arguments> rollingUpdate() {
    return Stream.of(
        new Case("monotonic image update", false, 3, 3, images(3, 0), null),
        new Case("monotonic image update and scale up", false, 3, 5, images(5, 0), null),
        new Case("monotonic image update and scale down", false, 5, 3, images(3, 0), null),
        new Case("burst image update", true, 3, 3, images(3, 0), null),
        new Case("burst image update and scale up", true, 3, 5, images(5, 0), null),
        new Case("burst image update and scale down", true, 5, 3, images(3, 0), null)).map(Arguments::of);
  }

  static Stream<Arguments> onDelete() {
    return Stream.of(
        new Case("monotonic image update", false, 3, 3, images(3, 3), images(3, 0)),
        new Case("monotonic image update and scale up", false, 3, 5, images(5, 3), images(5, 0)),
        new Case("monotonic image update and scale down", false, 5, 3, images(3, 3), images(3, 0)),
        new Case("burst image update", true, 3, 3, images(3, 3), images(3, 0)),
        new Case("burst image update and scale up", true, 3, 5, images(5, 3), images(5, 0)),
        new Case("burst image update and scale down", true, 5, 3, images(3, 3), images(3, 0))).map(Arguments::of);
  }

  static Stream<Arguments> partition() {
    return Stream.of(
        new Case("monotonic image update", false, 3, 3, images(3, 2), null),
        new Case("monotonic image update and scale up", false, 3, 5, images(5, 2), null),
        new Case("burst image update", true, 3, 3, images(3, 2), null),
        new Case("burst image update and scale up", true, 3, 5, images(5, 2), null)).map(Arguments::of);
  }

  private static Invariant invariants(Case c) {
    return c.burst() ? StatefulSetHarness::burstInvariants : StatefulSetHarness::monotonicInvariants;
  }

  private static StatefulSetHarness scaledUp(Case c, StatefulSet set) {
    StatefulSetHarness h = new StatefulSetHarness();
    h.store.create(c.burst() ? StatefulSetHarness.burst(set) : set);
    h.scaleUp(invariants(c));
    h.update(s -> StatefulSetHarness.withImage(s.withReplicas(c.replicas()), "foo"));
    h.updateUntilSettled(StatefulSetHarness::updateInvariants);
    return h;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rollingUpdate")
  void rollingUpdate_imageChange_allPodsUpdated(Case c) {
    try (StatefulSetHarness h = scaledUp(c, StatefulSetHarness.newStatefulSet(c.initial()))) {
      assertThat(h.images()).isEqualTo(c.afterUpdate());
      StatefulSet s = h.set();
      assertThat(s.status().updatedReplicas()).isEqualTo(c.replicas());
      assertThat(s.status().currentRevision()).isEqualTo(s.status().updateRevision());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("onDelete")
  void onDelete_imageChange_podsKeepOldUntilRestarted(Case c) {
    StatefulSet set = StatefulSetHarness.withStrategy(StatefulSetHarness.newStatefulSet(c.initial()),
        StatefulSetUpdateStrategy.ON_DELETE);
    try (StatefulSetHarness h = scaledUp(c, set)) {
      assertThat(h.images()).as("validateUpdate").isEqualTo(c.afterUpdate());
      int replicas = h.set().spec().replicas();
      h.scale(0);
      h.scaleDown(invariants(c));
      h.scale(replicas);
      h.scaleUp(invariants(c));
      assertThat(h.images()).as("validateRestart").isEqualTo(c.afterRestart());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("partition")
  void partition_imageChange_onlyOrdinalsAtOrAbovePartitionUpdated(Case c) {
    StatefulSet set = StatefulSetHarness.withPartition(StatefulSetHarness.newStatefulSet(c.initial()), 2);
    try (StatefulSetHarness h = scaledUp(c, set)) {
      assertThat(h.images()).isEqualTo(c.afterUpdate());
      StatefulSet s = h.set();
      assertThat(s.status().currentReplicas()).isEqualTo(2);
      assertThat(s.status().updatedReplicas()).isEqualTo(c.replicas() - 2);
    }
  }

  /**
   * {@code TestStatefulSetControlRollback} (its 6 cases are the rolling-update ones): after the update, upstream
   * applies the oldest ControllerRevision, which restores the original template; FleetKit has no ControllerRevision
   * objects, so the test restores the original template (image) itself and checks every pod is back on it.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("rollingUpdate")
  void rollback_originalTemplateRestored_allPodsBackOnIt(Case c) {
    try (StatefulSetHarness h = scaledUp(c, StatefulSetHarness.newStatefulSet(c.initial()))) {
      assertThat(h.images()).as("validateUpdate").isEqualTo(c.afterUpdate());
      h.update(s -> StatefulSetHarness.withImage(s, O));
      h.updateUntilSettled(StatefulSetHarness::updateInvariants);
      assertThat(h.images()).as("validateRollback").isEqualTo(images(c.replicas(), c.replicas()));
    }
  }
}
