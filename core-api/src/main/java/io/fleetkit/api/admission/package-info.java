/**
 * The admission SPI: plugins the object store runs in process on create, update and delete, as Kubernetes' API
 * server runs its admission chain. Entry types: {@link io.fleetkit.api.admission.AdmissionChain} (configured with
 * {@link io.fleetkit.api.store.ObjectStoreBuilder#admission}), {@link io.fleetkit.api.admission.MutatingAdmissionPlugin},
 * {@link io.fleetkit.api.admission.ValidatingAdmissionPlugin}, {@link io.fleetkit.api.admission.AdmissionVerdict}
 * (the answer as a value) and {@link io.fleetkit.api.admission.AdmissionDeniedException} (what a caller of the store
 * gets when a plugin denies). Built-in plugins (NamespaceLifecycle, LimitRanger, ResourceQuota) live in the
 * {@code fleetkit-admission} module.
 *
 * <p>Thread-safety: chains are immutable; plugins are called concurrently by writers and must be thread-safe.
 */
@NullMarked
package io.fleetkit.api.admission;

import org.jspecify.annotations.NullMarked;
