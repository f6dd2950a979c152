/**
 * The Slurm adapter (issue 8, not yet built): a slurmrestd client and sbatch generation for running FleetKit workloads on a real Slurm.
 */
@NullMarked
package io.fleetkit.adapter.slurm;

import org.jspecify.annotations.NullMarked;
