/**
 * The built-in admission plugins of the object store, ported from Kubernetes:
 * {@link io.fleetkit.admission.NamespaceLifecyclePlugin}, {@link io.fleetkit.admission.LimitRangerPlugin} and
 * {@link io.fleetkit.admission.ResourceQuotaPlugin} (plus {@link io.fleetkit.admission.QuotaEvaluator}, what objects
 * are charged, and {@link io.fleetkit.admission.QuotaRecount}, the quota controller's recount), and
 * {@link io.fleetkit.admission.NamespaceController}, which empties a namespace being deleted.
 * {@link io.fleetkit.admission.Admission#standard()} is the chain in Kubernetes' recommended order.
 *
 * <p>Thread-safety: plugins are stateless (or hold only a clock) and thread-safe; the store calls them concurrently.
 */
@NullMarked
package io.fleetkit.admission;

import org.jspecify.annotations.NullMarked;
