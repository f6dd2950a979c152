/**
 * Implementation details of the Slurm adapter, not part of its contract: the v0.0.38 JSON mapping
 * ({@link io.fleetkit.adapter.slurm.internal.SlurmJson}) and GRES string parsing
 * ({@link io.fleetkit.adapter.slurm.internal.Gres}). Stateless and thread-safe.
 */
@NullMarked
package io.fleetkit.adapter.slurm.internal;

import org.jspecify.annotations.NullMarked;
