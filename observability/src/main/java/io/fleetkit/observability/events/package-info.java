/**
 * Event recording with client-go's semantics: {@link io.fleetkit.observability.events.EventCorrelator} aggregates
 * similar events, counts repeats into a series and drops spam (the rules of {@code tools/record/events_cache.go});
 * {@link io.fleetkit.observability.events.StoreEventRecorder} builds events, correlates them and writes them to an
 * {@link io.fleetkit.api.store.ObjectStore}, and deletes them after a time to live as kube-apiserver's
 * {@code --event-ttl} does. Both are thread-safe.
 */
@NullMarked
package io.fleetkit.observability.events;

import org.jspecify.annotations.NullMarked;
