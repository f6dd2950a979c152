package io.fleetkit.reconcile.probe;

import io.fleetkit.api.core.Probe;
import io.fleetkit.api.core.ProbeType;

/**
 * Performs one probe attempt (kubelet's {@code prober.probe}): an HTTP GET, a TCP connect, an exec or a gRPC health
 * check against a container. The thresholds, delays and holds around it are {@link ProbeWorker}'s job, so an
 * implementation only reports what one attempt saw, within {@link Probe#timeout()}. {@link NetworkProbeRunner} does
 * HTTP and TCP for real; a simulation answers from its model of the application.
 *
 * <p>Implementations must not throw for a failed check (that is {@link ProbeOutcome#failure}); a check they cannot
 * perform is {@link ProbeOutcome#error}, which the worker discards.
 */
@FunctionalInterface
public interface ProbeRunner {
  /** Runs {@code probe} (declared as a {@code type} probe) once against {@code target}. */
  ProbeOutcome run(ProbeType type, Probe probe, ProbeTarget target);
}
