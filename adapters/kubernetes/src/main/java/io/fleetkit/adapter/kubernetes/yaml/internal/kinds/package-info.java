/**
 * One {@link io.fleetkit.adapter.kubernetes.yaml.internal.KindConverter} per kind, each converting between the
 * fabric8 model (or an untyped {@code GenericKubernetesResource}) and the core-api record. Stateless; thread-safe.
 */
@NullMarked
package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import org.jspecify.annotations.NullMarked;
