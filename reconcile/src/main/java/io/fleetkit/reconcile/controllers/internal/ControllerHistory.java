package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.apps.ControllerRevision;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.DeletePreconditions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.text.GoIntegers;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A workload controller's history as {@link ControllerRevision} objects, after Kubernetes'
 * {@code pkg/controller/history/controller_history.go}: the pure functions ({@code ControllerRevisionName},
 * {@code NewControllerRevision}, {@code HashControllerRevision}, {@code SortControllerRevisions},
 * {@code EqualRevision}, {@code FindEqualRevisions}) as static methods, and the real history ({@code realHistory}:
 * list, create with name-collision handling, update of the revision number, delete, adopt, release) over an
 * {@link ObjectStore}. The one implementation every controller that keeps revisions uses (the StatefulSet and
 * DaemonSet controllers).
 *
 * <p>Differences from upstream, each for a reason: the data is a {@link PodTemplateSpec}, not raw JSON, so the hash
 * is FNV-1 (32 bit, as upstream's {@code fnv.New32}) over the template's canonical rendering
 * ({@link TemplateHash#canonical}) instead of over its JSON bytes; revisions are listed from the store (a current
 * read) rather than from an informer cache; the retry of {@link #update} on conflicts is immediate (upstream backs off
 * 10 ms, 50 ms, ... between its 4 attempts; a reconcile should not sleep), and the collision count of
 * {@link #create} is returned with the revision instead of written through a pointer.
 *
 * <p>Stateless apart from the store; thread-safe.
 */
public final class ControllerHistory {
  /** Upstream's {@code ControllerRevisionHashLabel}: the hash of a revision's data. */
  public static final String HASH_LABEL = "controller.kubernetes.io/hash";

  /** The longest name prefix kept by {@link #revisionName} (253 − 30). */
  static final int MAX_PREFIX = 223;

  /** Upstream's {@code retry.DefaultBackoff.Steps}: attempts of a write that meets conflicts. */
  private static final int ATTEMPTS = 4;

  /**
   * Upstream's {@code byRevision}: by revision number, then creation time (a revision not yet stored, without one,
   * first, as Go's zero time), then name.
   */
  public static final Comparator<ControllerRevision> BY_REVISION = Comparator
      .comparingLong(ControllerRevision::revision)
      .thenComparing(r -> r.metadata().creationTimestamp(), Comparator.nullsFirst(Comparator.<Instant>naturalOrder()))
      .thenComparing(r -> r.metadata().name());

  private final ObjectStore store;

  /** A history whose revisions live in {@code store}. */
  public ControllerHistory(ObjectStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  /** A created revision and the collision count its name needed (upstream writes it through a pointer). */
  public record Created(ControllerRevision revision, int collisionCount) {
    public Created {
      Objects.requireNonNull(revision, "revision");
    }
  }

  /** Upstream's {@code ControllerRevisionName}: {@code prefix-hash}, the prefix cut to 223 characters. */
  public static String revisionName(String prefix, String hash) {
    return (prefix.length() > MAX_PREFIX ? prefix.substring(0, MAX_PREFIX) : prefix) + "-" + hash;
  }

  /**
   * Upstream's {@code NewControllerRevision}: a revision of {@code data} numbered {@code revision}, controlled by
   * {@code parent}, in its namespace, labelled with {@code templateLabels} and {@link #HASH_LABEL}, named
   * {@code <parent>-<hash>} where the hash includes {@code collisionCount} (when not null).
   */
  public static ControllerRevision newRevision(ApiObject<?> parent, Map<String, String> templateLabels,
      PodTemplateSpec data, long revision, @Nullable Integer collisionCount) {
    ObjectMeta.Builder m = ObjectMeta.builder().namespace(parent.metadata().namespace()).name(parent.metadata().name())
        .labels(templateLabels).ownerReference(OwnerReference.controllerOf(parent));
    ControllerRevision unnamed = new ControllerRevision(m.build(), data, revision);
    String hash = hash(unnamed, collisionCount);
    return unnamed.withMetadata(m.name(revisionName(parent.metadata().name(), hash)).label(HASH_LABEL, hash).build());
  }

  /**
   * Upstream's {@code HashControllerRevision}: FNV-1 (32 bit) over the revision's data, then over the decimal digits
   * of {@code probe} when not null, encoded with {@code rand.SafeEncodeString}.
   */
  public static String hash(ControllerRevision revision, @Nullable Integer probe) {
    int h = 0x811c9dc5;
    h = fnv1(h, TemplateHash.canonical(revision.data()).getBytes(StandardCharsets.UTF_8));
    if (probe != null) {
      h = fnv1(h, Integer.toString(probe).getBytes(StandardCharsets.US_ASCII));
    }
    return TemplateHash.safeEncode(Long.toString(Integer.toUnsignedLong(h)));
  }

  private static int fnv1(int h, byte[] bytes) {
    for (byte b : bytes) {
      h *= 0x01000193;
      h ^= b & 0xff;
    }
    return h;
  }

  /** Upstream's {@code SortControllerRevisions}: sorts {@code revisions} in place, stably, by {@link #BY_REVISION}. */
  public static void sort(List<ControllerRevision> revisions) {
    revisions.sort(BY_REVISION);
  }

  /**
   * Upstream's {@code EqualRevision}: both null, or both with equal data. When both carry a {@link #HASH_LABEL} that
   * reads as a decimal 32-bit number and the numbers differ, they are not equal without comparing the data.
   */
  public static boolean equalRevision(@Nullable ControllerRevision lhs, @Nullable ControllerRevision rhs) {
    if (lhs == null || rhs == null) {
      return lhs == rhs;
    }
    Integer lh = hashNumber(lhs);
    Integer rh = hashNumber(rhs);
    if (lh != null && rh != null && !lh.equals(rh)) {
      return false;
    }
    return lhs.data().equals(rhs.data());
  }

  private static @Nullable Integer hashNumber(ControllerRevision r) {
    String hs = r.metadata().labels().get(HASH_LABEL);
    if (hs == null) {
      return null;
    }
    try {
      return GoIntegers.parseInt32(hs); // strconv.ParseInt(hs, 10, 32)
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Upstream's {@code FindEqualRevisions}: the revisions equal to {@code needle}, in their order. */
  public static List<ControllerRevision> findEqualRevisions(List<ControllerRevision> revisions,
      ControllerRevision needle) {
    List<ControllerRevision> eq = new ArrayList<>();
    for (ControllerRevision r : revisions) {
      if (equalRevision(r, needle)) {
        eq.add(r);
      }
    }
    return eq;
  }

  /**
   * Upstream's {@code nextRevision} (of the StatefulSet and DaemonSet controllers): one more than the last of the
   * sorted {@code revisions}, 1 for none.
   */
  public static long nextRevision(List<ControllerRevision> sorted) {
    return sorted.isEmpty() ? 1 : sorted.get(sorted.size() - 1).revision() + 1;
  }

  /**
   * Upstream's {@code ListControllerRevisions}: the revisions in {@code parent}'s namespace matching
   * {@code selector} that {@code parent} controls or that have no controller.
   */
  public List<ControllerRevision> list(ApiObject<?> parent, LabelSelector selector) {
    String uid = parent.metadata().uid();
    List<ControllerRevision> owned = new ArrayList<>();
    for (ControllerRevision r : store.list(ControllerRevision.class, parent.metadata().namespace(), selector)
        .items()) {
      OwnerReference ref = r.metadata().controllerRef();
      if (ref == null || ref.uid().equals(uid)) {
        owned.add(r);
      }
    }
    return owned;
  }

  /**
   * Upstream's {@code CreateControllerRevision}: stores {@code revision} in {@code parent}'s namespace, named
   * {@code <parent>-<hash with collisionCount>}. When the name is taken by a revision with the same data, that one is
   * returned; when it is taken by other data (a hash collision), the count is incremented and the next name tried.
   *
   * @throws NotFoundException if the revision holding the name disappears before it can be compared
   */
  public Created create(ApiObject<?> parent, ControllerRevision revision, int collisionCount) {
    String ns = parent.metadata().namespace();
    int count = collisionCount;
    while (true) {
      String name = revisionName(parent.metadata().name(), hash(revision, count));
      ControllerRevision clone = revision.withMetadata(revision.metadata().toBuilder().namespace(ns).name(name)
          .uid("").resourceVersion("").build());
      try {
        return new Created(store.create(clone), count);
      } catch (ConflictException alreadyExists) {
        ControllerRevision exists = store.get(ControllerRevision.class, ns, name)
            .orElseThrow(() -> new NotFoundException(ControllerRevision.KIND + " " + ns + "/" + name
                + " not found after its create met it (deleted meanwhile)"));
        if (exists.data().equals(clone.data())) {
          return new Created(exists, count);
        }
        count++;
      }
    }
  }

  /**
   * Upstream's {@code UpdateControllerRevision}: {@code revision} renumbered {@code newRevision} (unchanged when it
   * has that number), re-read and retried on conflicts, at most 4 attempts.
   *
   * @throws ConflictException if every attempt met a conflict
   * @throws NotFoundException if the revision is gone
   */
  public ControllerRevision update(ControllerRevision revision, long newRevision) {
    ControllerRevision clone = revision;
    @Nullable ConflictException last = null;
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (clone.revision() == newRevision) {
        return clone;
      }
      try {
        return store.update(clone.withRevision(newRevision));
      } catch (ConflictException e) {
        last = e;
        ObjectMeta m = clone.metadata();
        clone = store.get(ControllerRevision.class, m.namespace(), m.name()).orElse(clone);
      }
    }
    throw Objects.requireNonNull(last);
  }

  /**
   * Upstream's {@code DeleteControllerRevision}.
   *
   * @throws NotFoundException if there is no such revision
   */
  public void delete(ControllerRevision revision) {
    ObjectMeta m = revision.metadata();
    store.delete(ControllerRevision.class, m.namespace(), m.name(), DeletePreconditions.NONE);
  }

  /**
   * Upstream's {@code AdoptControllerRevision}: adds a controller reference to {@code parent}. Like upstream's patch,
   * it applies only to the revision with {@code revision}'s uid.
   *
   * @throws ConflictException if {@code revision} (or the stored one) is controlled by another owner, or the stored
   *     revision has another uid
   * @throws NotFoundException if there is no such revision
   */
  public ControllerRevision adopt(ApiObject<?> parent, ControllerRevision revision) {
    OwnerReference owner = revision.metadata().controllerRef();
    if (owner != null) {
      throw new ConflictException("attempt to adopt " + revision.describe() + " owned by " + owner.kind() + " "
          + owner.name() + " (uid " + owner.uid() + ")");
    }
    OwnerReference ref = OwnerReference.controllerOf(parent);
    return patch(revision, stored -> {
      OwnerReference current = stored.metadata().controllerRef();
      if (current != null && !current.uid().equals(ref.uid())) {
        throw new ConflictException("attempt to adopt " + stored.describe() + " owned by " + current.kind() + " "
            + current.name() + " (uid " + current.uid() + ")");
      }
      List<OwnerReference> refs = new ArrayList<>();
      for (OwnerReference r : stored.metadata().ownerReferences()) {
        if (!r.uid().equals(ref.uid())) {
          refs.add(r);
        }
      }
      refs.add(ref);
      return refs;
    });
  }

  /**
   * Upstream's {@code ReleaseControllerRevision}: removes {@code parent}'s references from the revision. A revision
   * that is gone is ignored (empty); one {@code parent} does not own is returned as it is.
   *
   * @throws ConflictException if the stored revision has another uid than {@code revision}
   */
  public Optional<ControllerRevision> release(ApiObject<?> parent, ControllerRevision revision) {
    String uid = parent.metadata().uid();
    try {
      return Optional.of(patch(revision, stored -> {
        List<OwnerReference> refs = new ArrayList<>();
        for (OwnerReference r : stored.metadata().ownerReferences()) {
          if (!r.uid().equals(uid)) {
            refs.add(r);
          }
        }
        return refs;
      }));
    } catch (NotFoundException e) {
      return Optional.empty();
    }
  }

  /** What a patch of the owner references computes from the stored revision. */
  private interface OwnerPatch {
    List<OwnerReference> apply(ControllerRevision stored);
  }

  /**
   * The owner references of the stored {@code revision} replaced, as a server-side patch with a uid precondition:
   * read, check the uid, write at the read resourceVersion, retried on conflicts.
   */
  private ControllerRevision patch(ControllerRevision revision, OwnerPatch change) {
    ObjectMeta m = revision.metadata();
    @Nullable ConflictException last = null;
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      ControllerRevision stored = store.get(ControllerRevision.class, m.namespace(), m.name())
          .orElseThrow(() -> new NotFoundException(ControllerRevision.KIND + " " + m.key() + " not found"));
      if (!m.uid().isEmpty() && !m.uid().equals(stored.metadata().uid())) {
        throw new ConflictException("Operation cannot be fulfilled on " + stored.describe()
            + ": Precondition failed: UID in precondition: " + m.uid() + ", UID in object meta: "
            + stored.metadata().uid());
      }
      List<OwnerReference> refs = change.apply(stored);
      if (refs.equals(stored.metadata().ownerReferences())) {
        return stored;
      }
      try {
        return store.update(stored.withMetadata(stored.metadata().toBuilder().ownerReferences(refs).build()));
      } catch (ConflictException e) {
        last = e;
      }
    }
    throw Objects.requireNonNull(last);
  }
}
