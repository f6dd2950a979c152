/**
 * HTTP routing kinds of {@code networking.k8s.io/v1}: {@link io.fleetkit.api.networking.Ingress} and
 * {@link io.fleetkit.api.networking.IngressClass}. Immutable records validated in the top-level record's
 * constructor (every violation reported at once); thread-safe.
 */
@NullMarked
package io.fleetkit.api.networking;

import org.jspecify.annotations.NullMarked;
