package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.apps.ControllerRevision;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.apps.StatefulSetUpdateStrategy;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.ForwardingObjectStore;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.controllers.StatefulSetHarness.Invariant;
import io.fleetkit.reconcile.controllers.internal.ControllerHistory;
import io.fleetkit.reconcile.controllers.internal.StatefulSetRevisions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Update tables ported from upstream {@code pkg/controller/statefulset/stateful_set_control_test.go} (commit
 * 50a86206): {@code TestStatefulSetControlRollingUpdate} (6 cases), {@code TestStatefulSetControlOnDeleteUpdate} (6
 * cases), {@code TestStatefulSetControlRollingUpdateWithPartition} (4 cases, partition 2),
 * {@code TestStatefulSetControlRollback} (6 cases), {@code TestStatefulSetControlLimitsHistory} (2 cases) and
 * {@code TestStatefulSetHonorRevisionHistoryLimit}. Case names are upstream's. Each scales up "foo" (image nginx) to its
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
   * {@code TestStatefulSetControlRollback} (its 6 cases are the rolling-update ones): after the update, as upstream,
   * the oldest ControllerRevision is applied to the set (its template restored) and every pod must be back on the
   * original image. Also checked: the rollback reused that revision, renumbered to be the newest (upstream's
   * getStatefulSetRevisions), and created none.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("rollingUpdate")
  void rollback_oldestRevisionApplied_allPodsBackOnIt(Case c) {
    try (StatefulSetHarness h = scaledUp(c, StatefulSetHarness.newStatefulSet(c.initial()))) {
      assertThat(h.images()).as("validateUpdate").isEqualTo(c.afterUpdate());
      List<ControllerRevision> revisions = new ArrayList<>(h.revisions());
      ControllerHistory.sort(revisions);
      ControllerRevision oldest = revisions.get(0);
      long newest = revisions.get(revisions.size() - 1).revision();
      h.update(s -> StatefulSetRevisions.applyRevision(h.set(), oldest).spec());
      h.updateUntilSettled(StatefulSetHarness::updateInvariants);
      assertThat(h.images()).as("validateRollback").isEqualTo(images(c.replicas(), c.replicas()));
      StatefulSet s = h.set();
      assertThat(s.status().updateRevision()).isEqualTo(oldest.metadata().name());
      assertThat(s.status().currentRevision()).isEqualTo(oldest.metadata().name());
      assertThat(h.revisions()).hasSize(revisions.size());
      assertThat(h.store.require(ControllerRevision.class, "default", oldest.metadata().name()).revision())
          .isEqualTo(newest + 1);
    }
  }

  static Stream<Arguments> limitsHistory() {
    return Stream.of(Arguments.of("monotonic update", false), Arguments.of("burst update", true));
  }

  /**
   * {@code TestStatefulSetControlLimitsHistory} (2 cases): ten image updates, each run to the end and synced once
   * more; the set never has more than {@code revisionHistoryLimit} (2) + 2 revisions (current and update are live).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource
  void limitsHistory(String name, boolean burst) {
    StatefulSet set = StatefulSetHarness.newStatefulSet(3);
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      h.store.create(burst ? StatefulSetHarness.burst(set) : set);
      h.scaleUp(burst ? StatefulSetHarness::burstInvariants : StatefulSetHarness::monotonicInvariants);
      for (int i = 0; i < 10; i++) {
        String image = "foo-" + i;
        h.update(s -> StatefulSetHarness.withImage(s, image));
        h.updateUntilSettled(StatefulSetHarness::updateInvariants);
        h.controller.runUntilIdle();
        assertThat(h.revisions().size()).as("revisions after update %d", i)
            .isLessThanOrEqualTo(h.set().spec().revisionHistoryLimit() + 2);
        assertThat(h.images()).as("images after update %d", i).containsOnly(image);
      }
    }
  }

  /** Upstream's {@code SetUpdateStatefulSetStatusError}: the next StatefulSet status write fails, once. */
  private static final class FailingStatusWrites extends ForwardingObjectStore {
    private final AtomicBoolean failNext = new AtomicBoolean();

    FailingStatusWrites(ObjectStore delegate) {
      super(delegate);
    }

    @Override
    public <T extends ApiObject<T>> T updateStatus(T object) {
      if (object instanceof StatefulSet && failNext.compareAndSet(true, false)) {
        throw new FleetKitException("API server failed");
      }
      return super.updateStatus(object);
    }
  }

  /**
   * {@code TestStatefulSetHonorRevisionHistoryLimit}: {@code revisionHistoryLimit} + 5 image updates, the first
   * status write of each failing; the history is still truncated (upstream truncates whether or not the status write
   * succeeded), so there are never more than limit + 2 revisions.
   */
  @org.junit.jupiter.api.Test
  void honorRevisionHistoryLimit_statusWritesFail_historyStillTruncated() {
    FailingStatusWrites[] view = new FailingStatusWrites[1];
    try (StatefulSetHarness h = new StatefulSetHarness(s -> view[0] = new FailingStatusWrites(s))) {
      h.store.create(StatefulSetHarness.newStatefulSet(3));
      h.scaleUp(StatefulSetHarness::monotonicInvariants);
      int limit = h.set().spec().revisionHistoryLimit();
      for (int i = 0; i < limit + 5; i++) {
        String image = "foo-" + i;
        view[0].failNext.set(true);
        h.update(s -> StatefulSetHarness.withImage(s, image));
        h.updateUntilSettled(StatefulSetHarness::updateInvariants);
        assertThat(view[0].failNext).as("a status write failed in update %d", i).isFalse();
        // the extra 2 revisions are the current and the update revision, live, which truncation keeps
        assertThat(h.revisions().size()).as("revisions after update %d", i).isLessThanOrEqualTo(limit + 2);
      }
    }
  }
}
