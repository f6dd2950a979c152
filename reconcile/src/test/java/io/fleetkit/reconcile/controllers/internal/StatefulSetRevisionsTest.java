package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ControllerRevision;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.apps.StatefulSetSpec;
import io.fleetkit.api.apps.StatefulSetStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes {@code pkg/controller/statefulset/stateful_set_control_test.go} (commit 50a86206):
 * {@code TestStatefulSetControl_getSetRevisions} (4 cases, upstream's names), with its secondary checks (revision
 * count after the call, current and update equal to the expected ones and with their revision numbers). Plus
 * {@code truncateHistory}'s rule on which revisions are live.
 */
final class StatefulSetRevisionsTest {

  private static StatefulSet withImage(StatefulSet set, String image) {
    StatefulSetSpec s = set.spec();
    PodTemplateSpec t = new PodTemplateSpec(s.template().metadata(), s.template().spec().toBuilder()
        .containers(List.of(StatefulSetPodsTest.container(image))).build());
    return set.withSpec(new StatefulSetSpec(s.replicas(), s.selector(), t, s.serviceName(), s.volumeClaimTemplates(),
        s.podManagementPolicy(), s.updateStrategy(), s.revisionHistoryLimit(), s.minReadySeconds(),
        s.persistentVolumeClaimRetentionPolicy(), s.ordinals()));
  }

  private static StatefulSet withTemplateLabel(StatefulSet set, String key, String value) {
    StatefulSetSpec s = set.spec();
    Map<String, String> labels = new HashMap<>(s.template().labels());
    labels.put(key, value);
    PodTemplateSpec t = new PodTemplateSpec(s.template().metadata().withLabels(labels), s.template().spec());
    return set.withSpec(new StatefulSetSpec(s.replicas(), s.selector(), t, s.serviceName(), s.volumeClaimTemplates(),
        s.podManagementPolicy(), s.updateStrategy(), s.revisionHistoryLimit(), s.minReadySeconds(),
        s.persistentVolumeClaimRetentionPolicy(), s.ordinals()));
  }

  private static StatefulSet withCurrentRevision(StatefulSet set, String current) {
    return set.withStatus(new StatefulSetStatus(0, 0, 0, 0, 0, 0, current, "", 0));
  }

  record Case(String name, List<ControllerRevision> existing, StatefulSet set, int expectedCount,
      ControllerRevision expectedCurrent, ControllerRevision expectedUpdate) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> getSetRevisions() {
    StatefulSet set = withCurrentRevision(StatefulSetPodsTest.newStatefulSet(3), "");
    ControllerRevision rev0 = StatefulSetRevisions.newRevision(set, 1, 0);
    StatefulSet set1 = withCurrentRevision(withImage(set, "foo"), rev0.metadata().name());
    ControllerRevision rev1 = StatefulSetRevisions.newRevision(set1, 2, 0);
    StatefulSet set2 = withCurrentRevision(withTemplateLabel(set1, "new", "label"), rev0.metadata().name());
    ControllerRevision rev2 = StatefulSetRevisions.newRevision(set2, 3, 0);
    return Stream.of(
        new Case("creates initial revision", List.of(), set, 1, rev0, rev0),
        new Case("creates revision on update", List.of(rev0), set1, 2, rev0, rev1),
        new Case("must not recreate a new revision of same set", List.of(rev0, rev1), set1, 2, rev0, rev1),
        new Case("must rollback to a previous revision", List.of(rev0, rev1, rev2), set1, 3, rev0,
            rev1.withRevision(4))).map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void getSetRevisions(Case c) {
    try (ObjectStore store = ObjectStore.inMemory()) {
      ControllerHistory history = new ControllerHistory(store);
      for (ControllerRevision r : c.existing()) {
        history.create(c.set(), r, 0);
      }
      List<ControllerRevision> revisions = new ArrayList<>(StatefulSetRevisions.list(history, c.set()));

      StatefulSetRevisions.Revisions got = StatefulSetRevisions.get(history, c.set(), revisions);

      assertThat(StatefulSetRevisions.list(history, c.set())).as("revisions").hasSize(c.expectedCount());
      assertThat(ControllerHistory.equalRevision(got.current(), c.expectedCurrent())).as("current").isTrue();
      assertThat(ControllerHistory.equalRevision(got.update(), c.expectedUpdate())).as("update").isTrue();
      assertThat(got.current().revision()).as("current revision").isEqualTo(c.expectedCurrent().revision());
      assertThat(got.update().revision()).as("update revision").isEqualTo(c.expectedUpdate().revision());
      assertThat(got.collisionCount()).isZero();
      // the update revision is stored as returned (a rollback renumbers the stored one)
      assertThat(store.require(ControllerRevision.class, "default", got.update().metadata().name()).revision())
          .isEqualTo(c.expectedUpdate().revision());
    }
  }

  // Not upstream: truncateHistory keeps the live revisions (current, update, those of pods) and deletes the oldest
  // of the others beyond the limit.
  @Test
  void truncateHistory_limitTwo_oldestNonLiveDeleted() {
    try (ObjectStore store = ObjectStore.inMemory()) {
      ControllerHistory history = new ControllerHistory(store);
      StatefulSet base = StatefulSetPodsTest.newStatefulSet(1);
      StatefulSetSpec s = base.spec();
      StatefulSet set = base.withSpec(new StatefulSetSpec(s.replicas(), s.selector(), s.template(), s.serviceName(),
          s.volumeClaimTemplates(), s.podManagementPolicy(), s.updateStrategy(), 2, s.minReadySeconds(),
        s.persistentVolumeClaimRetentionPolicy(), s.ordinals()));
      List<ControllerRevision> revisions = new ArrayList<>();
      for (int i = 0; i < 7; i++) {
        revisions.add(history.create(set, StatefulSetRevisions.newRevision(withImage(set, "img-" + i), i + 1, 0), 0)
            .revision());
      }
      Pod podOfRev1 = StatefulSetPodsTest.newStatefulSetPod(set, 0);
      podOfRev1 = podOfRev1.withMetadata(podOfRev1.metadata().toBuilder()
          .label(WorkloadLabels.CONTROLLER_REVISION_HASH, revisions.get(1).metadata().name()).build());

      List<ControllerRevision> deleted = StatefulSetRevisions.truncateHistory(history, set, List.of(podOfRev1),
          revisions, revisions.get(0), revisions.get(6));

      // live: 0 (current), 1 (a pod's), 6 (update); the others 2..5 keep the newest 2 (4, 5)
      assertThat(deleted).containsExactly(revisions.get(2), revisions.get(3));
      assertThat(store.list(ControllerRevision.class, "default").items()).extracting(ControllerRevision::revision)
          .containsExactlyInAnyOrder(1L, 2L, 5L, 6L, 7L);
    }
  }

  @Test
  void adoptOrphans_orphanMatchingSelector_controlledBySet() {
    try (ObjectStore store = ObjectStore.inMemory()) {
      ControllerHistory history = new ControllerHistory(store);
      StatefulSet set = StatefulSetPodsTest.newStatefulSet(1);
      ControllerRevision r = StatefulSetRevisions.newRevision(set, 1, 0);
      store.create(r.withMetadata(r.metadata().toBuilder().ownerReferences(List.of()).build()));
      List<ControllerRevision> revisions = new ArrayList<>(StatefulSetRevisions.list(history, set));

      StatefulSetRevisions.adoptOrphans(history, set, revisions);

      assertThat(revisions).singleElement().satisfies(x -> assertThat(x.metadata().controllerRef().uid())
          .isEqualTo("test"));
      ObjectMeta stored = store.require(ControllerRevision.class, "default", r.metadata().name()).metadata();
      assertThat(stored.controllerRef()).isNotNull();
    }
  }
}
