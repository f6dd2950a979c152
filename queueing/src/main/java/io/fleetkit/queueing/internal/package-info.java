/**
 * The admission engine's implementation: live quota bookkeeping ({@code QuotaState}), the flavor assigner, the
 * preemptor with its fair-sharing strategies, the per-ClusterQueue queues, and topology-aware scheduling ({@code
 * TopologyAssigner}, Kueue's assignment algorithm over a {@code TopologyTree}; {@code TopologyPlacer}, its use in the
 * engine; {@code NodeFailures} and {@code TopologyReplacement}, Kueue's node failure controller and node replacement).
 * Not part of the public contract. Nothing here is thread-safe; {@link
 * io.fleetkit.queueing.AdmissionEngine} serializes every call.
 */
@NullMarked
package io.fleetkit.queueing.internal;

import org.jspecify.annotations.NullMarked;
