/**
 * The object store: what the API server and etcd are to Kubernetes, embedded. The scheduler, the controllers and
 * the CLI read and write desired and observed state through {@link io.fleetkit.api.store.ObjectStore}; get one
 * with {@link io.fleetkit.api.store.ObjectStore#inMemory()} or {@link io.fleetkit.api.store.ObjectStore#builder()}.
 * Entry types: {@code ObjectStore}, {@code ObjectStoreBuilder}, {@code ListResult}, {@code Watch},
 * {@code WatchListener}, {@code WatchEvent}, {@code DeleteOptions} (with {@code DeletePreconditions} and
 * {@code DeletionPropagation}). The implementation lives in
 * {@code io.fleetkit.api.store.internal} and is not part of the contract.
 *
 * <h2>Consistency model</h2>
 *
 * <p><b>One clock for all changes.</b> The store keeps a single resourceVersion counter for all kinds. Each
 * successful write commits atomically and takes the next value, so resourceVersions order every change in the
 * store. A new store is at version {@code 1}; versions are decimal strings that callers should compare only for
 * equality (or pass back to the store). A write that changes nothing is not a write: no new version, no event.
 *
 * <p><b>Reads.</b> {@code get} returns the latest committed object without taking a lock. {@code list} returns an
 * immutable snapshot of one kind (optionally one namespace, label selector or predicate) that holds exactly the
 * writes up to its resourceVersion. Stored objects are immutable records, so nothing a caller holds ever changes.
 *
 * <p><b>Optimistic concurrency.</b> Update a read object and write it back: if someone else wrote in between,
 * the write fails with {@link io.fleetkit.api.ConflictException} ("the object has been modified; please apply
 * your changes to the latest version and try again") and the caller re-reads and retries. An empty
 * resourceVersion makes an update unconditional. {@code update} changes metadata and spec and keeps the stored
 * status; {@code updateStatus} changes only the status. The store owns {@code uid}, {@code resourceVersion},
 * {@code generation}, {@code creationTimestamp} and {@code deletionTimestamp}; {@code generation} counts spec
 * changes (and, as in Kubernetes, the start of deletion), so controllers compare it with an observed generation.
 *
 * <p><b>Deletion and finalizers.</b> Deleting an object without finalizers removes it. Deleting one with
 * finalizers only sets its {@code deletionTimestamp}; each finalizer's owner does its clean-up and removes its
 * entry by an update, and the update that removes the last one removes the object. No finalizer may be added to
 * an object being deleted by an update. A deletion's {@code DeleteOptions} choose how the object's dependents are
 * treated, as Kubernetes' {@code propagationPolicy}: Orphan and Foreground add the {@code orphan} or
 * {@code foregroundDeletion} finalizer (so the object is marked, not removed, until a garbage collector has done
 * that work), Background adds neither; without a policy the kind's default applies (Jobs orphan). A later deletion
 * of a marked object may switch between them.
 *
 * <p><b>Watches.</b> A watch on a kind receives ADDED, MODIFIED and DELETED events for every change after its
 * start version, exactly once and in strictly increasing resourceVersion order. The informer pattern is therefore
 * exact: {@code list}, then {@code watch} from the list's resourceVersion. Starting from {@code ""} or {@code "0"}
 * means "from now". The last {@code historyLimit} events (default 10,000) are kept for replay; an older start
 * version fails with {@link io.fleetkit.api.ExpiredException} ("too old resource version: X (Y)"), upon which the
 * caller relists and watches from the new list's version.
 *
 * <p><b>Threads.</b> Everything here is thread-safe. Listeners never run under a store lock and may call the
 * store, writes included. Each watch delivers its events one at a time from its own queue. By default the queues
 * are drained on a store-owned pool of daemon threads and a write returns without waiting for listeners; a caller
 * may supply the executor instead. In direct mode the writing thread delivers the events of its write before
 * returning, which makes single-threaded simulations deterministic; an event caused by a write inside a listener
 * is delivered to that listener right after its current call returns, never nested. A listener that throws is
 * logged at WARN and does not affect the store or other watches.
 */
@NullMarked
package io.fleetkit.api.store;

import org.jspecify.annotations.NullMarked;
