package io.fleetkit.api.store.spi;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.AdmissionOperation;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.DeletePreconditions;
import io.fleetkit.api.store.ObjectStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * What each write of the {@link io.fleetkit.api.store.ObjectStore} contract does to a stored object, as pure
 * functions, so that every store implementation applies the same rules: validation of new objects, store-owned
 * metadata, optimistic-concurrency preconditions with Kubernetes' messages, generation bumps, finalizers and the
 * no-op rule. A store reads the stored object, asks for the {@link Change}, and commits it atomically with the next
 * resourceVersion (under a lock, or by compare-and-swap). Stateless and thread-safe.
 */
public final class WriteRules {
  private WriteRules() {}

  /** What a write does to the stored object. */
  public enum Effect {
    /** Nothing: the write changes nothing, gets no version and no event; the result is the stored object. */
    NONE,
    /** The object is stored (created, replaced or marked for deletion): an ADDED or MODIFIED event. */
    PUT,
    /** The object is removed: a DELETED event carrying its last state. */
    REMOVE
  }

  /**
   * The outcome of a write before its version is assigned.
   *
   * @param effect what to commit
   * @param object the object to store or whose removal to record, with the stored object's resourceVersion (stamp
   *     the new one with {@link #withVersion}); for {@link Effect#NONE} the stored object itself
   */
  public record Change<T extends ApiObject<T>>(Effect effect, T object) {
    public Change {
      Objects.requireNonNull(effect, "effect");
      Objects.requireNonNull(object, "object");
    }
  }

  /**
   * The create path every store shares: validate, then, with admission, refuse an existing name before admission
   * (Kubernetes reports "already exists" from storage, after admission; checking first keeps side effects such as a
   * quota charge away from a create that cannot succeed), admit, write, and roll admission back if the write fails
   * (a create racing in between). Without admission it is validate and write.
   *
   * @param store the store, for the existence check and as admission's view
   * @param write the store's own write of the (admitted) object
   */
  public static <T extends ApiObject<T>> T create(ObjectStore store, AdmissionChain admission, T object,
      UnaryOperator<T> write) {
    validateForCreate(object);
    if (admission.isEmpty()) {
      return write.apply(object);
    }
    @SuppressWarnings("unchecked")
    Class<T> kind = (Class<T>) object.getClass();
    if (store.get(kind, object.metadata().namespace(), object.metadata().name()).isPresent()) {
      throw alreadyExists(object);
    }
    return admitThenWrite(admission.admit(AdmissionOperation.CREATE, object, null, store), write);
  }

  /**
   * The update path every store shares: without admission, write; with it, admit the update against the stored
   * object, write the admitted object, and roll admission back if the write fails (a conflict, a race).
   *
   * @param store the store, to read the stored object and as admission's view
   * @param write the store's own update of the (admitted) object
   * @throws NotFoundException (with admission) if there is no such object
   */
  public static <T extends ApiObject<T>> T update(ObjectStore store, AdmissionChain admission, T object,
      UnaryOperator<T> write) {
    if (admission.isEmpty()) {
      return write.apply(object);
    }
    @SuppressWarnings("unchecked")
    Class<T> kind = (Class<T>) object.getClass();
    ObjectMeta meta = object.metadata();
    T stored = store.get(kind, meta.namespace(), meta.name())
        .orElseThrow(() -> notFound(kind, meta.namespace(), meta.name()));
    return admitThenWrite(admission.admit(AdmissionOperation.UPDATE, object, stored, store), write);
  }

  /**
   * The delete path every store shares: without admission, delete; with it, admit the deletion of the stored object,
   * delete, and roll admission back if the deletion fails.
   *
   * @param store the store, to read the stored object and as admission's view
   * @param delete the store's own deletion
   * @throws NotFoundException (with admission) if there is no such object
   */
  public static <T extends ApiObject<T>> T delete(ObjectStore store, AdmissionChain admission, Class<T> kind,
      String namespace, String name, java.util.function.Supplier<T> delete) {
    if (admission.isEmpty()) {
      return delete.get();
    }
    T stored = store.get(kind, namespace, name).orElseThrow(() -> notFound(kind, namespace, name));
    return admitThenWrite(admission.admit(AdmissionOperation.DELETE, stored, null, store), o -> delete.get());
  }

  /** Writes the admitted object; if the write fails, admission's side effects (a quota charge) are reversed. */
  private static <T extends ApiObject<T>> T admitThenWrite(AdmissionChain.Admitted<T> admitted,
      UnaryOperator<T> write) {
    try {
      return write.apply(admitted.object());
    } catch (RuntimeException e) {
      admitted.rollback();
      throw e;
    }
  }

  /**
   * Checks an object to be created: name and namespace present and without {@code /}, no namespace for a
   * cluster-scoped kind, no resourceVersion.
   *
   * @throws ValidationException listing every violation
   */
  public static void validateForCreate(ApiObject<?> object) {
    ObjectMeta meta = object.metadata();
    String who = object.kind() + " " + meta.key();
    List<Violation> violations = new ArrayList<>();
    if (meta.name().isEmpty()) {
      violations.add(new Violation(who, "metadata.name", "is required", null));
    } else if (meta.name().indexOf('/') >= 0) {
      violations.add(new Violation(who, "metadata.name", "must not contain '/'", meta.name()));
    }
    if (object.namespaced()) {
      if (meta.namespace().isEmpty()) {
        violations.add(new Violation(who, "metadata.namespace", "is required for namespaced kind " + object.kind(),
            null));
      } else if (meta.namespace().indexOf('/') >= 0) {
        violations.add(new Violation(who, "metadata.namespace", "must not contain '/'", meta.namespace()));
      }
    } else if (!meta.namespace().isEmpty()) {
      violations.add(new Violation(who, "metadata.namespace", "must be empty for cluster-scoped kind "
          + object.kind(), meta.namespace()));
    }
    if (!meta.resourceVersion().isEmpty()) {
      violations.add(new Violation(who, "metadata.resourceVersion", "must not be set on objects to be created",
          meta.resourceVersion()));
    }
    if (!violations.isEmpty()) {
      throw new ValidationException(violations);
    }
  }

  /**
   * A validated object as created: the store-owned fields set, generation 1, not being deleted. A pod created with
   * scheduling gates and no PodScheduled condition gets {@code PodScheduled=False} with reason
   * {@value #REASON_SCHEDULING_GATED}, as the API server's pod strategy adds it
   * ({@code applySchedulingGatedCondition}). A namespace is created Active, with the
   * {@value Namespace#KUBERNETES_FINALIZER} finalizer in {@code spec.finalizers} (the namespace registry's
   * {@code PrepareForCreate}).
   */
  public static <T extends ApiObject<T>> T created(T object, String uid, String resourceVersion, Instant now) {
    T stamped = object.withMetadata(stamp(object.metadata(), uid, resourceVersion, 1, now, null, null));
    if (stamped instanceof Pod pod && !pod.spec().schedulingGates().isEmpty()) {
      @SuppressWarnings("unchecked")
      T gated = (T) schedulingGated(pod);
      return gated;
    }
    if (stamped instanceof Namespace ns) {
      @SuppressWarnings("unchecked")
      T prepared = (T) NamespaceWrites.prepareForCreate(ns);
      return prepared;
    }
    return stamped;
  }

  /** The reason of the PodScheduled condition of a pod created with scheduling gates. */
  public static final String REASON_SCHEDULING_GATED = "SchedulingGated";

  private static Pod schedulingGated(Pod pod) {
    for (PodCondition c : pod.status().conditions()) {
      if (c.type().equals(PodCondition.POD_SCHEDULED)) {
        return pod;
      }
    }
    return pod.withStatus(pod.status().withCondition(PodCondition.of(PodCondition.POD_SCHEDULED,
        ConditionStatus.False, REASON_SCHEDULING_GATED, "Scheduling is blocked due to non-empty scheduling gates",
        null)));
  }

  /**
   * An update of metadata and spec: keeps the stored status and store-owned fields, bumps generation if the spec
   * changed, removes the object when it is being deleted and the update clears its last finalizer, unless a graceful
   * deletion is under way (a {@code deletionGracePeriodSeconds} above 0: the deletion with grace period 0 that ends it
   * removes the object). A namespace keeps
   * its stored {@code spec.finalizers} (only {@link #finalizeNamespace(Namespace, Namespace)} changes them) and is
   * removed only when both its {@code metadata.finalizers} and its {@code spec.finalizers} are empty.
   *
   * @throws ConflictException if {@code object}'s uid or resourceVersion (when not empty) differ from the stored
   * @throws ValidationException if a finalizer is added to an object being deleted, or the update sets a
   *     {@code deletionGracePeriodSeconds} other than the stored one
   */
  public static <T extends ApiObject<T>> Change<T> update(T stored, T object) {
    return update(stored, prepareForUpdate(stored, object), false);
  }

  /**
   * The {@code namespaces/finalize} write: {@link #update(ApiObject, ApiObject)}'s rules, except that
   * {@code spec.finalizers} are taken from {@code object} (the namespace registry's {@code namespaceFinalizeStrategy});
   * the status is the stored one. A namespace being deleted whose two finalizer lists end up empty is removed.
   *
   * @throws ConflictException as for {@link #update(ApiObject, ApiObject)}
   * @throws ValidationException as for {@link #update(ApiObject, ApiObject)}
   */
  public static Change<Namespace> finalizeNamespace(Namespace stored, Namespace object) {
    return update(stored, object, false);
  }

  /** The kind's {@code PrepareForUpdate}: what an update keeps of the stored object before its rules are checked. */
  private static <T extends ApiObject<T>> T prepareForUpdate(T stored, T object) {
    if (object instanceof Namespace ns) {
      @SuppressWarnings("unchecked")
      T kept = (T) NamespaceWrites.prepareForUpdate((Namespace) stored, ns);
      return kept;
    }
    if (object instanceof io.fleetkit.api.core.Service svc) {
      @SuppressWarnings("unchecked")
      T kept = (T) ServiceWrites.prepareForUpdate((io.fleetkit.api.core.Service) stored, svc);
      return kept;
    }
    return object;
  }

  private static <T extends ApiObject<T>> Change<T> update(T stored, T object, boolean binding) {
    ObjectMeta meta = object.metadata();
    checkPreconditions(stored, meta.uid(), meta.resourceVersion(), false);
    ObjectMeta old = stored.metadata();
    if (meta.deletionTimestamp() != null && old.deletionTimestamp() == null) {
      // ValidateObjectMetaUpdate: only a deletion marks an object (the API server keeps, as here, a stored mark and
      // the creation time an update omits or changes; it refuses a mark the stored object does not have).
      throw new ValidationException(new Violation(object.describe(), "metadata.deletionTimestamp",
          UpdateChecks.IMMUTABLE, meta.deletionTimestamp().toString()));
    }
    if (meta.deletionGracePeriodSeconds() != null
        && !meta.deletionGracePeriodSeconds().equals(old.deletionGracePeriodSeconds())) {
      // BeforeUpdate keeps a stored grace period an update omits; ValidateObjectMetaUpdate refuses any other change.
      throw new ValidationException(new Violation(object.describe(), "metadata.deletionGracePeriodSeconds",
          UpdateChecks.IMMUTABLE, meta.deletionGracePeriodSeconds().toString()));
    }
    UpdateChecks.update(stored, object, binding);
    if (old.deletionTimestamp() != null) {
      rejectNewFinalizers(object, old.finalizers(), meta.finalizers());
    }
    boolean specChanged = !Objects.equals(object.spec(), stored.spec());
    long generation = specChanged ? old.generation() + 1 : old.generation();
    ObjectMeta merged = stamp(meta, old.uid(), old.resourceVersion(), generation, old.creationTimestamp(),
        old.deletionTimestamp(), old.deletionGracePeriodSeconds());
    T candidate = object.withStatusOf(stored).withMetadata(merged);
    // shouldDeleteDuringUpdate: a graceful deletion under way (grace period above 0) waits for its final deletion.
    Long grace = old.deletionGracePeriodSeconds();
    boolean finalized = old.deletionTimestamp() != null && merged.finalizers().isEmpty()
        && (grace == null || grace == 0)
        && (!(candidate instanceof Namespace ns) || NamespaceWrites.removable(ns));
    if (finalized) {
      return new Change<>(Effect.REMOVE, candidate);
    }
    return candidate.equals(stored) ? new Change<>(Effect.NONE, stored) : new Change<>(Effect.PUT, candidate);
  }

  /**
   * An update of metadata, spec and status at once: {@link #update(ApiObject, ApiObject)}'s rules, keeping
   * {@code object}'s status instead of the stored one.
   *
   * @throws ConflictException as for {@link #update(ApiObject, ApiObject)}
   * @throws ValidationException as for {@link #update(ApiObject, ApiObject)}
   */
  public static <T extends ApiObject<T>> Change<T> updateWithStatus(T stored, T object) {
    Change<T> update = update(stored, prepareForUpdate(stored, object), true);
    UpdateChecks.status(stored, object);
    if (update.effect() == Effect.REMOVE) {
      return update;
    }
    T candidate = update.object().withStatusOf(object);
    return candidate.equals(stored) ? new Change<>(Effect.NONE, stored) : new Change<>(Effect.PUT, candidate);
  }

  /**
   * A resize of a pod's containers ({@code pods/resize}): the stored pod with the cpu and memory requests and limits
   * of {@code object}'s containers (and sidecars), every other change dropped; generation bumped when they change.
   *
   * @throws ConflictException as for {@link #update}
   * @throws ValidationException if the resize breaks a rule of {@link UpdateChecks#resized}
   */
  public static Change<Pod> resize(Pod stored, Pod object) {
    checkPreconditions(stored, object.metadata().uid(), object.metadata().resourceVersion(), false);
    Pod resized = UpdateChecks.resized(stored, object);
    if (resized == stored) {
      return new Change<>(Effect.NONE, stored);
    }
    ObjectMeta old = stored.metadata();
    return new Change<>(Effect.PUT, resized.withMetadata(stamp(old, old.uid(), old.resourceVersion(),
        old.generation() + 1, old.creationTimestamp(), old.deletionTimestamp(),
        old.deletionGracePeriodSeconds())));
  }

  /**
   * An update of the status only: keeps the stored spec and metadata.
   *
   * @throws ConflictException as for {@link #update}
   */
  public static <T extends ApiObject<T>> Change<T> updateStatus(T stored, T object) {
    checkPreconditions(stored, object.metadata().uid(), object.metadata().resourceVersion(), false);
    UpdateChecks.status(stored, object);
    T candidate = stored.withStatusOf(object);
    return candidate.equals(stored) ? new Change<>(Effect.NONE, stored) : new Change<>(Effect.PUT, candidate);
  }

  /** {@link #delete(ApiObject, DeleteOptions, Instant)} with only {@code preconditions}. */
  public static <T extends ApiObject<T>> Change<T> delete(T stored, DeletePreconditions preconditions,
      Instant now) {
    return delete(stored, DeleteOptions.of(preconditions), now);
  }

  /**
   * A deletion, as the API server's generic registry store ({@code Store.Delete},
   * {@code updateForGracefulDeletionAndFinalizers}, {@code markAsDeleting}) with the kind's default policy
   * ({@link DeletionFinalizers#defaultPolicy}): the options and the object decide its {@code orphan} and
   * {@code foregroundDeletion} finalizers ({@link DeletionFinalizers#forDeletion}); an object left without
   * finalizers is removed; one left with some is marked (deletionTimestamp {@code now}, generation + 1) with them.
   * An object already marked keeps its mark and timestamp and changes only when the options change its GC
   * finalizers (a later deletion may switch the policy; one that takes away its last finalizer removes it). A pod
   * is deleted gracefully ({@link GracefulDeletion}, the pod registry's {@code CheckGracefulDelete}): a pod bound to
   * a node and not Succeeded or Failed is marked with {@code deletionTimestamp} now plus its grace period (the
   * options', else its {@code spec.terminationGracePeriodSeconds}) and {@code deletionGracePeriodSeconds}, and stays
   * until a deletion with grace period 0 (the kubelet's, once its containers stopped) removes it; a later deletion
   * may only shorten the grace period, and changes nothing else while one above 0 runs. Any object marked only to
   * wait for finalizers gets {@code deletionGracePeriodSeconds} 0. A
   * namespace follows its registry's {@code Delete}: the first deletion marks it (and makes it Terminating) whatever
   * its finalizers, with the GC finalizers the options ask for; a later one changes nothing while its
   * {@code spec.finalizers} are not empty, and is then a generic deletion.
   *
   * @throws ConflictException if a precondition does not hold
   */
  public static <T extends ApiObject<T>> Change<T> delete(T stored, DeleteOptions options, Instant now) {
    return delete(stored, options, now, DeletionFinalizers.defaultPolicy(stored));
  }

  /**
   * {@link #delete(ApiObject, DeleteOptions, Instant)} with {@code policy} as the kind's default (upstream's
   * {@code DefaultGarbageCollectionPolicy} of the registry's strategy), for tests that vary it as upstream's do.
   *
   * @throws ConflictException if a precondition does not hold
   */
  public static <T extends ApiObject<T>> Change<T> delete(T stored, DeleteOptions options, Instant now,
      GarbageCollectionPolicy policy) {
    DeletePreconditions preconditions = options.preconditions();
    checkPreconditions(stored, preconditions.uid(), preconditions.resourceVersion(), true);
    if (stored instanceof Namespace ns) {
      @SuppressWarnings("unchecked")
      Change<T> change = (Change<T>) NamespaceWrites.delete(ns, options, now, policy);
      return change;
    }
    return deleteGeneric(stored, options, now, policy);
  }

  /**
   * The generic store's deletion ({@code Store.Delete} with {@code updateForGracefulDeletionAndFinalizers}) of an
   * object whose preconditions were checked: first the graceful rules ({@link GracefulDeletion}); a graceful deletion
   * already under way that this one does not shorten changes nothing, not even the GC finalizers. Then the options
   * decide the GC finalizers. A graceful deletion marks the object with its deadline and grace period, unless the
   * grace period is 0 and no finalizer is left: then it is removed. Any other deletion removes an object left
   * without finalizers, and marks one left with some ({@code markAsDeleting}: generation + 1 on the first mark, the
   * earlier of the stored mark and now, grace period 0).
   */
  static <T extends ApiObject<T>> Change<T> deleteGeneric(T stored, DeleteOptions options, Instant now,
      GarbageCollectionPolicy policy) {
    GracefulDeletion.Decision graceful = GracefulDeletion.beforeDelete(stored, options, now);
    if (graceful.outcome() == GracefulDeletion.Outcome.PENDING) {
      return new Change<>(Effect.NONE, stored);
    }
    ObjectMeta old = graceful.meta();
    List<String> gc = DeletionFinalizers.forDeletion(old.finalizers(), options, policy);
    List<String> finalizers = gc == null ? old.finalizers() : gc;
    if (graceful.outcome() == GracefulDeletion.Outcome.GRACEFUL) {
      Long period = graceful.gracePeriodSeconds();
      if (finalizers.isEmpty() && (period == null || period == 0)) {
        return new Change<>(Effect.REMOVE, stored); // upstream writes the mark, then deletes at once
      }
      return new Change<>(Effect.PUT, stored.withMetadata(old.toBuilder().finalizers(finalizers).build()));
    }
    if (finalizers.isEmpty()) {
      return new Change<>(Effect.REMOVE, stored); // upstream's errDeleteNow: the stored state is the last one
    }
    // markAsDeleting: generation is bumped by the first mark only; an earlier mark is kept.
    Instant marked = old.deletionTimestamp();
    long generation = marked == null ? old.generation() + 1 : old.generation();
    Instant deleting = marked == null || marked.isAfter(now) ? now : marked;
    ObjectMeta meta = new ObjectMeta(old.name(), old.namespace(), old.uid(), old.resourceVersion(), generation,
        old.labels(), old.annotations(), old.ownerReferences(), finalizers, old.creationTimestamp(), deleting, 0L);
    T candidate = stored.withMetadata(meta);
    return candidate.equals(stored) ? new Change<>(Effect.NONE, stored) : new Change<>(Effect.PUT, candidate);
  }

  /** {@code object} with its resourceVersion replaced. */
  public static <T extends ApiObject<T>> T withVersion(T object, String resourceVersion) {
    ObjectMeta m = object.metadata();
    return object.withMetadata(stamp(m, m.uid(), resourceVersion, m.generation(), m.creationTimestamp(),
        m.deletionTimestamp(), m.deletionGracePeriodSeconds()));
  }

  /** "Kind ns/name not found". */
  public static NotFoundException notFound(Class<?> kind, String namespace, String name) {
    return new NotFoundException(kind.getSimpleName() + " " + (namespace.isEmpty() ? name : namespace + '/' + name)
        + " not found");
  }

  /** "Kind ns/name already exists". */
  public static ConflictException alreadyExists(ApiObject<?> object) {
    return new ConflictException(object.describe() + " already exists");
  }

  private static void rejectNewFinalizers(ApiObject<?> object, List<String> old, List<String> requested) {
    HashSet<String> known = new HashSet<>(old);
    for (String f : requested) {
      if (!known.contains(f)) {
        throw new ValidationException(new Violation(object.describe(), "metadata.finalizers",
            "no new finalizers can be added if the object is being deleted", f));
      }
    }
  }

  private static void checkPreconditions(ApiObject<?> stored, String uid, String resourceVersion,
      boolean isDelete) {
    ObjectMeta old = stored.metadata();
    if (!uid.isEmpty() && !uid.equals(old.uid())) {
      throw new ConflictException("Operation cannot be fulfilled on " + stored.describe()
          + ": Precondition failed: UID in precondition: " + uid + ", UID in object meta: " + old.uid());
    }
    if (!resourceVersion.isEmpty() && !resourceVersion.equals(old.resourceVersion())) {
      if (isDelete) {
        throw new ConflictException("Operation cannot be fulfilled on " + stored.describe()
            + ": Precondition failed: ResourceVersion in precondition: " + resourceVersion
            + ", ResourceVersion in object meta: " + old.resourceVersion());
      }
      throw new ConflictException("Operation cannot be fulfilled on " + stored.describe()
          + ": the object has been modified; please apply your changes to the latest version and try again"
          + " (resourceVersion " + resourceVersion + ", current " + old.resourceVersion() + ")");
    }
  }

  /**
   * {@code m} with the store-owned fields replaced. Uses the canonical constructor, whose {@code copyOf} calls
   * return the already-immutable collections as they are: no per-write copying of labels, annotations or lists.
   */
  static ObjectMeta stamp(ObjectMeta m, String uid, String rv, long generation, @Nullable Instant created,
      @Nullable Instant deleting, @Nullable Long gracePeriodSeconds) {
    return new ObjectMeta(m.name(), m.namespace(), uid, rv, generation, m.labels(), m.annotations(),
        m.ownerReferences(), m.finalizers(), created, deleting, gracePeriodSeconds);
  }
}
