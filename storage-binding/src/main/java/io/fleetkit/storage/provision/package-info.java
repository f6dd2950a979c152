/**
 * Dynamic provisioning: the {@link io.fleetkit.storage.provision.VolumeProvisioner} SPI a StorageClass's
 * {@code provisioner} names, its request and result values, and
 * {@link io.fleetkit.storage.provision.InMemoryProvisioner}, which has a capacity per zone. Provisioners are called
 * by {@link io.fleetkit.storage.PersistentVolumeController}; implementations must be thread-safe.
 */
@NullMarked
package io.fleetkit.storage.provision;

import org.jspecify.annotations.NullMarked;
