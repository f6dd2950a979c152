/**
 * Storage binding with Kubernetes' semantics: {@link io.fleetkit.storage.VolumeMatching} (upstream's claim to volume
 * matching rules), {@link io.fleetkit.storage.PersistentVolumeController} (binding, phases, reclaim, dynamic
 * provisioning with backoff, over an {@link io.fleetkit.api.store.ObjectStore}),
 * {@link io.fleetkit.storage.EphemeralVolumeController} (the claims of generic ephemeral volumes, with
 * {@link io.fleetkit.storage.EphemeralVolumes}), {@link io.fleetkit.storage.StatefulSetClaims} (per-replica
 * claims from volumeClaimTemplates) and {@link io.fleetkit.storage.TopologyLabels} (topology label keys).
 * Provisioners are in {@link io.fleetkit.storage.provision}, the scheduler plugins in
 * {@link io.fleetkit.storage.scheduling}.
 *
 * <p>Thread-safety: every public type here is thread-safe or stateless.
 */
@NullMarked
package io.fleetkit.storage;

import org.jspecify.annotations.NullMarked;
