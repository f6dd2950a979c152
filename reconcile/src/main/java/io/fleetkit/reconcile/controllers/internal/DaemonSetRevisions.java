package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.apps.ControllerRevision;
import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A DaemonSet's revisions, after {@code pkg/controller/daemon/update.go} ({@code constructHistory},
 * {@code controlledHistories}, {@code dedupCurHistories}, {@code snapshot}, {@code Match}, {@code cleanupHistory}),
 * over a {@link ControllerHistory}. A revision holds the DaemonSet's pod template; its label
 * {@value WorkloadLabels#CONTROLLER_REVISION_HASH} is the hash its pods carry. Stateless; thread-safe.
 *
 * <p>Differences from upstream, each for a reason: the revision's data is the template itself, not a strategic merge
 * patch, so {@code Match} compares templates; the hash is {@link TemplateHash#compute} (upstream's
 * {@code ComputeHash} over FleetKit's canonical template); revisions the set controls that stop matching its
 * selector are not released (upstream's {@code ClaimControllerRevisions} would), since a DaemonSet's selector is
 * immutable in Kubernetes and nothing else relabels them.
 */
public final class DaemonSetRevisions {
  private DaemonSetRevisions() {}

  /**
   * The revision of the set's template and the others.
   *
   * @param current the revision matching the template, whose hash label new pods get
   * @param old the other revisions the set controls
   */
  public record History(ControllerRevision current, List<ControllerRevision> old) {
    public History {
      Objects.requireNonNull(current, "current");
      old = List.copyOf(old);
    }

    /** The hash new pods are labelled with ({@value WorkloadLabels#CONTROLLER_REVISION_HASH} of the revision). */
    public String hash() {
      return current.metadata().labels().getOrDefault(WorkloadLabels.CONTROLLER_REVISION_HASH, "");
    }
  }

  /** Thrown when the current revision's name is taken by another template: the collision count was raised. */
  public static final class HashCollision extends ConflictException {
    private static final long serialVersionUID = 1L;

    HashCollision(String message) {
      super(message);
    }
  }

  /** Upstream's {@code Match}: the revision holds the set's template. */
  public static boolean match(DaemonSet ds, ControllerRevision revision) {
    return revision.data().equals(ds.spec().template());
  }

  /**
   * Upstream's {@code controlledHistories}: the revisions in the set's namespace that it controls or, orphaned,
   * that its selector matches, the orphans adopted. A set being deleted adopts nothing.
   */
  public static List<ControllerRevision> controlledHistories(ControllerHistory history, DaemonSet ds) {
    List<ControllerRevision> revisions = new ArrayList<>(history.list(ds, ds.spec().selector()));
    if (ds.metadata().deletionTimestamp() == null) {
      for (int i = 0; i < revisions.size(); i++) {
        OwnerReference ref = revisions.get(i).metadata().controllerRef();
        if (ref == null) {
          revisions.set(i, history.adopt(ds, revisions.get(i)));
        }
      }
    }
    return revisions;
  }

  /**
   * Upstream's {@code constructHistory}: revisions without the hash label get their name as one; those matching the
   * template are deduplicated (the newest kept, pods relabelled to its hash, the others deleted) and renumbered to
   * come last, or a new revision is created.
   *
   * @throws HashCollision when a new revision's name is held by another template: {@code status.collisionCount} was
   *     raised in the store, and the sync should be retried
   */
  public static History construct(ObjectStore store, ControllerHistory history, DaemonSet ds,
      Iterable<Pod> pods) {
    List<ControllerRevision> current = new ArrayList<>();
    List<ControllerRevision> old = new ArrayList<>();
    for (ControllerRevision r : controlledHistories(history, ds)) {
      if (!r.metadata().labels().containsKey(WorkloadLabels.CONTROLLER_REVISION_HASH)) {
        r = store.update(r.withMetadata(r.metadata().toBuilder()
            .label(WorkloadLabels.CONTROLLER_REVISION_HASH, r.metadata().name()).build()));
      }
      if (match(ds, r)) {
        current.add(r);
      } else {
        old.add(r);
      }
    }
    long currRevision = maxRevision(old) + 1;
    ControllerRevision cur;
    if (current.isEmpty()) {
      cur = snapshot(store, ds, currRevision);
    } else {
      cur = dedup(store, ds, current, pods);
      if (cur.revision() < currRevision) {
        cur = history.update(cur, currRevision);
      }
    }
    return new History(cur, old);
  }

  /** Upstream's {@code maxRevision}: the highest revision number, 0 for none. */
  public static long maxRevision(List<ControllerRevision> revisions) {
    long max = 0;
    for (ControllerRevision r : revisions) {
      max = Math.max(max, r.revision());
    }
    return max;
  }

  private static ControllerRevision dedup(ObjectStore store, DaemonSet ds, List<ControllerRevision> current,
      Iterable<Pod> pods) {
    if (current.size() == 1) {
      return current.get(0);
    }
    ControllerRevision keep = null;
    for (ControllerRevision r : current) {
      if (keep == null || r.revision() >= keep.revision()) {
        keep = r;
      }
    }
    String keepHash = keep.metadata().labels().get(WorkloadLabels.CONTROLLER_REVISION_HASH);
    for (ControllerRevision r : current) {
      if (r.metadata().name().equals(keep.metadata().name())) {
        continue;
      }
      for (Pod p : pods) { // relabel pods before deleting the duplicate
        if (!Objects.equals(p.metadata().labels().get(WorkloadLabels.CONTROLLER_REVISION_HASH), keepHash)) {
          Pod fresh = store.get(Pod.class, p.metadata().namespace(), p.metadata().name()).orElse(null);
          if (fresh != null && fresh.metadata().uid().equals(p.metadata().uid())) {
            store.update(fresh.withMetadata(fresh.metadata().toBuilder()
                .label(WorkloadLabels.CONTROLLER_REVISION_HASH, keepHash).build()));
          }
        }
      }
      try {
        new ControllerHistory(store).delete(r);
      } catch (NotFoundException e) {
        // already gone
      }
    }
    return keep;
  }

  /**
   * Upstream's {@code snapshot}: a revision {@code <set>-<hash>} of the template, labelled with the template's labels
   * and the hash, annotated with the set's annotations, controlled by the set.
   */
  static ControllerRevision snapshot(ObjectStore store, DaemonSet ds, long revision) {
    Integer cc = ds.status().collisionCount();
    String hash = TemplateHash.compute(ds.spec().template(), cc);
    String name = ControllerHistory.revisionName(ds.metadata().name(), hash);
    ObjectMeta.Builder m = ObjectMeta.builder().namespace(ds.metadata().namespace()).name(name)
        .labels(ds.spec().template().labels()).label(WorkloadLabels.CONTROLLER_REVISION_HASH, hash)
        .ownerReference(OwnerReference.controllerOf(ds));
    ds.metadata().annotations().forEach(m::annotation);
    ControllerRevision created = new ControllerRevision(m.build(), ds.spec().template(), revision);
    try {
      return store.create(created);
    } catch (ConflictException alreadyExists) {
      ControllerRevision existing = store.get(ControllerRevision.class, ds.metadata().namespace(), name)
          .orElseThrow(() -> alreadyExists);
      if (match(ds, existing)) {
        return existing;
      }
      DaemonSet fresh = store.get(DaemonSet.class, ds.metadata().namespace(), ds.metadata().name())
          .orElseThrow(() -> new NotFoundException(ds.describe() + " not found"));
      Integer c = fresh.status().collisionCount();
      int next = (c == null ? 0 : c) + 1;
      store.updateStatus(fresh.withStatus(fresh.status().withCollisionCount(next)));
      throw new HashCollision("found a hash collision for " + ds.describe() + ": revision " + name
          + " holds another template; collisionCount raised to " + next);
    }
  }

  /**
   * Upstream's {@code cleanupHistory}: of the old revisions, those that no pod's hash names are deleted, oldest
   * first, until at most {@code spec.revisionHistoryLimit} old ones remain.
   *
   * @return the revisions deleted
   */
  public static List<ControllerRevision> cleanup(ControllerHistory history, DaemonSet ds, Iterable<Pod> pods,
      List<ControllerRevision> old) {
    int toKill = old.size() - ds.spec().revisionHistoryLimit();
    if (toKill <= 0) {
      return List.of();
    }
    Set<String> liveHashes = new HashSet<>();
    for (Pod p : pods) {
      String h = p.metadata().labels().get(WorkloadLabels.CONTROLLER_REVISION_HASH);
      if (h != null && !h.isEmpty()) {
        liveHashes.add(h);
      }
    }
    List<ControllerRevision> sorted = new ArrayList<>(old);
    sorted.sort(java.util.Comparator.comparingLong(ControllerRevision::revision));
    List<ControllerRevision> deleted = new ArrayList<>();
    for (ControllerRevision r : sorted) {
      if (toKill <= 0) {
        break;
      }
      @Nullable String h = r.metadata().labels().get(WorkloadLabels.CONTROLLER_REVISION_HASH);
      if (h != null && liveHashes.contains(h)) {
        continue;
      }
      try {
        history.delete(r);
      } catch (NotFoundException e) {
        // already gone, which is what this wanted
      }
      deleted.add(r);
      toKill--;
    }
    return List.copyOf(deleted);
  }
}
