/**
 * Container health probes with the kubelet's semantics, shared by the simulated kubelet
 * ({@link io.fleetkit.reconcile.node.NodeAgent}) and by real agents: {@link io.fleetkit.reconcile.probe.ProbeWorker}
 * (one probe of one container: initial delay, startup gating, success and failure thresholds, hold after a
 * liveness or startup verdict; kubelet's {@code prober/worker.go}), {@link io.fleetkit.reconcile.probe.ContainerProbes}
 * (a container's three workers on their period grid, and the {@code started}/{@code ready} flags and kill verdict
 * they give; kubelet's {@code prober_manager.go}), {@link io.fleetkit.reconcile.probe.KubeletRestart} (the manager's
 * rule for readiness across a kubelet restart), the {@link io.fleetkit.reconcile.probe.ProbeRunner} SPI that
 * performs one attempt, and {@link io.fleetkit.reconcile.probe.NetworkProbeRunner}, which performs HTTP and TCP
 * probes for real with the JDK.
 *
 * <p>Threading: workers and {@code ContainerProbes} are not thread-safe (drive each from one thread);
 * {@code NetworkProbeRunner} is thread-safe.
 */
@NullMarked
package io.fleetkit.reconcile.probe;

import org.jspecify.annotations.NullMarked;
