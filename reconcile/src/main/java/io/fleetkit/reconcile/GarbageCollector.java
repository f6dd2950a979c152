package io.fleetkit.reconcile;

import io.fleetkit.api.store.DeletionPropagation;
import io.fleetkit.api.store.ObjectStore;
import java.util.concurrent.CompletableFuture;

/**
 * Cascading deletion by owner references, as Kubernetes' garbage collector: it carries out the propagation policy a
 * deletion recorded on the owner ({@link io.fleetkit.api.store.ObjectStore#delete(Class, String, String,
 * io.fleetkit.api.store.DeleteOptions)} with {@link io.fleetkit.api.store.DeleteOptions#propagation}, or the kind's
 * default: see {@link io.fleetkit.api.store.DeleteOptions}).
 *
 * <p><b>Background policy</b> (the owner was removed, no GC finalizer): an object whose
 * {@code metadata.ownerReferences} all point at owners that no longer exist (checked by uid against the store, so a
 * new object of the same name does not count) is deleted, and its own dependents follow when its deletion is
 * observed. An object that lost only some of its owners keeps living, with the dangling references removed. As
 * upstream's graph builder, the collector checks an object when it first sees it, when its owner references change
 * and when one of its owners is deleted; other updates (status writes, bindings) cost it nothing. It deletes with
 * {@code propagationPolicy: Background} (in the foreground when an owner waits for the object and it has dependents
 * of its own), as upstream's {@code attemptToDeleteItem}, so a dependent whose kind orphans by default (a Job)
 * still has its own dependents collected.
 *
 * <p><b>Orphan policy:</b> an owner being deleted with the {@link #ORPHAN_FINALIZER} finalizer has its dependents
 * released instead, as upstream's {@code attemptToOrphan}: the collector removes the references to it from every
 * dependent, then removes the finalizer, which completes the owner's deletion (unless other finalizers hold it).
 *
 * <p><b>Foreground policy:</b> an owner being deleted with the {@link #FOREGROUND_FINALIZER} finalizer stays,
 * marked for deletion, until its dependents are gone, as upstream's {@code attemptToDeleteItem} and
 * {@code processDeletingDependentsItem}: the collector deletes every dependent that has no other live owner (in the
 * foreground itself when it has dependents of its own), removes the reference from a dependent that has one, and
 * removes the finalizer once no dependent whose reference has {@code blockOwnerDeletion} is left (a dependent that
 * is being deleted but held by a finalizer still blocks; one whose reference does not block does not). A dependent
 * whose own dependent waits for it in the foreground has its references unblocked first, as upstream breaks such
 * cycles.
 *
 * <p>The finalizers may change while the owner is being deleted (a later deletion that switches the policy): the
 * collector acts on the one the owner carries when it gets to it.
 *
 * <p><b>Kinds:</b> the collector watches the kinds given to {@link GarbageCollectorBuilder#watch} and resolves an
 * owner reference through its {@code apiVersion} group and {@code kind}: declared with
 * {@link GarbageCollectorBuilder#watch(Class, String, String)} or learned from the objects it sees. A reference to
 * a kind it cannot resolve is treated as pointing at a live owner (never deleted on a guess); watch every owner
 * kind, and declare the names of owner kinds that may have no objects when the collector starts.
 *
 * <p>Threaded or stepping like {@link Controller}. Thread-safe.
 */
public interface GarbageCollector extends AutoCloseable {
  /**
   * The finalizer that asks the collector to orphan the owner's dependents (Kubernetes' {@code orphan}), set by a
   * deletion with {@code propagationPolicy: Orphan}.
   */
  String ORPHAN_FINALIZER = DeletionPropagation.ORPHAN_FINALIZER;

  /**
   * The finalizer that holds an owner until the collector has deleted its blocking dependents (Kubernetes'
   * {@code foregroundDeletion}), set by a deletion with {@code propagationPolicy: Foreground}.
   */
  String FOREGROUND_FINALIZER = DeletionPropagation.FOREGROUND_FINALIZER;

  /** A builder for a collector over {@code store}. */
  static GarbageCollectorBuilder builder(ObjectStore store) {
    return new GarbageCollectorBuilder(store);
  }

  /** Starts the informers and, in threaded mode, the worker. */
  CompletableFuture<Void> start();

  /**
   * Stepping mode: processes one ready item on the calling thread.
   *
   * @return whether an item was processed
   * @throws IllegalStateException in threaded mode or before {@link #start()}
   */
  boolean runOnce();

  /**
   * Stepping mode: processes items until none is ready.
   *
   * @return how many were processed
   * @throws IllegalStateException in threaded mode or before {@link #start()}
   */
  int runUntilIdle();

  /** How many objects the collector has deleted. */
  long deletedCount();

  /** Stops the worker and the informers. Idempotent. */
  @Override
  void close();
}
