/**
 * Building blocks for implementations of {@link io.fleetkit.api.store.ObjectStore} (the in-memory store, the etcd
 * store), so that every implementation applies the same write rules and delivers watch events by the same rules.
 * Entry types: {@link io.fleetkit.api.store.spi.WriteRules} (what each write does, including the per-kind update
 * rules of {@link io.fleetkit.api.store.spi.UpdateChecks} and the deletion's garbage-collection finalizers of
 * {@link io.fleetkit.api.store.spi.DeletionFinalizers}, with each kind's
 * {@link io.fleetkit.api.store.spi.GarbageCollectionPolicy}, and the graceful deletion of pods of
 * {@code GracefulDeletion}) and {@link io.fleetkit.api.store.spi.WatchQueue}.
 * Application code does not need this package. Thread-safety is documented on each type.
 */
@NullMarked
package io.fleetkit.api.store.spi;

import org.jspecify.annotations.NullMarked;
