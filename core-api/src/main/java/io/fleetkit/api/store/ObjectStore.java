package io.fleetkit.api.store;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.ExpiredException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.ValidationException;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A store of API objects with the semantics of the Kubernetes API server over etcd: create/get/list/update/delete
 * per kind, a single global resourceVersion, optimistic concurrency, finalizers, and ordered, replayable watches.
 * Obtain one with {@link #inMemory()} or {@link #builder()}.
 *
 * <h2>Kinds</h2>
 * A kind is identified by the runtime class of its objects ({@code Pod.class}), which must implement
 * {@link ApiObject}. Nothing is registered up front: a kind exists once an object of it is created, and reading or
 * watching a kind with no objects yields nothing. Namespaced kinds are keyed by {@code namespace/name},
 * cluster-scoped kinds by {@code name} (their namespace is always empty). In every read method the namespace
 * {@code ""} means all namespaces (and is the only meaningful value for cluster-scoped kinds).
 *
 * <h2>Consistency model</h2>
 * <ul>
 *   <li><b>Writes are linearizable.</b> Every successful write (create, update, updateStatus, delete, and an
 *       update that removes the last finalizer) commits atomically and is assigned the next value of a single
 *       resourceVersion counter shared by all kinds, a decimal string that only ever increases. A new store is at
 *       version {@code "1"}; the first write gets {@code "2"}. A write that would change nothing (the object after
 *       the update equals the stored one) is not a write: it returns the stored object and produces no version
 *       and no event, as in Kubernetes.</li>
 *   <li><b>Reads see every completed write.</b> {@link #get} is lock-free and returns the latest committed state.
 *       {@code list} returns a snapshot that holds exactly the writes up to its {@link ListResult#resourceVersion()}.
 *       Objects returned are immutable and never change afterwards.</li>
 *   <li><b>Optimistic concurrency.</b> {@link #update} and {@link #updateStatus} with a non-empty resourceVersion
 *       succeed only if it is the stored one, else they throw {@link ConflictException}; with an empty one they
 *       are unconditional. Retry a read-modify-write loop on conflict.</li>
 *   <li><b>Watches are exact.</b> A watch receives every change of its kind after its start version, exactly once,
 *       in strictly increasing resourceVersion order. {@code list} followed by {@code watch} from the list's
 *       version therefore observes every change, none twice. The store keeps the last {@code historyLimit} events
 *       (default 10,000) for replay; a start version older than that throws {@link ExpiredException} ("too old
 *       resource version") and the caller relists. Start versions {@code ""} and {@code "0"} mean "from now".</li>
 *   <li><b>Delivery is decoupled from commit.</b> Listeners run after the write has committed and outside any
 *       store lock, so they may call the store (including writes) freely. By default each watch has its own
 *       queue drained, one event at a time, by a delivery executor (a store-owned pool of daemon threads unless
 *       one is chosen with {@link ObjectStoreBuilder#deliveryExecutor}): a write returns without waiting for
 *       listeners. In direct mode ({@link ObjectStoreBuilder#directDelivery()}) the writing thread delivers the
 *       events itself before the write returns, which makes single-threaded simulations deterministic; the one
 *       exception is a write made from inside a listener, whose event reaches that same listener after the
 *       current call returns (never nested, so order is kept). Under concurrent writers in direct mode an event
 *       may be delivered by whichever writer is already draining that watch.</li>
 *   <li><b>Failures are isolated.</b> A listener that throws is logged (SLF4J, WARN) and the watch goes on with the
 *       next event; the store and other watches are unaffected. A slow listener delays only its own watch; its
 *       queue holds at most {@link ObjectStoreBuilder#watchQueueLimit} undelivered events (default 100,000). A watch that falls further behind is ended, as the API server ends a slow watcher: the events
 *       queued so far are delivered, then {@link WatchListener#onExpired} is called with an
 *       {@link ExpiredException} and the watch is closed; the listener relists.</li>
 * </ul>
 *
 * <h2>Admission</h2>
 * A store built with {@link ObjectStoreBuilder#admission} runs its {@link io.fleetkit.api.admission.AdmissionChain}
 * on create, update and delete before writing: plugins may change the object (defaults) or refuse it with an
 * {@link io.fleetkit.api.admission.AdmissionDeniedException}; status updates and namespace finalize writes are not
 * admitted. Without a chain the store behaves exactly as described here.
 *
 * <h2>Store-owned metadata</h2>
 * {@code uid}, {@code resourceVersion}, {@code generation}, {@code creationTimestamp} and
 * {@code deletionTimestamp} are set by the store; values a caller sends are replaced (a mismatching non-empty
 * {@code uid} on update is a conflict). {@code generation} starts at 1 and is incremented when {@code spec()}
 * changes (by {@code equals}) and when the object is marked for deletion, as Kubernetes does.
 *
 * <h2>Stores behind a network: outcome unknown</h2>
 * A store whose state lives in another process (the etcd store) throws
 * {@link io.fleetkit.api.StoreUnavailableException} from any method when its backend cannot be reached or does not answer in time. From a write this means <em>outcome
 * unknown</em>: the write may have been applied with only its answer lost. It was applied at most once (the store
 * never resends it), but the caller must read the object again before retrying, or retry conditionally (an update at
 * the resourceVersion it read is then a {@link ConflictException} if the first attempt landed, a create "already
 * exists"). Such a store never reports a write it cannot attribute to this call as this call's success. The in-memory
 * store never throws it.
 *
 * <p>Thread-safe. Methods throw {@link NullPointerException} for null arguments and {@link IllegalStateException}
 * after {@link #close()}.
 */
public interface ObjectStore extends AutoCloseable {

  /** A new in-memory store with default settings (system UTC clock, history of 10,000 events, async delivery). */
  static ObjectStore inMemory() {
    return builder().build();
  }

  /** A builder for an in-memory store. */
  static ObjectStoreBuilder builder() {
    return new ObjectStoreBuilder();
  }

  /**
   * Stores a new object. The store assigns {@code uid}, {@code resourceVersion}, {@code generation = 1} and
   * {@code creationTimestamp} (from its clock), clears {@code deletionTimestamp}, and emits
   * {@link WatchEventType#ADDED}.
   *
   * @return the stored object
   * @throws ValidationException if the name is missing, the namespace is missing for a namespaced kind or present
   *     for a cluster-scoped one, a name or namespace contains {@code /}, or a resourceVersion is set
   * @throws ConflictException if an object of this kind and key exists ("already exists")
   * @throws io.fleetkit.api.admission.AdmissionDeniedException if the store's admission chain refuses the object
   *     (see {@link ObjectStoreBuilder#admission}); the object stored is the one the chain's mutating plugins return
   */
  <T extends ApiObject<T>> T create(T object);

  /** The object of {@code kind} at {@code namespace/name} (namespace {@code ""} for cluster-scoped kinds). */
  <T extends ApiObject<T>> Optional<T> get(Class<T> kind, String namespace, String name);

  /**
   * Like {@link #get} but for objects that must exist.
   *
   * @throws NotFoundException if there is none
   */
  <T extends ApiObject<T>> T require(Class<T> kind, String namespace, String name);

  /** All objects of {@code kind}, in all namespaces. */
  default <T extends ApiObject<T>> ListResult<T> list(Class<T> kind) {
    return list(kind, "");
  }

  /** The objects of {@code kind} in {@code namespace} ({@code ""}: all namespaces). */
  <T extends ApiObject<T>> ListResult<T> list(Class<T> kind, String namespace);

  /** The objects of {@code kind} in {@code namespace} ({@code ""}: all) whose labels match {@code selector}. */
  <T extends ApiObject<T>> ListResult<T> list(Class<T> kind, String namespace, LabelSelector selector);

  /**
   * The objects of {@code kind} in {@code namespace} ({@code ""}: all) accepted by {@code filter}. The filter runs
   * on the caller's thread after the snapshot is taken, outside any store lock.
   */
  <T extends ApiObject<T>> ListResult<T> list(Class<T> kind, String namespace, Predicate<? super T> filter);

  /**
   * Replaces the metadata and spec of a stored object, keeping its stored status (use {@link #updateStatus} for
   * that) and the store-owned metadata; a namespace also keeps its stored {@code spec.finalizers} (only
   * {@link #finalizeNamespace} changes them). Bumps {@code generation} if the spec changed. Emits
   * {@link WatchEventType#MODIFIED}, or {@link WatchEventType#DELETED} when the object is being deleted and the
   * update removes its last finalizer (the object is then gone; a namespace only if its {@code spec.finalizers} are
   * empty too; a pod being deleted gracefully, {@code deletionGracePeriodSeconds} above 0, waits for its deletion with
   * grace period 0). The stored {@code deletionGracePeriodSeconds} is kept when the update omits it.
   *
   * @return the stored object after the update (or its final state if it was removed)
   * @throws NotFoundException if there is no such object
   * @throws ConflictException if {@code object}'s resourceVersion is non-empty and stale, or its uid is non-empty
   *     and differs from the stored one
   * @throws ValidationException if the update adds a finalizer to an object being deleted, adds a deletion mark or
   *     sets a {@code deletionGracePeriodSeconds} other than the stored one,
   *     or changes what the kind's update rules keep (e.g. a pod's spec other than images, a workload's selector;
   *     see docs/architecture.md, "Update rules")
   * @throws io.fleetkit.api.admission.AdmissionDeniedException if the store's admission chain refuses the update
   */
  <T extends ApiObject<T>> T update(T object);

  /**
   * Replaces the status of a stored object, keeping its stored spec and metadata (via
   * {@code stored.withStatusOf(object)}). Emits {@link WatchEventType#MODIFIED}. Never changes
   * {@code generation}.
   *
   * @return the stored object after the update
   * @throws NotFoundException if there is no such object
   * @throws ConflictException as for {@link #update}
   * @throws ValidationException if a pod's terminated container would run again without a restart policy allowing
   *     it ({@code ValidatePodStatusUpdate})
   */
  <T extends ApiObject<T>> T updateStatus(T object);

  /**
   * Replaces the metadata and spec of a stored object as {@link #update} does (same checks, admission, generation
   * rule) and its status with {@code object}'s, in one write with one {@link WatchEventType#MODIFIED} event: what
   * the API server's {@code pods/binding} subresource does when it sets {@code spec.nodeName} and the
   * {@code PodScheduled} condition of a pod in one update; it is the one write that may set an unassigned pod's
   * {@code spec.nodeName} (once, and not while the pod is being deleted). This default makes the two writes
   * {@link #update} then {@link #updateStatus} (two versions, two events), which cannot bind a pod (the update
   * refuses the node); a store that can write both at once overrides it, and every store of FleetKit does.
   *
   * @return the stored object after the write (or its final state if the update removed it)
   * @throws NotFoundException if there is no such object
   * @throws ConflictException as for {@link #update}
   * @throws ValidationException as for {@link #update}
   * @throws io.fleetkit.api.admission.AdmissionDeniedException if the store's admission chain refuses the update
   */
  default <T extends ApiObject<T>> T updateWithStatus(T object) {
    T updated = update(object);
    return updateStatus(updated.withStatusOf(object));
  }

  /**
   * Resizes a pod's containers in place, as the API server's {@code pods/resize} subresource: the stored pod with
   * the cpu and memory requests and limits of {@code pod}'s containers and sidecars (matched by name); every other
   * difference of {@code pod} is ignored. An {@link #update} may not change them (the store's update rules, see
   * docs/architecture.md). Admitted as an update; bumps {@code generation} when the resources change.
   *
   * @return the stored pod after the resize
   * @throws NotFoundException if there is no such pod
   * @throws ConflictException as for {@link #update}
   * @throws ValidationException if the pod has pod-level resources, a resource other than cpu or memory changes, or
   *     the pod's QoS class would change
   * @throws UnsupportedOperationException if this store cannot resize pods (the default)
   */
  default io.fleetkit.api.core.Pod resize(io.fleetkit.api.core.Pod pod) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " does not support pods/resize");
  }

  /**
   * Replaces a namespace's {@code spec.finalizers} with {@code namespace}'s, as the API server's
   * {@code namespaces/finalize} subresource: the one write that changes them ({@link #update} keeps the stored ones).
   * Metadata is updated as by {@link #update} (same checks, generation rule); the status is kept. A namespace being
   * deleted is removed by the write that leaves both its {@code spec.finalizers} and its {@code metadata.finalizers}
   * empty ({@link WatchEventType#DELETED}). Not admitted, like {@link #updateStatus}. The namespace controller calls
   * it to take away the {@value io.fleetkit.api.core.Namespace#KUBERNETES_FINALIZER} finalizer.
   *
   * @return the stored namespace after the write (or its final state if it was removed)
   * @throws NotFoundException if there is no such namespace
   * @throws ConflictException as for {@link #update}
   * @throws ValidationException as for {@link #update}
   * @throws UnsupportedOperationException if this store cannot finalize namespaces (the default)
   */
  default io.fleetkit.api.core.Namespace finalizeNamespace(io.fleetkit.api.core.Namespace namespace) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " does not support namespaces/finalize");
  }

  /**
   * Deletes without options: the kind's default policy; see {@link #delete(Class, String, String, DeleteOptions)}.
   */
  default <T extends ApiObject<T>> T delete(Class<T> kind, String namespace, String name) {
    return delete(kind, namespace, name, DeleteOptions.DEFAULT);
  }

  /**
   * Deletes with preconditions only (the kind's default policy); see
   * {@link #delete(Class, String, String, DeleteOptions)}.
   */
  default <T extends ApiObject<T>> T delete(Class<T> kind, String namespace, String name,
      DeletePreconditions preconditions) {
    return delete(kind, namespace, name, DeleteOptions.of(preconditions));
  }

  /**
   * Deletes an object, as the API server's generic registry store. First the options decide the object's
   * garbage-collection finalizers: {@value DeletionPropagation#ORPHAN_FINALIZER} for
   * {@link DeletionPropagation#ORPHAN}, {@value DeletionPropagation#FOREGROUND_FINALIZER} for
   * {@link DeletionPropagation#FOREGROUND}, neither for {@link DeletionPropagation#BACKGROUND}; without a policy a
   * GC finalizer the object already carries stays, else the kind's default applies (Jobs orphan their dependents,
   * every other kind deletes them; see {@link DeleteOptions}). Then an object left without finalizers is removed at
   * once ({@link WatchEventType#DELETED}); one left with finalizers is marked: {@code deletionTimestamp} set from the
   * clock, {@code generation} bumped, the finalizers written ({@link WatchEventType#MODIFIED}); it is removed when an
   * update clears its last finalizer (a garbage collector removes the GC ones once it has orphaned or deleted the
   * dependents). Deleting an object already marked keeps its mark and changes only its GC finalizers, when the
   * options ask for others (switching the policy, as Kubernetes allows); one that takes away its last finalizer
   * removes it, and one that changes nothing writes nothing; an object marked only to wait for its finalizers has
   * {@code deletionGracePeriodSeconds} 0. A pod is deleted gracefully, as by Kubernetes' pod registry: a pod bound
   * to a node and neither Succeeded nor Failed is first marked ({@link WatchEventType#MODIFIED}) with
   * {@code deletionTimestamp} now plus its grace period ({@link DeleteOptions#gracePeriodSeconds()}, else its
   * {@code spec.terminationGracePeriodSeconds}) and {@code deletionGracePeriodSeconds}, and is removed by a later
   * deletion with grace period 0 (the kubelet's, once its containers stopped, or the pod garbage collector's); a
   * deletion of a pod being deleted may only shorten its grace period, and a pod not bound or already terminated
   * is deleted at once. A namespace is deleted as by Kubernetes' namespace
   * registry: the first deletion marks it and makes it Terminating whatever its finalizers (with the GC finalizers
   * the options ask for); it is removed when {@link #finalizeNamespace} or an update leaves both its
   * {@code spec.finalizers} and its {@code metadata.finalizers} empty, or by a later deletion once both are.
   *
   * @return the object after the call: its final state if removed (finalizers empty), else the marked object
   * @throws NotFoundException if there is no such object
   * @throws ConflictException if a precondition does not hold
   * @throws io.fleetkit.api.admission.AdmissionDeniedException if the store's admission chain refuses the deletion
   */
  <T extends ApiObject<T>> T delete(Class<T> kind, String namespace, String name, DeleteOptions options);

  /**
   * Starts watching every object of {@code kind}.
   *
   * @param fromResourceVersion {@code ""} or {@code "0"} to receive changes from now on; otherwise a version
   *     previously returned by this store, to receive every change after it (replayed from history first)
   * @throws ExpiredException if changes after {@code fromResourceVersion} are no longer in the history
   *     ("too old resource version: X (Y)"); relist and watch from the list's version
   * @throws IllegalArgumentException if {@code fromResourceVersion} is not a decimal number or is newer than the
   *     store's current version
   */
  <T extends ApiObject<T>> Watch watch(Class<T> kind, String fromResourceVersion, WatchListener<T> listener);

  /** The resourceVersion of the last committed write (or {@code "1"} for a new store). */
  String resourceVersion();

  /**
   * Whether other processes may write the same objects: a store kept in etcd that several programs open. What a
   * component keeps in memory about the stored objects is then not authoritative; ResourceQuota admission, for one,
   * charges each create through a compare-and-set of the quotas' status (as the Kubernetes API servers do) instead
   * of its in-memory ledger. {@code false} for the in-memory store; a store that wraps another answers as it.
   */
  default boolean sharedWithOtherProcesses() {
    return false;
  }

  /**
   * Closes every watch and releases the store-owned delivery threads. Later calls throw
   * {@link IllegalStateException}. Idempotent.
   */
  @Override
  void close();
}
