/**
 * The Slurm adapter: runs FleetKit workloads on a real Slurm through slurmrestd (OpenAPI v0.0.38, Slurm 22.05).
 *
 * <p>Entry types: {@link io.fleetkit.adapter.slurm.SlurmClient} (ping, nodes, partitions, submit/get/list/cancel
 * jobs; JWT auth through {@link io.fleetkit.adapter.slurm.SlurmToken}; retries per
 * {@link io.fleetkit.adapter.slurm.SlurmRetry}), {@link io.fleetkit.adapter.slurm.SlurmJobSpec} (one batch job, from
 * which both the REST body and the {@link io.fleetkit.adapter.slurm.SbatchScript} are made),
 * {@link io.fleetkit.adapter.slurm.SlurmWorkloads} (a Job or a PodGroup as one Slurm job) and
 * {@link io.fleetkit.adapter.slurm.SlurmBackend} (runs them and keeps their state in an ObjectStore). Failures are
 * {@link io.fleetkit.adapter.slurm.SlurmException}s; the token never appears in messages, logs or
 * {@code toString()}.
 *
 * <p>Thread safety: the client, token and backend are thread-safe; records are immutable; builders are not
 * thread-safe. See docs/slurm.md.
 */
@NullMarked
package io.fleetkit.adapter.slurm;

import org.jspecify.annotations.NullMarked;
