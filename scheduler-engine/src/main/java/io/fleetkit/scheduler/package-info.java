/**
 * FleetKit's scheduler: kube-scheduler's framework with its queue, cache, snapshot and node sampling, driven through
 * one {@link io.fleetkit.scheduler.Scheduler} built by {@link io.fleetkit.scheduler.Scheduler#builder()}.
 *
 * <p>Entry types: {@link io.fleetkit.scheduler.Scheduler} and its {@link io.fleetkit.scheduler.SchedulerBuilder},
 * {@link io.fleetkit.scheduler.PluginRegistry} and {@link io.fleetkit.scheduler.DefaultPlugins} (which plugins exist
 * and kube's default profile), {@link io.fleetkit.scheduler.ScheduleResult} and
 * {@link io.fleetkit.scheduler.PendingPod} (what happened), the binders {@link io.fleetkit.scheduler.InMemoryBinder}
 * and {@link io.fleetkit.scheduler.StoreBinder}, and {@link io.fleetkit.scheduler.StoreScheduler}, which feeds a
 * scheduler from an {@link io.fleetkit.api.store.ObjectStore}.
 *
 * <p>Thread safety: a {@link io.fleetkit.scheduler.Scheduler} is thread-safe; its operations are serialized by one
 * lock, and a scheduling cycle runs Filter and Score in parallel on the scheduler's own worker threads. Registries,
 * results and records are immutable.
 */
@NullMarked
package io.fleetkit.scheduler;

import org.jspecify.annotations.NullMarked;
