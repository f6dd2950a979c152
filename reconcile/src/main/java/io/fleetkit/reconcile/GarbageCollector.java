package io.fleetkit.reconcile;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.ObjectStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Cascading deletion by owner references, as Kubernetes' garbage collector with background propagation: an
 * object whose {@code metadata.ownerReferences} all point at owners that no longer exist (checked by uid against
 * the store, so a new object of the same name does not count) is deleted, and its own dependents follow when its
 * deletion is observed. An object that lost only some of its owners keeps living, with the dangling references
 * removed. As upstream's graph builder, the collector checks an object when it first sees it, when its owner
 * references change and when one of its owners is deleted; other updates (status writes, bindings) cost it nothing.
 *
 * <p><b>Orphan policy:</b> an owner deleted with the {@link #ORPHAN_FINALIZER} finalizer (use
 * {@link #deleteOrphaning}) has its dependents released instead: the collector removes the references to it from
 * every dependent, then removes the finalizer, which completes the owner's deletion.
 *
 * <p><b>Foreground policy:</b> an owner deleted with the {@link #FOREGROUND_FINALIZER} finalizer (use
 * {@link #deleteForeground}) stays, marked for deletion, until its dependents are gone, as upstream's
 * {@code attemptToDeleteItem} and {@code processDeletingDependentsItem}: the collector deletes every dependent that
 * has no other live owner (in the foreground itself when it has dependents of its own), removes the reference from a
 * dependent that has one, and removes the finalizer once no dependent whose reference has
 * {@code blockOwnerDeletion} is left (a dependent that is being deleted but held by a finalizer still blocks; one
 * whose reference does not block does not). A dependent whose own dependent waits for it in the foreground has its
 * references unblocked first, as upstream breaks such cycles.
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
  /** The finalizer that asks the collector to orphan the owner's dependents (Kubernetes' {@code orphan}). */
  String ORPHAN_FINALIZER = "orphan";

  /**
   * The finalizer that holds an owner until the collector has deleted its blocking dependents (Kubernetes'
   * {@code foregroundDeletion}, set by a delete with {@code propagationPolicy: Foreground}).
   */
  String FOREGROUND_FINALIZER = "foregroundDeletion";

  /** A builder for a collector over {@code store}. */
  static GarbageCollectorBuilder builder(ObjectStore store) {
    return new GarbageCollectorBuilder(store);
  }

  /**
   * Deletes an object with the orphan policy: adds {@link #ORPHAN_FINALIZER} (retrying conflicts) and deletes
   * it; a running collector then releases its dependents and completes the deletion. An object already marked for
   * deletion is left as it is.
   *
   * @return the object marked for deletion
   * @throws io.fleetkit.api.NotFoundException if there is no such object
   */
  static <T extends ApiObject<T>> T deleteOrphaning(ObjectStore store, Class<T> kind, String namespace,
      String name) {
    return deleteWithFinalizer(store, kind, namespace, name, ORPHAN_FINALIZER);
  }

  /**
   * Deletes an object with the foreground policy: adds {@link #FOREGROUND_FINALIZER} (retrying conflicts) and
   * deletes it; a running collector then deletes its dependents and completes the deletion when no blocking one is
   * left. An object already marked for deletion is left as it is.
   *
   * @return the object marked for deletion
   * @throws io.fleetkit.api.NotFoundException if there is no such object
   */
  static <T extends ApiObject<T>> T deleteForeground(ObjectStore store, Class<T> kind, String namespace,
      String name) {
    return deleteWithFinalizer(store, kind, namespace, name, FOREGROUND_FINALIZER);
  }

  private static <T extends ApiObject<T>> T deleteWithFinalizer(ObjectStore store, Class<T> kind, String namespace,
      String name, String finalizer) {
    for (int attempt = 0; ; attempt++) {
      T current = store.require(kind, namespace, name);
      if (current.metadata().deletionTimestamp() != null) {
        return current;
      }
      if (current.metadata().finalizers().contains(finalizer)) {
        break;
      }
      List<String> finalizers = new ArrayList<>(current.metadata().finalizers());
      finalizers.add(finalizer);
      try {
        store.update(current.withMetadata(current.metadata().toBuilder().finalizers(finalizers).build()));
        break;
      } catch (ConflictException e) {
        if (attempt >= 10) {
          throw e;
        }
      }
    }
    return store.delete(kind, namespace, name);
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
