/**
 * Events: the {@link io.fleetkit.api.events.Event} kind (events.k8s.io/v1) that tells users what happened to an
 * object and why (a pod was {@code Scheduled}, {@code FailedScheduling}, {@code Preempted}, ...), and the
 * {@link io.fleetkit.api.events.EventRecorder} SPI through which the scheduler and the controllers emit them.
 * {@link io.fleetkit.api.events.EventRecorder#NOOP} drops everything; the {@code fleetkit-observability} module
 * has a recorder that aggregates and rate-limits events as client-go's correlator does and writes them to an
 * object store. Records are immutable; recorders must be thread-safe.
 */
@NullMarked
package io.fleetkit.api.events;

import org.jspecify.annotations.NullMarked;
