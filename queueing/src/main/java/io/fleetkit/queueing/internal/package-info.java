/**
 * The admission engine's implementation: live quota bookkeeping ({@code QuotaState}), the flavor assigner, the
 * preemptor with its fair-sharing strategies, and the per-ClusterQueue queues. Not part of the public contract.
 * Nothing here is thread-safe; {@link io.fleetkit.queueing.AdmissionEngine} serializes every call.
 */
@NullMarked
package io.fleetkit.queueing.internal;

import org.jspecify.annotations.NullMarked;
