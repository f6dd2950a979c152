/**
 * Kueue's own objects ({@code kueue.x-k8s.io/v1beta1} and {@code v1beta2} ResourceFlavor, ClusterQueue, LocalQueue,
 * Cohort, WorkloadPriorityClass, AdmissionCheck and Topology) as {@link io.fleetkit.api.meta.ApiObject}s, so that manifests can carry them
 * next to Pods and Jobs.
 *
 * <p>Design: each object is its metadata plus, as its spec, the queueing module's record of the kind ({@link
 * io.fleetkit.queueing.ClusterQueue}, ...), which already holds every field the {@link
 * io.fleetkit.queueing.AdmissionEngine} honours and validates it as Kueue's webhooks do; nothing of a queue is
 * modelled twice. The records live here, not in core-api, because core-api cannot depend on the queueing module;
 * the YAML adapter converts manifests into them and the simulator builds its engine from them ({@link
 * io.fleetkit.queueing.manifest.KueueManifests#addTo}).
 *
 * <p>Entry types: {@link io.fleetkit.queueing.manifest.KueueObject} (sealed; one record per kind) and {@link
 * io.fleetkit.queueing.manifest.KueueManifests}. Records are immutable and thread-safe.
 */
@NullMarked
package io.fleetkit.queueing.manifest;

import org.jspecify.annotations.NullMarked;
