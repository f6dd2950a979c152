/**
 * Dynamic Resource Allocation ({@code resource.k8s.io/v1}): the kinds that describe devices and the claims on them.
 *
 * <ul>
 *   <li>{@link io.fleetkit.api.resource.dra.ResourceSlice}: devices a driver publishes, one pool at a time, for one
 *       node, a selection of nodes, all nodes or per device, possibly tainted
 *       ({@link io.fleetkit.api.resource.dra.DeviceTaint}), and the counter sets partitionable devices share
 *       ({@link io.fleetkit.api.resource.dra.CounterSet},
 *       {@link io.fleetkit.api.resource.dra.DeviceCounterConsumption}).
 *       </li>
 *   <li>{@link io.fleetkit.api.resource.dra.DeviceClass}: a named set of selectors every request of that class
 *       applies.</li>
 *   <li>{@link io.fleetkit.api.resource.dra.ResourceClaim} and
 *       {@link io.fleetkit.api.resource.dra.ResourceClaimTemplate}: requests for devices (ExactCount or All, with
 *       selectors, admin access, {@link io.fleetkit.api.resource.dra.DeviceToleration tolerations} and
 *       {@code matchAttribute} constraints, or a prioritized list of
 *       {@link io.fleetkit.api.resource.dra.DeviceSubRequest} alternatives) and, once allocated, the chosen
 *       devices.</li>
 *   <li>{@link io.fleetkit.api.resource.dra.DeviceTaintRule}: a taint an administrator adds to the devices a
 *       {@link io.fleetkit.api.resource.dra.DeviceTaintSelector} matches (by driver, pool and device name), with the
 *       eviction controller's {@code EvictionInProgress} condition in its status.</li>
 *   <li>{@link io.fleetkit.api.resource.dra.DeviceSelectorExpression}: the bounded subset of CEL that selectors may
 *       use; anything outside it is refused when the object is built.</li>
 * </ul>
 *
 * <p>Not modelled yet: request and class configuration, consumable capacity, binding
 * conditions and list-valued attributes.
 *
 * <p>All types are immutable and thread-safe. Constructors of the kinds validate with Kubernetes' rules and throw
 * {@link io.fleetkit.api.ValidationException} listing every broken rule.
 */
@NullMarked
package io.fleetkit.api.resource.dra;

import org.jspecify.annotations.NullMarked;
