package io.fleetkit.reconcile.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.ControllerRevision;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.apps.StatefulSetSpec;
import io.fleetkit.api.apps.StatefulSetStatus;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.store.ObjectStore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Invariants of a StatefulSet's history under any sequence of template changes (images from a small set, so that
 * rollbacks to earlier templates happen), one sync each ({@code getStatefulSetRevisions}, then
 * {@code truncateHistory}): the update revision holds the set's template and has the highest number, numbers are
 * unique, no two revisions hold the same template, and besides the current and update revision at most
 * {@code revisionHistoryLimit} remain.
 */
final class StatefulSetRevisionsPropertyTest {

  private static StatefulSet withImageAndLimit(StatefulSet set, String image, int limit, String currentRevision) {
    StatefulSetSpec s = set.spec();
    PodTemplateSpec t = new PodTemplateSpec(s.template().metadata(), s.template().spec().toBuilder()
        .containers(List.of(StatefulSetPodsTest.container(image))).build());
    return set.withSpec(new StatefulSetSpec(s.replicas(), s.selector(), t, s.serviceName(), s.volumeClaimTemplates(),
        s.podManagementPolicy(), s.updateStrategy(), limit, s.minReadySeconds(),
        s.persistentVolumeClaimRetentionPolicy(), s.ordinals()))
        .withStatus(new StatefulSetStatus(0, 0, 0, 0, 0, 0, currentRevision, "", 0));
  }

  @Property(tries = 100)
  void anyTemplateSequence_historyInvariantsHold(
      @ForAll @Size(min = 1, max = 25) List<@IntRange(min = 0, max = 4) Integer> images,
      @ForAll @IntRange(min = 0, max = 3) int limit) {
    try (ObjectStore store = ObjectStore.inMemory()) {
      ControllerHistory history = new ControllerHistory(store);
      String current = "";
      for (int image : images) {
        StatefulSet set = withImageAndLimit(StatefulSetPodsTest.newStatefulSet(1), "img-" + image, limit, current);
        List<ControllerRevision> revisions = new ArrayList<>(StatefulSetRevisions.list(history, set));
        StatefulSetRevisions.Revisions r = StatefulSetRevisions.get(history, set, revisions);
        StatefulSetRevisions.truncateHistory(history, set, List.of(), revisions, r.current(), r.update());
        current = r.update().metadata().name(); // as if the rolling update completed

        List<ControllerRevision> stored = store.list(ControllerRevision.class, "default").items();
        assertThat(r.update().data()).isEqualTo(set.spec().template());
        assertThat(stored).extracting(ControllerRevision::revision).doesNotHaveDuplicates()
            .allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(r.update().revision()));
        Set<PodTemplateSpec> templates = new HashSet<>();
        for (ControllerRevision c : stored) {
          assertThat(templates.add(c.data())).as("one revision per template").isTrue();
        }
        assertThat(stored.size()).isLessThanOrEqualTo(limit + 2);
        assertThat(stored).extracting(c -> c.metadata().name()).contains(r.update().metadata().name(),
            r.current().metadata().name());
      }
    }
  }
}
