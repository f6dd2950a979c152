/**
 * FleetKit as a Kubernetes custom scheduler: pods with {@code spec.schedulerName: fleetkit} (configurable) are
 * placed by FleetKit's scheduler engine and bound through the API server.
 *
 * <p>Entry point: {@link io.fleetkit.adapter.kubernetes.scheduler.KubernetesScheduler} (built with
 * {@link io.fleetkit.adapter.kubernetes.scheduler.KubernetesScheduler#builder}, then {@code start()} and
 * {@code close()}), optionally with {@link io.fleetkit.adapter.kubernetes.scheduler.LeaderElection} on a
 * coordination.k8s.io Lease so that of several replicas only the leader binds. The public API takes fabric8's
 * {@code KubernetesClient} (the caller owns it) and otherwise JDK and FleetKit types; the rest stays in
 * {@code internal}. Deploy manifests are in {@code deploy/kubernetes/}; see {@code docs/kubernetes.md}.
 *
 * <p>Thread safety: {@code KubernetesScheduler} is thread-safe; its builder is not.
 */
@NullMarked
package io.fleetkit.adapter.kubernetes.scheduler;

import org.jspecify.annotations.NullMarked;
