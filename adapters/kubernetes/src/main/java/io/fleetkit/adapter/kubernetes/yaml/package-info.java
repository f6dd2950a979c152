/**
 * Kubernetes YAML manifests to and from the FleetKit core model.
 *
 * <p>Entry point: {@link io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml} ({@code load}, {@code parse},
 * {@code dump}); results come as {@link io.fleetkit.adapter.kubernetes.yaml.LoadedObjects}, bad input as one
 * {@link io.fleetkit.adapter.kubernetes.yaml.ManifestException} listing every
 * {@link io.fleetkit.adapter.kubernetes.yaml.ManifestProblem}; fields FleetKit does not model come as warnings, the
 * same {@code ManifestProblem}s, in {@link io.fleetkit.adapter.kubernetes.yaml.LoadedObjects#warnings()}. The public
 * API uses only JDK and core-api types; the fabric8 model and Jackson stay inside {@code internal}. All public
 * types are immutable and thread-safe.
 *
 * <p>Kueue's kinds ({@code kueue.x-k8s.io} v1beta1 and v1beta2 ResourceFlavor, ClusterQueue, LocalQueue, Cohort,
 * WorkloadPriorityClass, AdmissionCheck, Topology) load as the queueing module's {@link io.fleetkit.queueing.manifest.KueueObject} records:
 * metadata plus the queueing engine's own record of the queue as the spec. The adapter depends on {@code queueing}
 * for them rather than model a ClusterQueue a second time in core-api (which cannot depend on {@code queueing}), so
 * one record, validated by Kueue's webhook rules once, serves the loader, the simulator and code that builds an
 * engine directly.
 */
@NullMarked
package io.fleetkit.adapter.kubernetes.yaml;

import org.jspecify.annotations.NullMarked;
