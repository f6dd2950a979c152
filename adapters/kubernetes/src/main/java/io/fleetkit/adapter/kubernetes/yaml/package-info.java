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
 */
@NullMarked
package io.fleetkit.adapter.kubernetes.yaml;

import org.jspecify.annotations.NullMarked;
