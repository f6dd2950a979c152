package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.apps.ControllerRevision;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A StatefulSet's revisions, after {@code pkg/controller/statefulset/stateful_set_control.go}
 * ({@code getStatefulSetRevisions}, {@code truncateHistory}, {@code AdoptOrphanRevisions}) and
 * {@code stateful_set_utils.go} ({@code newRevision}, {@code ApplyRevision}, {@code nextRevision}), over a
 * {@link ControllerHistory}. Stateless; thread-safe.
 */
public final class StatefulSetRevisions {
  private StatefulSetRevisions() {}

  /**
   * The current and update revisions of a set, and the collision count their names needed.
   *
   * @param current the revision of {@code status.currentRevision}, or the update revision when there is none
   * @param update the revision of the set's template
   * @param collisionCount what {@code status.collisionCount} becomes
   */
  public record Revisions(ControllerRevision current, ControllerRevision update, int collisionCount) {
    public Revisions {
      Objects.requireNonNull(current, "current");
      Objects.requireNonNull(update, "update");
    }
  }

  /**
   * Upstream's {@code newRevision}: a revision of the set's template numbered {@code revision}, controlled by the
   * set, labelled with the template's labels and annotated with the set's annotations.
   */
  public static ControllerRevision newRevision(StatefulSet set, long revision, @Nullable Integer collisionCount) {
    ControllerRevision cr = ControllerHistory.newRevision(set, set.spec().template().labels(), set.spec().template(),
        revision, collisionCount);
    Map<String, String> annotations = set.metadata().annotations();
    if (annotations.isEmpty()) {
      return cr;
    }
    ObjectMeta.Builder m = cr.metadata().toBuilder();
    annotations.forEach(m::annotation);
    return cr.withMetadata(m.build());
  }

  /** Upstream's {@code ApplyRevision}: {@code set} with the template of {@code revision}. */
  public static StatefulSet applyRevision(StatefulSet set, ControllerRevision revision) {
    return set.withSpec(set.spec().withTemplate(revision.data()));
  }

  /** Upstream's {@code ListRevisions}: the set's revisions and the orphans its selector matches. */
  public static List<ControllerRevision> list(ControllerHistory history, StatefulSet set) {
    return history.list(set, set.spec().selector());
  }

  /**
   * Upstream's {@code adoptOrphanRevisions} and {@code AdoptOrphanRevisions}: every revision of {@code revisions}
   * without a controller gets {@code set} as its controller; the list is updated in place. A set being deleted
   * adopts nothing (upstream fails the sync instead; FleetKit's pod adoption skips it the same way).
   */
  public static void adoptOrphans(ControllerHistory history, StatefulSet set, List<ControllerRevision> revisions) {
    if (set.metadata().deletionTimestamp() != null) {
      return;
    }
    for (int i = 0; i < revisions.size(); i++) {
      OwnerReference ref = revisions.get(i).metadata().controllerRef();
      if (ref == null) {
        revisions.set(i, history.adopt(set, revisions.get(i)));
      }
    }
  }

  /**
   * Upstream's {@code getStatefulSetRevisions}: the update revision is an equal revision already stored (the last
   * one when it is the newest; otherwise the newest equal one, renumbered to come last: a rollback), or a new one; the
   * current revision is the one named by {@code status.currentRevision}, else the update revision.
   *
   * @param revisions the set's revisions; sorted in place by {@link ControllerHistory#sort}, as upstream does
   */
  public static Revisions get(ControllerHistory history, StatefulSet set, List<ControllerRevision> revisions) {
    int revisionCount = revisions.size();
    ControllerHistory.sort(revisions);
    Integer cc = set.status().collisionCount();
    int collisionCount = cc == null ? 0 : cc;
    ControllerRevision updateRevision = newRevision(set, ControllerHistory.nextRevision(revisions), collisionCount);
    List<ControllerRevision> equal = ControllerHistory.findEqualRevisions(revisions, updateRevision);
    int equalCount = equal.size();
    if (equalCount > 0 && ControllerHistory.equalRevision(revisions.get(revisionCount - 1),
        equal.get(equalCount - 1))) {
      updateRevision = revisions.get(revisionCount - 1); // the newest revision is the set's: unchanged
    } else if (equalCount > 0) {
      updateRevision = history.update(equal.get(equalCount - 1), updateRevision.revision()); // roll back
    } else {
      ControllerHistory.Created created = history.create(set, updateRevision, collisionCount);
      updateRevision = created.revision();
      collisionCount = created.collisionCount();
    }
    @Nullable ControllerRevision currentRevision = null;
    for (ControllerRevision r : revisions) {
      if (r.metadata().name().equals(set.status().currentRevision())) {
        currentRevision = r;
        break;
      }
    }
    return new Revisions(currentRevision == null ? updateRevision : currentRevision, updateRevision,
        collisionCount);
  }

  /**
   * Upstream's {@code truncateHistory}: the revisions that are not live (current, update, or the revision of one of
   * {@code pods}) are deleted, oldest first, until at most {@code spec.revisionHistoryLimit} of them remain.
   *
   * @param revisions the set's revisions as listed before the sync, sorted
   * @param current the current revision, or null when unknown
   * @param update the update revision, or null when unknown
   * @return the revisions deleted
   */
  public static List<ControllerRevision> truncateHistory(ControllerHistory history, StatefulSet set,
      Iterable<Pod> pods, List<ControllerRevision> revisions, @Nullable ControllerRevision current,
      @Nullable ControllerRevision update) {
    Set<String> live = new HashSet<>();
    if (current != null) {
      live.add(current.metadata().name());
    }
    if (update != null) {
      live.add(update.metadata().name());
    }
    for (Pod p : pods) {
      live.add(StatefulSetPods.revision(p));
    }
    List<ControllerRevision> old = new ArrayList<>();
    for (ControllerRevision r : revisions) {
      if (!live.contains(r.metadata().name())) {
        old.add(r);
      }
    }
    int limit = set.spec().revisionHistoryLimit();
    if (limit < 0 || old.size() <= limit) {
      return List.of();
    }
    List<ControllerRevision> doomed = old.subList(0, old.size() - limit);
    for (ControllerRevision r : doomed) {
      try {
        history.delete(r);
      } catch (NotFoundException e) {
        // already gone, which is what this wanted (upstream would fail the sync and retry)
      }
    }
    return List.copyOf(doomed);
  }
}
