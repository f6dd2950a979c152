/**
 * Implementations behind the public types of {@code io.fleetkit.reconcile}: the work queue, the rate limiters,
 * the informer and its indexed cache, the controller loop, the garbage collector and the store-backed leader
 * elector. Not part of the public contract; construct everything through the public factories and builders.
 * Thread-safety as documented on each type.
 */
@NullMarked
package io.fleetkit.reconcile.internal;

import org.jspecify.annotations.NullMarked;
