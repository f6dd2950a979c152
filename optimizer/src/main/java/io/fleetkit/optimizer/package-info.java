/**
 * Batch placement and defragmentation planning with OptaPlanner. Entry types: {@link
 * io.fleetkit.optimizer.BatchOptimizer} (a time-boxed, seeded plan for a batch of pending pods and gangs that
 * maximises placed GPU demand) and {@link io.fleetkit.optimizer.DefragmentationPlanner} (which running pods to move,
 * within a budget, to free whole nodes and whole GPUs). Inputs and results are immutable records of JDK and core-api
 * types; the solver's mutable planning model stays in {@code internal}. Optimisers are immutable and thread-safe; each
 * call solves independently on the calling thread.
 */
@NullMarked
package io.fleetkit.optimizer;

import org.jspecify.annotations.NullMarked;
