/**
 * Scheduler plugins for volumes, on the core-api scheduler SPI: {@link VolumeBindingPlugin} (claims bound or
 * provisioned with the pod: PreFilter, Filter, Reserve, Unreserve, PreBind), {@link VolumeRestrictionsPlugin}
 * (a ReadWriteOncePod claim used by one pod at a time), {@link VolumeZonePlugin},
 * {@link NodeVolumeLimitsPlugin}, and the {@link DataLocalityPlugin} score. {@link StoragePlugins} registers them
 * against a {@link io.fleetkit.storage.PersistentVolumeController} and enables them in a profile.
 *
 * <p>Thread-safety: plugins are thread-safe; Filter and Score run on the scheduler's worker threads.
 */
@NullMarked
package io.fleetkit.storage.scheduling;

import org.jspecify.annotations.NullMarked;
