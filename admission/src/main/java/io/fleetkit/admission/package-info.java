/**
 * The built-in admission plugins of the object store, ported from Kubernetes:
 * {@link io.fleetkit.admission.NamespaceLifecyclePlugin}, {@link io.fleetkit.admission.LimitRangerPlugin} and
 * {@link io.fleetkit.admission.ResourceQuotaPlugin} (plus {@link io.fleetkit.admission.QuotaEvaluator}, what objects
 * are charged, and {@link io.fleetkit.admission.QuotaRecount}, the quota controller's recount), and
 * {@link io.fleetkit.admission.NamespaceController}, which empties a namespace being deleted.
 * {@link io.fleetkit.admission.Admission#standard()} is the chain in Kubernetes' recommended order.
 *
 * <p>ResourceQuota charges in one of two ways. By default through the quota's status: one compare-and-set of each
 * applying quota's status per create, shared by every process using the store. Or against a
 * {@link io.fleetkit.admission.QuotaLedger} (see {@link io.fleetkit.admission.Admission}): the usage of one store's
 * quotas is kept in memory, all quotas of a namespace are checked and charged together in one critical section
 * per namespace (as upstream's quota evaluator gives a namespace's requests to one worker), and {@code status.used}
 * is published coalesced, by the admitting thread at most once per interval, by
 * {@link io.fleetkit.admission.QuotaLedger#publish()} and by a {@link io.fleetkit.admission.QuotaReplenisher} given
 * the ledger; denials and their messages are the same.
 *
 * <p>Thread-safety: plugins are stateless (or hold only a clock, or a thread-safe ledger) and thread-safe; the store
 * calls them concurrently.
 */
@NullMarked
package io.fleetkit.admission;

import org.jspecify.annotations.NullMarked;
