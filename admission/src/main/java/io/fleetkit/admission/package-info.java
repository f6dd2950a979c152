/**
 * The built-in admission plugins of the object store, ported from Kubernetes:
 * {@link io.fleetkit.admission.NamespaceLifecyclePlugin}, {@link io.fleetkit.admission.LimitRangerPlugin} and
 * {@link io.fleetkit.admission.ResourceQuotaPlugin} (plus {@link io.fleetkit.admission.QuotaEvaluator}, what objects
 * are charged, and {@link io.fleetkit.admission.QuotaRecount}, the quota controller's recount), and
 * {@link io.fleetkit.admission.NamespaceController}, which empties a namespace being deleted;
 * {@link io.fleetkit.admission.DraAdminAccessPlugin}, the namespace label DRA admin access requires;
 * {@link io.fleetkit.admission.ServiceAccountPlugin} (a pod's service account defaulted and required to exist) and
 * {@link io.fleetkit.admission.ServiceAccountsController}, which gives every Active namespace its {@code default}
 * account. {@link io.fleetkit.admission.Admission#standard()} is the chain in Kubernetes' recommended order, and
 * {@link io.fleetkit.admission.Admission#withServiceAccounts} the same with ServiceAccount admission.
 *
 * <p>ResourceQuota charges a {@link io.fleetkit.admission.QuotaLedger}: per namespace, a plan of the quotas' resources
 * as numbered slots is made when the quotas change, and each create is checked and charged against all applying
 * quotas at once with primitive counters, in one critical section per namespace (as upstream's quota evaluator gives
 * a namespace's requests to one worker); {@code status.used} is published on a cadence, by
 * {@link io.fleetkit.admission.QuotaLedger#publish()} and by a {@link io.fleetkit.admission.QuotaReplenisher} given the
 * ledger. {@link io.fleetkit.admission.LimitedResource} is the admission configuration's {@code limitedResources}.
 *
 * <p>Thread-safety: plugins are stateless (or hold only a clock and a thread-safe ledger) and thread-safe; the store
 * calls them concurrently.
 */
@NullMarked
package io.fleetkit.admission;

import org.jspecify.annotations.NullMarked;
