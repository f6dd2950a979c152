/**
 * One entry point for embedders that start from manifests: {@link io.fleetkit.cluster.Cluster} loads Kubernetes
 * YAML, picks the scheduler profiles (kube's default, a {@code KubeSchedulerConfiguration} file read by
 * {@link io.fleetkit.cluster.ProfileFile}, or profiles built in code) and a GPU placement policy, and schedules
 * every pending pod the way the API server and kube-scheduler would: the store's admission chain first, then the
 * scheduler with the storage controller when claims are present and Coscheduling when gangs are, on a simulated
 * clock. The result is a {@link io.fleetkit.cluster.ScheduleOutcome}; the scheduler's metrics go to the
 * {@link io.fleetkit.api.metrics.MetricsRegistry} given to the builder.
 *
 * <p>Threading: a {@code Cluster} is immutable; each {@code schedule()} call builds its own store and scheduler and
 * runs on the calling thread.
 */
@NullMarked
package io.fleetkit.cluster;

import org.jspecify.annotations.NullMarked;
