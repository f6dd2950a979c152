/**
 * The node side of self-healing, for embedded and simulated runs: {@link io.fleetkit.reconcile.node.NodeAgent} (a
 * simulated kubelet: runs bound pods, their init containers and sidecars first, restarts containers with
 * CrashLoopBackOff, posts status and heartbeats, survives a restart of its own process; its
 * containers' behaviour comes from a {@link io.fleetkit.reconcile.node.HealthSource} as
 * {@link io.fleetkit.reconcile.node.ContainerScript}s; with a {@link io.fleetkit.reconcile.node.MemoryUsage} it also
 * OOM-kills containers above their memory limit and runs the eviction manager's {@code memory.available} signal),
 * {@link io.fleetkit.reconcile.node.NodeLifecycleController}
 * (missed heartbeats to {@code Ready=Unknown} and NoExecute taints),
 * {@link io.fleetkit.reconcile.node.CloudNodeLifecycleController} (the cloud controller manager's: deletes a not-ready
 * node whose machine is gone, taints one whose machine is shut down, as a
 * {@link io.fleetkit.reconcile.node.CloudInstances} cloud answers; its rules are
 * {@link io.fleetkit.reconcile.node.CloudNodeRules}),
 * {@link io.fleetkit.reconcile.node.TaintEvictionController} (evicts pods whose tolerations, as stored, ran out) and
 * {@link io.fleetkit.reconcile.node.PodGcController} (kube's pod garbage collector: terminated pods beyond a
 * threshold, orphans of deleted nodes, terminating pods on out-of-service nodes and unscheduled ones),
 * {@link io.fleetkit.reconcile.node.ResourceSlicePublisher} (the DRA drivers of pool nodes: publishes the ResourceSlices
 * of their pool's device templates once the drivers run, deletes them with the node);
 * {@link io.fleetkit.reconcile.node.RestartBackoff} is
 * client-go's per-key backoff; {@link io.fleetkit.reconcile.node.PodDns} is the kubelet's resolver configuration for
 * a pod (a pure function; {@link io.fleetkit.reconcile.node.ResolverConfig} reads a {@code resolv.conf}).
 *
 * <p>Threading: these types are not thread-safe; they are made for single-threaded, deterministic simulations (a
 * store in direct delivery mode and a {@link io.fleetkit.api.time.ManualClock}), driven by their {@code sync()}
 * methods on the thread that advances the clock. The simulator module's {@code io.fleetkit.simulator.Simulation}
 * wires them. Implementation details live in {@code io.fleetkit.reconcile.node.internal}, which is not part of the
 * contract.
 */
@NullMarked
package io.fleetkit.reconcile.node;

import org.jspecify.annotations.NullMarked;
